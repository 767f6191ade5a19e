import { ARM_API_VERSION } from '../backends/kql.js';
import type { PlannedCall } from '../item-types/calls.js';
import { raiseGate } from '../backends/failures.js';
import { GateError } from '../errors.js';
import { gate } from './gates.js';
import type { StepContext } from './context.js';

type Column = { name: string; type: string };
type Table = { name: string; columns: Column[]; seedRows?: unknown[][] };
type KqlContent = {
  database: string;
  tables?: Table[];
  functions?: Array<{ name: string; parameters: string; body: string; docstring?: string }>;
};

/** A KQL name as written in a command: bare, or bracketed and quoted. */
export const ident = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `['${name.replace(/'/g, "\\'")}']`);
/** A KQL string literal. */
export const kqlString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** One CSV field as `.ingest inline` reads it: quoted when needed, "" escaping a quote. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The cluster the install targets, or the "KQL cluster not configured" gate. */
export function cluster(ctx: StepContext) {
  const uri = ctx.target.kqlClusterUri;
  const resourceId = ctx.target.kqlClusterResourceId;
  if (!uri || !resourceId) throw new GateError(gate('kql-not-configured', ctx.profile));
  return { uri, resourceId };
}

/** Creates or updates the database with the resource manager's PUT (idempotent). */
export async function ensureDatabase(ctx: StepContext, database: string) {
  const { uri, resourceId } = cluster(ctx);
  try {
    const db = await ctx.backends.kql.putDatabase(resourceId, database, ctx.target.kqlLocation);
    ctx.log(`database ${database}: ${db.created ? 'created' : 'exists'} (resource manager PUT)`);
    return { ...db, uri };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'kql-arm-auth' } });
  }
}

/** Runs management commands, turning a 401/403 into the AllDatabasesAdmin gate. */
export async function mgmt(ctx: StepContext, uri: string, database: string, csl: string) {
  try {
    return await ctx.backends.kql.mgmt(uri, database, csl);
  } catch (err) {
    raiseGate(err, {
      profile: ctx.profile,
      gates: { auth: 'kql-create-table-auth', detail: { principal: ctx.backends.pipeline.credential.principal } },
    });
  }
}

/**
 * Tables (.create table: an existing one is success, no change), functions, and seed rows ingested once.
 * Answers whether a table or seed rows were added (a database that existed without them was still provisioned now).
 */
export async function applyKqlContent(ctx: StepContext, uri: string, database: string, content: KqlContent): Promise<boolean> {
  let added = false;
  const existing = content.tables?.length
    ? new Set((await mgmt(ctx, uri, database, '.show tables')).map((r) => String(r[0])))
    : new Set<string>();
  for (const table of content.tables ?? []) {
    const schema = table.columns.map((c) => `${ident(c.name)}:${c.type}`).join(', ');
    await mgmt(ctx, uri, database, `.create table ${ident(table.name)} (${schema})`);
    added ||= !existing.has(table.name);
    ctx.log(`.create table ${table.name} (${table.columns.length} columns)${existing.has(table.name) ? ': exists' : ''}`);
  }
  for (const fn of content.functions ?? []) {
    const doc = fn.docstring ? ` with (docstring=${kqlString(fn.docstring)})` : '';
    await mgmt(ctx, uri, database, `.create-or-alter function${doc} ${ident(fn.name)}${fn.parameters} { ${fn.body} }`);
    ctx.log(`.create-or-alter function ${fn.name}`);
  }
  for (const table of content.tables ?? []) {
    if (!table.seedRows?.length) continue;
    const rows = await ctx.backends.kql
      .query(uri, database, `${ident(table.name)} | count`)
      .catch((err) => raiseGate(err, { profile: ctx.profile, gates: { auth: 'kql-create-table-auth' } }));
    const count = Number((rows[0] ?? [0])[0]);
    if (count > 0) {
      ctx.log(`seed rows of ${table.name}: already present (${count} rows), not ingested again`);
      continue;
    }
    const csv = table.seedRows.map((r) => r.map(csvField).join(',')).join('\n');
    await mgmt(ctx, uri, database, `.ingest inline into table ${ident(table.name)} <|\n${csv}`);
    added = true;
    ctx.log(`.ingest inline into table ${table.name}: ${table.seedRows.length} rows`);
  }
  return added;
}

/** The resource manager's database PUT ensureDatabase makes, and its asynchronous operation. */
export const DATABASE_CALLS: readonly PlannedCall[] = [
  {
    service: 'arm',
    method: 'PUT',
    path: `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}?api-version=${ARM_API_VERSION}`,
  },
  {
    service: 'arm',
    method: 'GET',
    path: '/subscriptions/{subscription}/providers/Microsoft.Kusto/locations/{location}/operationResults/{operation}',
    when: 'accepted',
  },
];

const MGMT = '/v1/rest/mgmt';

/** The calls ensureDatabase and applyKqlContent make for `content`. */
export function kqlContentCalls(content: KqlContent): PlannedCall[] {
  const tables = content.tables ?? [];
  const seeded = tables.filter((t) => t.seedRows?.length).length;
  const rows = tables.reduce((n, t) => n + (t.seedRows?.length ?? 0), 0);
  return [
    ...DATABASE_CALLS,
    ...(tables.length
      ? ([
          { service: 'kql', method: 'POST', path: MGMT, command: '.show tables' },
          { service: 'kql', method: 'POST', path: MGMT, command: '.create table', times: tables.length },
        ] as const)
      : []),
    ...(content.functions?.length
      ? [{ service: 'kql', method: 'POST', path: MGMT, command: '.create-or-alter function', times: content.functions.length } as const]
      : []),
    ...(seeded
      ? ([
          { service: 'kql', method: 'POST', path: '/v2/rest/query', command: '<table> | count', times: seeded },
          { service: 'kql', method: 'POST', path: MGMT, command: `.ingest inline of ${rows} rows`, times: seeded, when: 'unseeded' },
        ] as const)
      : []),
  ];
}
