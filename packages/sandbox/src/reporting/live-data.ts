import type { SandboxCore } from '../core.js';
import { SqlEngine } from '../sql/engine.js';
import { datasourceType, parseConnectString, type RdlDataSet, type RdlModel } from './rdl.js';
import { evaluateValue, type EvalScope } from './render/expressions.js';
import { dataSetRows } from './render/filters.js';
import { invalidRequest } from './errors.js';
import type { PushDataset } from './push-datasets.js';
import { modelRoles, type RenderIdentity, rowFilter } from './effective-identity.js';

/** A data set's query failed at the data source: the render (and its export job) fails with this text. */
export class DataSourceError extends Error {}

/** The literal a query parameter's value takes in T-SQL (a multi-value list expands to a comma list, as for `IN (@P)`). */
function literal(v: string | null): string {
  if (v === null) return 'NULL';
  if (/^-?\d+(\.\d+)?$/.test(v)) return v;
  if (v === 'True' || v === 'False') return v === 'True' ? '1' : '0';
  return `N'${v.replace(/'/g, "''")}'`;
}

/** Whether a connect string's server is the sandbox's SQL endpoint (host:port, host,port, optionally tcp:). */
function isSandboxServer(core: SandboxCore, server: string | undefined): boolean {
  const address = core.sql?.address;
  if (!address || !server) return false;
  return server.replace(/^tcp:/i, '').replace(',', ':').toLowerCase() === address.toLowerCase();
}

/**
 * Rows of the data sets whose data source is the sandbox's SQL endpoint (the command text runs there, query parameters
 * substituted from the report parameters) or a semantic model of the sandbox over it (see modelRows). Other data sets
 * are absent from the map: their rows are the ones the definition carries.
 */
export function liveRows(
  core: SandboxCore,
  model: RdlModel,
  scope: EvalScope,
  identity?: RenderIdentity,
): Map<string, Array<Record<string, string>>> {
  const out = new Map<string, Array<Record<string, string>>>();
  for (const ds of model.dataSets) {
    const source = model.dataSources.find((d) => d.name === ds.dataSourceName);
    if (source && datasourceType(source.provider) === 'AnalysisServices') {
      const rows = modelRows(core, ds, source.connectString, scope, identity);
      if (rows) out.set(ds.name, rows);
      continue;
    }
    if (!source || datasourceType(source.provider) !== 'Sql') continue;
    const kv = parseConnectString(source.connectString);
    const server = (kv.get('data source') ?? kv.get('server') ?? kv.get('address'))?.value;
    if (!isSandboxServer(core, server)) continue;
    const database = (kv.get('initial catalog') ?? kv.get('database'))?.value ?? 'master';
    out.set(ds.name, query(core, database, ds, scope));
  }
  return out;
}

function query(core: SandboxCore, database: string, ds: RdlDataSet, scope: EvalScope): Array<Record<string, string>> {
  let sql = ds.commandText;
  for (const p of ds.queryParameters) {
    const value = evaluateValue(p.value, scope);
    const text = Array.isArray(value) ? value.map(literal).join(', ') : literal(value);
    const name = p.name.startsWith('@') ? p.name : `@${p.name}`;
    sql = sql.replace(new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi'), text);
  }
  return run(core, database, ds.name, sql);
}

/** Runs a query on the sandbox's SQL endpoint as the data source's stored credential; rows keyed by column name. */
function run(core: SandboxCore, database: string, dataSet: string, sql: string): Array<Record<string, string>> {
  const engine = new SqlEngine(core.sql!.state());
  const emitted = engine.run({ database, user: 'dbo', login: 'reporting-service' }, sql);
  const error = emitted.find((e) => e.t === 'error');
  if (error && error.t === 'error') throw new DataSourceError(`Query execution failed for dataset '${dataSet}': ${error.error.message}`);
  const result = emitted.find((e) => e.t === 'rows');
  if (!result || result.t !== 'rows') return [];
  const show = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v));
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, show(row[i])])));
}

interface ModelTable {
  name: string;
  columns: Array<{ name: string; sourceColumn?: string }>;
  partitions?: Array<{ source?: { type?: string; entityName?: string; schemaName?: string; expressionSource?: string } }>;
}

