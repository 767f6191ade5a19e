import { BackingError } from '../backends/http-pipeline.js';
import type { BiDataset, BiPushDataset, BiPushTable } from '../backends/reporting.js';
import { raiseGate } from '../backends/failures.js';
import { parseDdl } from '../catalog/sql-ddl.js';
import { StepRefused, type ProvisionOutcome, type TypedProvisionContext } from '../provisioning/context.js';
import { platformWorkspace } from '../provisioning/platform-item.js';
import type { PlannedCall } from './calls.js';
import type { LiveBackend, LiveParts } from './descriptor.js';
import { LakehouseContent } from './lakehouse.js';
import type { SemanticModelContent } from './semantic-model.js';
import { WarehouseContent } from './warehouse.js';

// The semantic model on the reporting service of the clouds without the data platform (GCC-High and DoD have it): a push
// dataset with the model's tables, columns, measures and relationships, named after the item in the tenant's reporting
// group (its platform workspace), its tables filled once from the source lakehouse's or warehouse's seed rows.

const GROUP = '/v1.0/myorg/groups/{ws}';
/** The documented most rows one POST rows request takes. */
const ROWS_PER_POST = 10_000;

/** TMSL data types (catalog/column-types.ts TMSL_TYPES) as push dataset types; binary has none. */
const PUSH_TYPES: Record<string, string> = {
  string: 'String',
  int64: 'Int64',
  double: 'Double',
  decimal: 'Decimal',
  boolean: 'Boolean',
  dateTime: 'DateTime',
};

type Model = SemanticModelContent['model']['model'];
type ModelTable = Model['tables'][number];

/** The push dataset the model is created as: its tables with mapped types and measures, and its relationships. */
export function pushDatasetOf(name: string, model: Model): BiPushDataset {
  return {
    name,
    defaultMode: 'Push',
    tables: model.tables.map(pushTableOf),
    relationships: (model.relationships ?? []).map((r) => ({
      name: r.name,
      fromTable: r.fromTable,
      fromColumn: r.fromColumn,
      toTable: r.toTable,
      toColumn: r.toColumn,
      crossFilteringBehavior: 'OneDirection',
    })),
  };
}

function pushTableOf(t: ModelTable): BiPushTable {
  return {
    name: t.name,
    columns: t.columns.map((c) => {
      const dataType = PUSH_TYPES[c.dataType];
      if (!dataType)
        throw new StepRefused(
          'unsupported_data_type',
          `Column '${t.name}'[${c.name}] is ${c.dataType}; a semantic model on the reporting service (a push dataset) holds Int64, Double, Decimal, Boolean, DateTime and String columns only.`,
        );
      return { name: c.name, dataType };
    }),
    ...(t.measures?.length ? { measures: t.measures.map((m) => ({ name: m.name, expression: m.expression })) } : {}),
  };
}

