import { ARM_API_VERSION } from '../backends/kql.js';
import type { PlannedCall } from '../item-types/calls.js';
import { raiseGate } from '../backends/failures.js';
import { GateError } from '../errors.js';
import { gate } from './gates.js';
import type { StepContext } from './context.js';
import { cluster, ident, type KqlCommand, kqlString, mgmtRecords, runKqlCommands } from './kql-script.js';
import { underSharedAccess } from '../backends/shared-access.js';
import { differingFunctions, readDatabase } from './kql-read.js';

export { cluster, ident, kqlString } from './kql-script.js';

type Column = { name: string; type: string };
type Table = { name: string; columns: Column[]; seedRows?: unknown[][] };
type KqlContent = {
  database: string;
  tables?: Table[];
  functions?: Array<{ name: string; parameters: string; body: string; docstring?: string }>;
};

/** One CSV field as `.ingest inline` reads it: quoted when needed, "" escaping a quote. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Creates or updates the database with the resource manager's PUT (idempotent). Beside other installs of it (shared
 * access) a database that is there is read (GET) and used as it is; one that is not is made alone.
 */
export async function ensureDatabase(ctx: StepContext, database: string) {
  const { uri, resourceId } = cluster(ctx);
  if (underSharedAccess()) {
    const found = await readDatabase(ctx, database);
    if (found) {
      ctx.log(`database ${database}: exists (resource manager GET)`);
      return { ...found, created: false };
    }
  }
  try {
    const db = await ctx.backends.kql.putDatabase(resourceId, database, ctx.target.kqlLocation);
    ctx.log(`database ${database}: ${db.created ? 'created' : 'exists'} (resource manager PUT)`);
    return { ...db, uri };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'kql-arm-auth' } });
  }
}

/**
 * Tables (.create table: an existing one is success, no change), functions, and seed rows ingested into empty tables
 * only, sent as one database script after one read of the tables and their row counts (.show tables details).
 * Answers whether a table or seed rows were added (a database that existed without them was still provisioned now).
 */
export async function applyKqlContent(ctx: StepContext, uri: string, database: string, content: KqlContent): Promise<boolean> {
  const tables = content.tables ?? [];
  const rowCounts = new Map<string, number>();
  if (tables.length) {
    const details = await mgmtRecords(ctx, uri, database, '.show tables details');
    for (const t of details) rowCounts.set(String(t.TableName), Number(t.TotalRowCount ?? 0));
  }
  const commands: KqlCommand[] = [];
  const present: string[] = [];
  // Beside other installs (shared access) only what differs is sent: a table that is there is left as `.create table`
  // would leave it, and a function is altered only when `.show functions` answers another text.
  const beside = underSharedAccess();
  const functions = beside ? await differingFunctions(ctx, uri, database, content.functions ?? []) : (content.functions ?? []);
  for (const table of tables) {
    const schema = table.columns.map((c) => `${ident(c.name)}:${c.type}`).join(', ');
    const exists = rowCounts.has(table.name) ? ': exists' : '';
    if (beside && exists) {
      present.push(`table ${table.name}: exists`);
      continue;
    }
    commands.push({
      csl: `.create table ${ident(table.name)} (${schema})`,
      done: `.create table ${table.name} (${table.columns.length} columns)${exists}`,
    });
  }
  for (const fn of content.functions ?? []) {
    if (!functions.includes(fn)) {
      present.push(`function ${fn.name}: as the content has it`);
      continue;
    }
    const doc = fn.docstring ? ` with (docstring=${kqlString(fn.docstring)})` : '';
    commands.push({
      csl: `.create-or-alter function${doc} ${ident(fn.name)}${fn.parameters} { ${fn.body} }`,
      done: `.create-or-alter function ${fn.name}`,
    });
  }
  let ingested = false;
  for (const table of tables) {
    if (!table.seedRows?.length) continue;
    const count = rowCounts.get(table.name) ?? 0;
    if (count > 0) {
      present.push(`seed rows of ${table.name}: already present (${count} rows), not ingested again`);
      continue;
    }
    const csv = table.seedRows.map((r) => r.map(csvField).join(',')).join('\n');
    commands.push({
      csl: `.ingest inline into table ${ident(table.name)} <|\n${csv}`,
      done: `.ingest inline into table ${table.name}: ${table.seedRows.length} rows`,
    });
    ingested = true;
  }
  if (commands.length) await runKqlCommands(ctx, uri, database, commands);
  for (const line of present) ctx.log(line);
  return ingested || tables.some((t) => !rowCounts.has(t.name));
}

/** The resource manager's database PUT ensureDatabase makes, and its asynchronous operation. */
export const DATABASE_CALLS: readonly PlannedCall[] = [
  {
    service: 'arm',
    method: 'PUT',
    path: `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}?api-version=${ARM_API_VERSION}`,
    when: 'alone',
  },
  {
    service: 'arm',
    method: 'GET',
    path: `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}?api-version=${ARM_API_VERSION}`,
    when: 'beside',
  },
  {
    service: 'arm',
    method: 'GET',
    path: '/subscriptions/{subscription}/providers/Microsoft.Kusto/locations/{location}/operationResults/{operation}',
    when: 'accepted',
  },
];

const MGMT = '/v1/rest/mgmt';

/** What one database script carries, as the plan names it: `.create table ×2, .ingest inline of 24 rows ×2 into empty tables`. */
export function scriptCommand(parts: ReadonlyArray<[string, number]>): string {
  const named = parts.filter(([, n]) => n > 0).map(([what, n]) => `${what}${n === 1 ? '' : ` ×${n}`}`);
  return named.length > 1 || parts.some(([, n]) => n > 1) ? `.execute database script <| ${named.join(', ')}` : (named[0] ?? '');
}

/** The calls ensureDatabase and applyKqlContent make for `content`: the database PUT, a read of its tables, one database script. */
export function kqlContentCalls(content: KqlContent): PlannedCall[] {
  const tables = content.tables ?? [];
  const seeded = tables.filter((t) => t.seedRows?.length).length;
  const rows = tables.reduce((n, t) => n + (t.seedRows?.length ?? 0), 0);
  const script = scriptCommand([
    ['.create table', tables.length],
    ['.create-or-alter function', content.functions?.length ?? 0],
    [`.ingest inline (${rows} rows, into empty tables)`, seeded],
  ]);
  return [
    ...DATABASE_CALLS,
    ...(tables.length ? [{ service: 'kql', method: 'POST', path: MGMT, command: '.show tables details' } as const] : []),
    ...(content.functions?.length
      ? [{ service: 'kql', method: 'POST', path: MGMT, command: '.show functions', when: 'beside' } as const]
      : []),
    ...(script ? [{ service: 'kql', method: 'POST', path: MGMT, command: script, when: 'alone' } as const] : []),
  ];
}