/** The model.bim of a semantic model of the data platform (any workspace), or undefined. */
function modelOf(
  core: SandboxCore,
  id: string,
): { tables: ModelTable[]; expressions: Array<{ name: string; expression: string | string[] }> } | undefined {
  for (const ws of core.dataPlatform.workspaces.values()) {
    const item = ws.items.get(id) ?? ws.items.get(id.toLowerCase());
    if (!item || item.type !== 'SemanticModel' || item.deletedAt) continue;
    const part = item.definition?.parts.find((p) => p.path.toLowerCase() === 'model.bim');
    if (!part) return undefined;
    try {
      const bim = JSON.parse(Buffer.from(part.payload, 'base64').toString('utf8'));
      return { tables: bim.model?.tables ?? [], expressions: bim.model?.expressions ?? [] };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const unquote = (s: string) => s.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");

/**
 * Rows of a DAX data set over a semantic model of the sandbox whose table is a Direct Lake / DirectQuery entity on
 * the sandbox's SQL endpoint: `EVALUATE 'Table'`, optionally `FILTER('Table', 'Table'[col] = @P && …)` or `TOPN(n, …)`.
 * Undefined when the model, the table or its source is not one the sandbox holds (the definition's rows are used).
 */
function modelRows(
  core: SandboxCore,
  ds: RdlDataSet,
  connectString: string,
  scope: EvalScope,
  identity?: RenderIdentity,
): Array<Record<string, string>> | undefined {
  const modelId = /sobe_wowvirtualserver-([0-9a-f-]{36})/i.exec(connectString)?.[1];
  const dax = ds.commandText;
  const tableRef = /EVALUATE\s+(?:TOPN\s*\(\s*\d+\s*,\s*)?(?:FILTER\s*\(\s*)?('(?:[^']|'')+'|[A-Za-z_]\w*)/i.exec(dax)?.[1];
  const push = modelId ? core.reporting.datasets.get(modelId.toLowerCase()) : undefined;
  if (push && tableRef) return pushRows(push, unquote(tableRef), ds, scope);
  const model = modelId ? modelOf(core, modelId) : undefined;
  if (!model) return undefined;
  const table = tableRef ? model.tables.find((t) => t.name.toLowerCase() === unquote(tableRef).toLowerCase()) : undefined;
  const source = table?.partitions?.[0]?.source;
  if (!table || source?.type !== 'entity' || !source.entityName) return undefined;
  const expression = model.expressions.find((e) => e.name === (source.expressionSource ?? 'DatabaseQuery'))?.expression;
  const m = /Sql\.Database\(\s*"([^"]+)"\s*,\s*"([^"]+)"/.exec(Array.isArray(expression) ? expression.join('\n') : (expression ?? ''));
  if (!m || !isSandboxServer(core, m[1])) return undefined;
  const conds = daxConditions(ds, scope, (name) => table.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()));
  if (!conds) return undefined;
  const where = conds.map(({ column, value }) => {
    const col = table.columns.find((c) => c.name.toLowerCase() === column.toLowerCase())!;
    return value === null ? `[${col.sourceColumn ?? col.name}] IS NULL` : `[${col.sourceColumn ?? col.name}] = ${literal(value)}`;
  });
  const rls = identity && modelId ? rowLevelSql(core, modelId, table, identity, ds.name) : undefined;
  if (rls) where.push(rls);
  const top = /TOPN\s*\(\s*(\d+)/i.exec(dax)?.[1];
  const select = table.columns.map((c) => `[${c.sourceColumn ?? c.name}] AS [${c.name}]`).join(', ');
  const sql = `SELECT ${top ? `TOP ${top} ` : ''}${select} FROM [${source.schemaName ?? 'dbo'}].[${source.entityName}]${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  return daxNames(table.name, run(core, m[2]!, ds.name, sql));
}

/** The identity's row-level security on a model table as a T-SQL condition (roles are a union); undefined when nothing filters it. */
function rowLevelSql(core: SandboxCore, modelId: string, table: ModelTable, identity: RenderIdentity, dataSet: string): string | undefined {
  let alternatives: ReturnType<typeof rowFilter>;
  try {
    alternatives = rowFilter(modelRoles(core, modelId) ?? [], identity, table.name);
  } catch (err) {
    throw new DataSourceError(`Query execution failed for dataset '${dataSet}': ${(err as Error).message}`);
  }
  if (!alternatives) return undefined;
  const sqlTerm = ({ column, value }: { column: string; value: string | boolean | { user: true } }) => {
    const col = table.columns.find((c) => c.name.toLowerCase() === column.toLowerCase());
    if (!col)
      throw new DataSourceError(
        `Query execution failed for dataset '${dataSet}': the row filter names column '${column}', which '${table.name}' lacks.`,
      );
    const v = typeof value === 'object' ? identity.userId : typeof value === 'boolean' ? (value ? 'True' : 'False') : value;
    return `[${col.sourceColumn ?? col.name}] = ${literal(v)}`;
  };
  if (!alternatives.length) return '1 = 0';
  return `(${alternatives.map((terms) => `(${terms.map(sqlTerm).join(' AND ')})`).join(' OR ')})`;
}

/** DAX results name columns Table[Column]; fields may also name the bare column. */
function daxNames(table: string, rows: Array<Record<string, string>>): Array<Record<string, string>> {
  return rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).flatMap(([k, v]) => [
        [`${table}[${k}]`, v],
        [`'${table}'[${k}]`, v],
        [k, v],
      ]),
    ),
  );
}

/**
 * The `'Table'[col] = value` conditions of a DAX FILTER joined by &&, values from the query parameters; undefined when
 * a condition is of another form or names a column `has` does not know.
 */
function daxConditions(ds: RdlDataSet, scope: EvalScope, has: (column: string) => boolean) {
  const out: Array<{ column: string; value: string | null }> = [];
  const filter = /FILTER\s*\(\s*(?:'(?:[^']|'')+'|\w+)\s*,\s*([\s\S]*)\)\s*\)?\s*$/i.exec(ds.commandText)?.[1];
  for (const cond of filter ? filter.split('&&') : []) {
    const c = /^\s*(?:'(?:[^']|'')+'|\w+)?\[([^\]]+)\]\s*=\s*(@\w+|"(?:[^"]|"")*"|-?\d+(?:\.\d+)?)\s*$/.exec(cond.replace(/\)+\s*$/, ''));
    if (!c || !has(c[1]!)) return undefined;
    let value: string | null;
    if (c[2]!.startsWith('@')) {
      const qp = ds.queryParameters.find((p) => p.name.replace(/^@/, '').toLowerCase() === c[2]!.slice(1).toLowerCase());
      const v = qp ? evaluateValue(qp.value, scope) : (scope.parameters.get(c[2]!.slice(1))?.values[0] ?? null);
      value = Array.isArray(v) ? (v[0] ?? null) : v;
    } else value = c[2]!.startsWith('"') ? c[2]!.slice(1, -1).replace(/""/g, '"') : c[2]!;
    out.push({ column: c[1]!, value });
  }
  return out;
}

/** Rows of a DAX data set over a push dataset's table (the rows pushed to it), filtered and cut as modelRows does. */
function pushRows(dataset: PushDataset, tableName: string, ds: RdlDataSet, scope: EvalScope): Array<Record<string, string>> | undefined {
  const table = dataset.tables.find((t) => t.name.toLowerCase() === tableName.toLowerCase());
  if (!table)
    throw new DataSourceError(`Query execution failed for dataset '${ds.name}': table '${tableName}' is not in the semantic model.`);
  const column = (name: string) => table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  const conds = daxConditions(ds, scope, (name) => column(name) !== undefined);
  if (!conds) return undefined;
  const show = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  let rows = table.rows.filter((r) =>
    conds.every(({ column: c, value }) => {
      const v = r[column(c)!.name];
      return value === null
        ? v === null || v === undefined
        : show(v) === value || (typeof v === 'boolean' && String(v) === value.toLowerCase());
    }),
  );
  const top = /TOPN\s*\(\s*(\d+)/i.exec(ds.commandText)?.[1];
  if (top) rows = rows.slice(0, Number(top));
  return daxNames(
    table.name,
    rows.map((r) => Object.fromEntries(table.columns.map((c) => [c.name, show(r[c.name])]))),
  );
}

/**
 * The rows of one data set for parameter defaults and valid values from a query (filters applied); a failing query
 * refuses the request with its text.
 */
export function queryRows(core: SandboxCore, model: RdlModel) {
  return (dataSet: string, scope: EvalScope): Array<Record<string, string>> => {
    const ds = model.dataSets.find((d) => d.name === dataSet);
    if (!ds) return [];
    try {
      return dataSetRows(ds, scope, liveRows(core, { ...model, dataSets: [ds] }, scope));
    } catch (err) {
      if (err instanceof DataSourceError) throw invalidRequest(err.message);
      throw err;
    }
  };
}
