import { ARM_API_VERSION } from '../backends/kql.js';
import { raiseGate } from '../backends/failures.js';
import type { PlannedCall } from '../item-types/calls.js';
import type { LiveParts } from '../item-types/descriptor.js';
import type { StepContext } from './context.js';
import { cluster, ident, mgmt } from './kql-script.js';

type Table = { name: string; columns: Array<{ name: string; type: string }> };
/** A KQL function as the plan compares it: its parameters, body, and the docstring and folder when it has them. */
export type KqlFunction = { name: string; parameters: string; body: string; docstring?: string; folder?: string };

const tablePart = (t: Table) => t.columns.map((c) => `${c.name}:${c.type}`).join('\n');
const functionPart = (f: KqlFunction) =>
  [
    `${f.name}${f.parameters}`,
    ...(f.folder ? [`folder: ${f.folder}`] : []),
    ...(f.docstring ? [`docstring: ${f.docstring}`] : []),
    f.body.trim(),
  ].join('\n');
/** A function body as `.show functions` answers it ("{ … }"), without its braces. */
const bare = (body: string) =>
  body
    .trim()
    .replace(/^\{([\s\S]*)\}$/, '$1')
    .trim();

/** The parts `.create table` and `.create-or-alter function` send: each table's columns, each function's text. */
export function kqlParts(tables: readonly Table[], functions: readonly KqlFunction[]): LiveParts {
  return Object.fromEntries([
    ...tables.map((t) => [`table ${t.name}`, tablePart(t)]),
    ...functions.map((f) => [`function ${f.name}`, functionPart({ ...f, body: bare(f.body) })]),
  ]);
}

/** The database through the resource manager (GET), or undefined when it does not exist; a 401/403 is the resource manager's gate. */
export async function readDatabase(ctx: StepContext, database: string) {
  const { uri, resourceId } = cluster(ctx);
  try {
    const db = await ctx.backends.kql.getDatabase(resourceId, database);
    return db && { ...db, uri };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'kql-arm-auth' } });
  }
}

/**
 * The named tables and functions of a database as it holds them now, read with `.show` commands only (read-only
 * management commands): `.show tables`, each named table's schema, `.show functions`. What the content does not name
 * is not read back (provisioning leaves it alone).
 */
export async function readKqlObjects(
  ctx: StepContext,
  uri: string,
  database: string,
  wanted: { tables: readonly string[]; functions: readonly string[] },
): Promise<LiveParts> {
  const tables: Table[] = [];
  if (wanted.tables.length) {
    const present = new Set((await mgmt(ctx, uri, database, '.show tables')).map((r) => String(r[0])));
    for (const name of wanted.tables.filter((t) => present.has(t))) {
      const [row] = await mgmt(ctx, uri, database, `.show table ${ident(name)} schema as json`);
      const schema = JSON.parse(String(row?.[1] ?? '{}')) as { OrderedColumns?: Array<{ Name: string; CslType: string }> };
      tables.push({ name, columns: (schema.OrderedColumns ?? []).map((c) => ({ name: c.Name, type: c.CslType })) });
    }
  }
  const functions: KqlFunction[] = [];
  if (wanted.functions.length) {
    for (const r of await mgmt(ctx, uri, database, '.show functions')) {
      const name = String(r[0]);
      if (!wanted.functions.includes(name)) continue;
      const [parameters, body, folder, docstring] = [r[1], r[2], r[3], r[4]].map((v) => (v == null ? '' : String(v)));
      functions.push({ name, parameters: parameters!, body: body!, ...(folder ? { folder } : {}), ...(docstring ? { docstring } : {}) });
    }
  }
  return kqlParts(tables, functions);
}

const MGMT = '/v1/rest/mgmt';

/** The reads readDatabase and readKqlObjects make for the named tables and functions. */
export function kqlReadCalls(tables: number, functions: number): PlannedCall[] {
  return [
    {
      service: 'arm',
      method: 'GET',
      path: `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}?api-version=${ARM_API_VERSION}`,
    },
    ...(tables
      ? ([
          { service: 'kql', method: 'POST', path: MGMT, command: '.show tables', when: 'existing' },
          { service: 'kql', method: 'POST', path: MGMT, command: '.show table schema as json', times: tables, when: 'existing' },
        ] as const)
      : []),
    ...(functions ? [{ service: 'kql', method: 'POST', path: MGMT, command: '.show functions', when: 'existing' } as const] : []),
  ];
}

/** Of `functions`, those the database does not hold as written (absent, or another text by `.show functions`): one read. */
export async function differingFunctions<F extends KqlFunction>(
  ctx: StepContext,
  uri: string,
  database: string,
  functions: readonly F[],
): Promise<F[]> {
  if (!functions.length) return [];
  const live = await readKqlObjects(ctx, uri, database, { tables: [], functions: functions.map((f) => f.name) });
  const wanted = kqlParts([], functions);
  return functions.filter((f) => live[`function ${f.name}`] !== wanted[`function ${f.name}`]);
}
