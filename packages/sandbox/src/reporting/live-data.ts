import type { SandboxCore } from '../core.js';
import { SqlEngine } from '../sql/engine.js';
import { datasourceType, parseConnectString, type RdlDataSet, type RdlModel } from './rdl.js';
import { evaluateValue, type EvalScope } from './render/expressions.js';

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
 * Rows of the data sets whose data source is the sandbox's SQL endpoint: the command text runs there (query
 * parameters substituted from the report parameters) as the data source's stored credential. Other data sets are
 * absent from the map (their rows are the ones the definition carries).
 */
export function liveRows(core: SandboxCore, model: RdlModel, scope: EvalScope): Map<string, Array<Record<string, string>>> {
  const out = new Map<string, Array<Record<string, string>>>();
  for (const ds of model.dataSets) {
    const source = model.dataSources.find((d) => d.name === ds.dataSourceName);
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
  const engine = new SqlEngine(core.sql!.state());
  const emitted = engine.run({ database, user: 'dbo', login: 'reporting-service' }, sql);
  const error = emitted.find((e) => e.t === 'error');
  if (error && error.t === 'error') throw new DataSourceError(`Query execution failed for dataset '${ds.name}': ${error.error.message}`);
  const result = emitted.find((e) => e.t === 'rows');
  if (!result || result.t !== 'rows') return [];
  const show = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v));
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, show(row[i])])));
}
