import { quoteName } from './tsql.js';

/** A dbt model as a bundle ships it: a name and SQL with jinja. */
export interface DbtModel {
  name: string;
  sql: string;
}

/** A dbt source: a schema of this warehouse, or of a lakehouse of the app (read through external tables). */
export interface DbtSource {
  schema: string;
  lakehouse?: string;
  tables: string[];
}

/** A model compiled to plain T-SQL: the view's schema, name, SELECT body and the models it reads. */
export interface CompiledModel {
  name: string;
  schema: string;
  select: string;
  dependsOn: string[];
}

/** A model the compiler cannot turn into a view, named with the reason. */
export class DbtCompileError extends Error {
  constructor(model: string, reason: string) {
    super(`dbt model ${model}: ${reason}`);
    this.name = 'DbtCompileError';
  }
}

export interface CompileOptions {
  /** Schema the views go to (dbt's target schema). */
  modelSchema: string;
  sources: Record<string, DbtSource>;
  /** The warehouse schema holding the external tables of a lakehouse source, by the lakehouse item's key and source schema. */
  lakehouseSchema: (key: string, schema: string) => string | undefined;
}

const STRING = String.raw`\s*(?:'([^']*)'|"([^"]*)")\s*`;
const REF = new RegExp(String.raw`^ref\(${STRING}\)$`);
const SOURCE = new RegExp(String.raw`^source\(${STRING},${STRING}\)$`);
const CONFIG = /^config\((.*)\)$/s;

/**
 * Compiles the jinja subset the bundles use: {{ ref('m') }}, {{ source('s', 't') }}, {{ config(materialized='view') }},
 * {{ this }} and {# comments #}. Anything else ({% %} blocks, macros, var()) is refused by name. Models come back in
 * dependency order.
 */
export function compileModels(models: DbtModel[], o: CompileOptions): CompiledModel[] {
  const names = new Set(models.map((m) => m.name));
  const compiled = new Map<string, CompiledModel>();
  for (const m of models) {
    const dependsOn: string[] = [];
    if (/\{%/.test(m.sql))
      throw new DbtCompileError(
        m.name,
        'jinja statements ({% … %}) are not supported; only {{ ref() }}, {{ source() }}, {{ config() }} and {{ this }}',
      );
    const body = m.sql.replace(/\{#[\s\S]*?#\}/g, '').replace(/\{\{([\s\S]*?)\}\}/g, (_all, inner: string) => {
      const expr = inner.trim();
      const ref = REF.exec(expr);
      if (ref) {
        const target = ref[1] ?? ref[2]!;
        if (!names.has(target)) throw new DbtCompileError(m.name, `ref('${target}') names no model of this warehouse`);
        dependsOn.push(target);
        return `${quoteName(o.modelSchema)}.${quoteName(target)}`;
      }
      const src = SOURCE.exec(expr);
      if (src) return sourceName(m.name, o, src[1] ?? src[2]!, src[3] ?? src[4]!);
      const config = CONFIG.exec(expr);
      if (config) {
        const materialized = /materialized\s*=\s*['"](\w+)['"]/.exec(config[1]!)?.[1] ?? 'view';
        if (materialized !== 'view')
          throw new DbtCompileError(m.name, `materialized='${materialized}' is not supported; models become views`);
        return '';
      }
      if (expr === 'this') return `${quoteName(o.modelSchema)}.${quoteName(m.name)}`;
      throw new DbtCompileError(m.name, `unsupported jinja expression {{ ${expr} }}`);
    });
    compiled.set(m.name, {
      name: m.name,
      schema: o.modelSchema,
      select: body.trim().replace(/;\s*$/, ''),
      dependsOn: [...new Set(dependsOn)],
    });
  }
  return inDependencyOrder(compiled);
}

function sourceName(model: string, o: CompileOptions, source: string, table: string): string {
  const s = o.sources[source];
  if (!s) throw new DbtCompileError(model, `source('${source}', '${table}') names no declared source`);
  if (!s.tables.includes(table)) throw new DbtCompileError(model, `source '${source}' declares no table '${table}'`);
  if (!s.lakehouse) return `${quoteName(s.schema)}.${quoteName(table)}`;
  // A dedicated SQL pool has no names in other databases: a lakehouse table is an external table of this warehouse.
  const schema = o.lakehouseSchema(s.lakehouse, s.schema);
  if (!schema) throw new DbtCompileError(model, `source '${source}' reads lakehouse '${s.lakehouse}', which is not an item of this app`);
  return `${quoteName(schema)}.${quoteName(table)}`;
}

function inDependencyOrder(models: Map<string, CompiledModel>): CompiledModel[] {
  const out: CompiledModel[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new DbtCompileError(name, `ref() cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const d of models.get(name)!.dependsOn) visit(d, [...path, name]);
    state.set(name, 'done');
    out.push(models.get(name)!);
  };
  for (const name of models.keys()) visit(name, []);
  return out;
}
