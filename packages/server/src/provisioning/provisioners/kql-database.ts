import { gate, gateOnAuth, GateRaised } from '../gates.js';
import type { ProvisionContext, Provisioner } from '../context.js';

type Column = { name: string; type: string };
type Table = { name: string; columns: Column[]; seedRows?: unknown[][] };
type KqlContent = { database: string; tables?: Table[]; functions?: Array<{ name: string; parameters: string; body: string; docstring?: string }> };

const ident = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `['${name.replace(/'/g, "\\'")}']`);
const kqlString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** One CSV field as `.ingest inline` reads it: quoted when needed, "" escaping a quote. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The cluster the install targets, or the "KQL cluster not configured" gate. */
function cluster(ctx: ProvisionContext) {
  const uri = ctx.target.kqlClusterUri;
  const resourceId = ctx.target.kqlClusterResourceId;
  if (!uri || !resourceId) throw new GateRaised(gate('kql-not-configured', ctx.profile));
  return { uri, resourceId };
}

/** Creates or updates the database with the resource manager's PUT (idempotent). */
export async function ensureDatabase(ctx: ProvisionContext, database: string) {
  const { uri, resourceId } = cluster(ctx);
  try {
    const db = await ctx.backends.kql.putDatabase(resourceId, database, ctx.target.kqlLocation);
    ctx.log(`database ${database}: ${db.created ? 'created' : 'exists'} (resource manager PUT)`);
    return { ...db, uri };
  } catch (err) {
    gateOnAuth(err, 'kql-arm-auth', ctx.profile);
  }
}

/** Runs management commands, turning a 401/403 into the AllDatabasesAdmin gate. */
export async function mgmt(ctx: ProvisionContext, uri: string, database: string, csl: string) {
  try {
    return await ctx.backends.kql.mgmt(uri, database, csl);
  } catch (err) {
    gateOnAuth(err, 'kql-create-table-auth', ctx.profile, { principal: ctx.backends.pipeline.credential.principal });
  }
}

/**
 * Tables (.create table: an existing one is success, no change), functions, and seed rows ingested once.
 * Answers whether a table or seed rows were added (a database that existed without them was still provisioned now).
 */
export async function applyKqlContent(ctx: ProvisionContext, uri: string, database: string, content: KqlContent): Promise<boolean> {
  let added = false;
  const existing = content.tables?.length ? new Set((await mgmt(ctx, uri, database, '.show tables')).map((r) => String(r[0]))) : new Set<string>();
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
    const rows = await ctx.backends.kql.query(uri, database, `${ident(table.name)} | count`).catch((err) => gateOnAuth(err, 'kql-create-table-auth', ctx.profile));
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

/** kql-database and eventhouse: resource-manager PUT of the database, then .create table and inline .ingest. */
export const provisionKqlDatabase: Provisioner = async (ctx) => {
  const database = ctx.target.kqlDatabase ?? ctx.content.database;
  const db = await ensureDatabase(ctx, database);
  const added = await applyKqlContent(ctx, db.uri, database, ctx.content);
  return { status: db.created || added ? 'created' : 'exists', resourceId: db.id, secondaryIds: { clusterUri: db.uri, database } };
};

/** kql-queryset: shares its parent database; saved queries become functions in a 'querysets' folder. */
export const provisionKqlQueryset: Provisioner = async (ctx) => {
  const parent = ctx.contentOf(ctx.content.database) as KqlContent;
  const database = ctx.target.kqlDatabase ?? parent.database;
  const db = await ensureDatabase(ctx, database);
  const folder = kqlString(`querysets/${ctx.item.displayName}`);
  let created = db.created;
  const existing = new Set((await mgmt(ctx, db.uri, database, '.show functions')).map((r) => String(r[0])));
  for (const q of ctx.content.queries as Array<{ name: string; text: string }>) {
    const name = q.name.replace(/[^A-Za-z0-9_]/g, '_');
    if (!existing.has(name)) created = true;
    await mgmt(ctx, db.uri, database, `.create-or-alter function with (folder=${folder}) ${ident(name)}() { ${q.text} }`);
    ctx.log(`saved query ${q.name}`);
  }
  return { status: created ? 'created' : 'exists', resourceId: `${db.id}/querysets/${ctx.item.displayName}`, secondaryIds: { clusterUri: db.uri, database } };
};