/** A seed value as the push column's type takes it (SQL bits and numeric text become booleans and numbers). */
function pushValue(dataType: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (['Int64', 'Double', 'Decimal'].includes(dataType) && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (dataType === 'Boolean' && (v === 0 || v === 1 || v === '0' || v === '1')) return v === 1 || v === '1';
  if (dataType === 'String' && typeof v !== 'string') return String(v);
  return v;
}

/** The source table's columns (in seed row order) and seed rows for a model table, from the lakehouse's or warehouse's content. */
function sourceSeed(ctx: TypedProvisionContext<SemanticModelContent>, t: ModelTable): { columns: string[]; rows: unknown[][] } {
  const key = ctx.content.source;
  const kind = ctx.app.items.find((i) => i.key === key)?.itemType;
  const { entityName, schemaName } = t.partitions[0]!.source;
  const schema = schemaName ?? 'dbo';
  if (kind === 'lakehouse') {
    const name = schema === 'dbo' ? entityName : `${schema}.${entityName}`;
    const table = ctx.contentOf(key, LakehouseContent)?.tables.find((x) => x.name.toLowerCase() === name.toLowerCase());
    return { columns: table?.columns.map((c) => c.name) ?? [], rows: (table?.seedRows ?? []) as unknown[][] };
  }
  if (kind === 'warehouse') {
    const wh = ctx.contentOf(key, WarehouseContent);
    const full = `${schema}.${entityName}`.toLowerCase();
    const table = parseDdl(wh?.ddl ?? []).tables.find((x) => `${x.schema}.${x.name}`.toLowerCase() === full);
    const named = (s: string) => (s.includes('.') ? s : `dbo.${s}`).toLowerCase() === full;
    const rows = (wh?.seeds ?? []).filter((s) => named(s.table)).flatMap((s) => s.rows as unknown[][]);
    return { columns: table?.columns.map((c) => c.name) ?? [], rows };
  }
  return { columns: [], rows: [] };
}

/** The rows a model table is filled with: each seed row of its source table, keyed by the model's column names. */
export function seedRowsOf(ctx: TypedProvisionContext<SemanticModelContent>, t: ModelTable): Array<Record<string, unknown>> {
  const { columns, rows } = sourceSeed(ctx, t);
  const index = t.columns.map((c) => columns.findIndex((s) => s.toLowerCase() === c.sourceColumn.toLowerCase()));
  return rows.map((row) =>
    Object.fromEntries(
      t.columns.flatMap((c, i) => (index[i]! < 0 ? [] : [[c.name, pushValue(PUSH_TYPES[c.dataType] ?? 'String', row[index[i]!])]])),
    ),
  );
}

const LIST: PlannedCall = { service: 'reporting', method: 'GET', path: `${GROUP}/datasets` };
const TABLES: PlannedCall = { service: 'reporting', method: 'GET', path: `${GROUP}/datasets/{id}/tables`, when: 'existing' };
const DELETE: PlannedCall = { service: 'reporting', method: 'DELETE', path: `${GROUP}/datasets/{id}` };

/** The parts a model is compared as: one per table (the service reads a push dataset's tables back by name only). */
const tableParts = (names: readonly string[]): LiveParts => Object.fromEntries(names.map((n) => [`tables/${n}`, 'push table']));

/** The datasets of the group named `name` that take pushed rows, lowest id first. */
async function named(ctx: TypedProvisionContext<SemanticModelContent>, group: string, name: string): Promise<BiDataset[]> {
  return (await ctx.backends.reporting.listDatasets(group))
    .filter((d) => d.addRowsAPIEnabled && d.name?.toLowerCase() === name.toLowerCase())
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Creates the push dataset and fills its tables; a dataset whose rows could not all be pushed is deleted again. */
async function create(ctx: TypedProvisionContext<SemanticModelContent>, group: string, body: BiPushDataset): Promise<ProvisionOutcome> {
  const reporting = ctx.backends.reporting;
  const made = await reporting.createPushDataset(group, body);
  ctx.log(`push dataset '${body.name}' created: ${made.id}`);
  // Another install of the same app may have created one meanwhile: every install keeps the lowest id.
  const kept = (await named(ctx, group, body.name))[0]?.id ?? made.id;
  if (kept !== made.id) {
    ctx.log(`another install created '${body.name}' (${kept}) meanwhile: keeping it, deleting ${made.id}`);
    await reporting.removeDataset(group, made.id);
    return outcome(ctx, group, kept, 'exists');
  }
  try {
    for (const t of ctx.content.model.model.tables) {
      const rows = seedRowsOf(ctx, t);
      for (let at = 0; at < rows.length; at += ROWS_PER_POST)
        await reporting.postRows(group, made.id, t.name, rows.slice(at, at + ROWS_PER_POST));
      if (rows.length) ctx.log(`table ${t.name}: ${rows.length} rows pushed`);
    }
  } catch (err) {
    // Rows are pushed once, into empty tables: a dataset left half filled is removed so that a re-run fills it whole.
    ctx.log(`pushing rows failed; deleting dataset ${made.id} so that a re-run creates it again`);
    await reporting.removeDataset(group, made.id).catch(() => undefined);
    throw err;
  }
  return outcome(ctx, group, made.id, 'created');
}

const outcome = (ctx: TypedProvisionContext<SemanticModelContent>, group: string, id: string, status: 'created' | 'exists') => ({
  status,
  resourceId: id,
  secondaryIds: { platformWorkspaceId: group, datasetId: id, source: ctx.dependency(ctx.content.source)?.resourceId ?? '' },
});

/**
 * Creates the dataset, or brings an existing one (found by name) to the content: the same tables → each table's schema
 * PUT in place (rows kept); tables added or removed (PUT cannot add a table) → the dataset is created again with its rows.
 */
async function provision(ctx: TypedProvisionContext<SemanticModelContent>): Promise<ProvisionOutcome> {
  const group = platformWorkspace(ctx);
  const body = pushDatasetOf(ctx.item.displayName, ctx.content.model.model);
  const reporting = ctx.backends.reporting;
  try {
    const [existing] = await named(ctx, group, body.name);
    if (!existing) return await create(ctx, group, body);
    const live = await reporting.listTables(group, existing.id);
    const same = live.length === body.tables.length && body.tables.every((t) => live.some((n) => n.toLowerCase() === t.name.toLowerCase()));
    if (!same) {
      ctx.log(
        `dataset ${existing.id} has tables ${live.join(', ')}; the model has ${body.tables.map((t) => t.name).join(', ')}: creating it again`,
      );
      await reporting.removeDataset(group, existing.id);
      return await create(ctx, group, body);
    }
    for (const t of body.tables) await reporting.putTable(group, existing.id, t);
    ctx.log(`dataset ${existing.id} exists: ${body.tables.length} table schemas updated in place`);
    return outcome(ctx, group, existing.id, 'exists');
  } catch (err) {
    if (err instanceof StepRefused) throw err;
    raiseGate(err, { profile: ctx.profile, gates: { reporting: {} } });
  }
}

/** The semantic model as a push dataset of the reporting service (issue 20: the clouds without the data platform). */
export const semanticModelReporting: LiveBackend<SemanticModelContent> = {
  backing: 'reporting',
  dependsOn: (c) => [c.source],
  calls: (c) => {
    const tables = c.model.model.tables;
    return [
      LIST,
      { service: 'reporting', method: 'POST', path: `${GROUP}/datasets?defaultRetentionPolicy=basicFIFO`, when: 'new' },
      { ...LIST, when: 'new' },
      // One per table its source seeds (one more per 10,000 rows past the first): the seeds are the source item's content.
      { service: 'reporting', method: 'POST', path: `${GROUP}/datasets/{id}/tables/{table}/rows`, when: 'new', times: tables.length },
      TABLES,
      { service: 'reporting', method: 'PUT', path: `${GROUP}/datasets/{id}/tables/{table}`, when: 'existing', times: tables.length },
      { ...DELETE, when: 'changed' },
      { ...DELETE, when: 'conflict' },
    ];
  },
  provision,
  apply: provision,
  desired: async (ctx) => tableParts(pushDatasetOf(ctx.item.displayName, ctx.content.model.model).tables.map((t) => t.name)),
  async readLive(ctx) {
    const group = platformWorkspace(ctx);
    try {
      const [found] = await named(ctx, group, ctx.item.displayName);
      if (!found) return undefined;
      const tables = await ctx.backends.reporting.listTables(group, found.id);
      return { resourceId: found.id, secondaryIds: { platformWorkspaceId: group, datasetId: found.id }, parts: tableParts(tables) };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { reporting: {} } });
    }
  },
  readCalls: () => [LIST, TABLES],
  /** The reporting service's DELETE of the dataset: 200, or 404 when it is already gone. */
  async remove(ctx, resourceId) {
    const group = platformWorkspace(ctx);
    try {
      const removed = await ctx.backends.reporting.removeDataset(group, resourceId);
      ctx.log(removed ? `dataset ${resourceId} deleted` : `dataset ${resourceId} was already gone (404)`);
      return { removed };
    } catch (err) {
      if (err instanceof BackingError && err.status === 404) return { removed: false };
      raiseGate(err, { profile: ctx.profile, gates: { reporting: {} } });
    }
  },
  removeCalls: () => [DELETE],
};
