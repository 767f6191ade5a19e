import { firstDuplicate, firstMention, type AppCheck } from './app-check.js';
import { fitsKql, fitsSearch, fitsSpark, fitsSql, isKqlType, isSearchType, isSparkType } from './column-types.js';
import type { KqlDatabaseContent } from '../item-types/kql-database.js';
import type { LakehouseContent } from '../item-types/lakehouse.js';
import type { MirroredDatabaseContent } from '../item-types/mirrored-database.js';
import type { SearchIndexContent } from '../item-types/search-index.js';
import type { WarehouseContent } from '../item-types/warehouse.js';
import { parseDdl, readJinja } from './sql-ddl.js';
import type { CatalogItem } from './types.js';

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks seed rows against columns: the count of values, then each value's type. */
function checkRows(
  check: AppCheck,
  item: CatalogItem,
  table: string,
  columns: { name: string; type: string }[],
  rows: unknown[][],
  fits: (t: string, v: unknown) => boolean,
) {
  rows.forEach((row, r) => {
    if (row.length !== columns.length)
      check.fail(item, `table '${table}' seed row ${r + 1} has ${row.length} values for ${columns.length} columns`);
    row.forEach((v, c) => {
      if (!fits(columns[c]!.type, v))
        check.fail(
          item,
          `table '${table}' seed row ${r + 1} column '${columns[c]!.name}' (${columns[c]!.type}) cannot hold ${JSON.stringify(v)}`,
        );
    });
  });
}

/** Checks the names and types of columns. */
function checkColumns(
  check: AppCheck,
  item: CatalogItem,
  table: string,
  columns: { name: string; type: string }[],
  isType: (t: string) => boolean,
) {
  const dup = firstDuplicate(
    columns.map((c) => c.name),
    true,
  );
  if (dup) check.fail(item, `table '${table}' declares column '${dup}' twice`);
  for (const c of columns) if (!isType(c.type)) check.fail(item, `table '${table}' column '${c.name}' has unknown type '${c.type}'`);
}

/** A lakehouse: table names and folders, column types, seed rows, file paths. */
export function validateLakehouse(check: AppCheck, item: CatalogItem) {
  const c = item.content as LakehouseContent;
  const dup = firstDuplicate(
    c.tables.map((t) => t.name),
    true,
  );
  if (dup) check.fail(item, `declares table '${dup}' twice`);
  for (const t of c.tables) {
    if (!TABLE_NAME.test(t.name)) check.fail(item, `table name '${t.name}' must use letters, digits and _`);
    if (t.folder !== `Tables/${t.name}`) check.fail(item, `table '${t.name}' folder must be 'Tables/${t.name}', not '${t.folder}'`);
    checkColumns(check, item, t.name, t.columns, isSparkType);
    checkRows(check, item, t.name, t.columns, t.seedRows ?? [], fitsSpark);
  }
  for (const f of c.files ?? []) if (!f.startsWith('Files/')) check.fail(item, `file path '${f}' must start with Files/`);
}

/** A KQL database or eventhouse: tables, column types, seed rows, functions. */
export function validateKqlDatabase(check: AppCheck, item: CatalogItem) {
  const c = item.content as KqlDatabaseContent;
  if (c.eventhouse) check.ref(item, c.eventhouse, ['eventhouse'], 'eventhouse');
  const names = [...c.tables.map((t) => t.name), ...(c.functions ?? []).map((f) => f.name)];
  const dup = firstDuplicate(names);
  if (dup) check.fail(item, `declares table or function '${dup}' twice`);
  for (const t of c.tables) {
    if (!TABLE_NAME.test(t.name)) check.fail(item, `table name '${t.name}' must use letters, digits and _`);
    checkColumns(check, item, t.name, t.columns, isKqlType);
    checkRows(check, item, t.name, t.columns, t.seedRows ?? [], fitsKql);
  }
  for (const f of c.functions ?? []) {
    const others = names.filter((n) => n !== f.name);
    if (!firstMention(f.body, others)) check.fail(item, `function '${f.name}' queries no table or function of database '${c.database}'`);
  }
}

/** A warehouse: DDL, seeds against it, and dbt models whose refs and sources resolve without cycles. */
export function validateWarehouse(check: AppCheck, item: CatalogItem) {
  const c = item.content as WarehouseContent;
  // The warehouse is a Synapse dedicated SQL pool: its grammar has no FOREIGN KEY and no CREATE OR ALTER.
  for (const [i, stmt] of c.ddl.entries()) {
    if (/\bFOREIGN\s+KEY\b|\bREFERENCES\b/i.test(stmt))
      check.fail(
        item,
        `ddl[${i}] declares a FOREIGN KEY, which a dedicated SQL pool does not support; keep the relationship in the semantic model`,
      );
    if (/^\s*CREATE\s+OR\s+ALTER\b/i.test(stmt))
      check.fail(item, `ddl[${i}] uses CREATE OR ALTER, which a dedicated SQL pool does not support`);
  }
  let ddl: ReturnType<typeof parseDdl>;
  try {
    ddl = parseDdl(c.ddl);
  } catch (err) {
    check.fail(item, (err as Error).message);
  }
  const tables = new Map(ddl.tables.map((t) => [`${t.schema}.${t.name}`, t]));
  for (const t of ddl.tables)
    if (!ddl.schemas.has(t.schema))
      check.fail(item, `table ${t.schema}.${t.name} is in schema '${t.schema}', which no CREATE SCHEMA creates`);
  for (const s of c.seeds ?? []) {
    const t = tables.get(s.table.includes('.') ? s.table : `dbo.${s.table}`);
    if (!t) check.fail(item, `seed table '${s.table}' is not created by the DDL`);
    for (const k of s.key)
      if (!t.columns.some((col) => col.name === k)) check.fail(item, `seed '${s.table}' key column '${k}' is not a column of the table`);
    checkRows(check, item, s.table, t.columns, s.rows, fitsSql);
    const keyIdx = s.key.map((k) => t.columns.findIndex((col) => col.name === k));
    const dupKey = firstDuplicate(s.rows.map((r) => JSON.stringify(keyIdx.map((i) => r[i]))));
    if (dupKey) check.fail(item, `seed '${s.table}' repeats key ${dupKey}`);
  }
  const modelSchema = c.modelSchema ?? 'dbo';
  if (c.models?.length && !ddl.schemas.has(modelSchema)) check.fail(item, `modelSchema '${modelSchema}' is not created by the DDL`);
  const models = new Map((c.models ?? []).map((m) => [m.name, m]));
  if (models.size !== (c.models ?? []).length) check.fail(item, 'declares a model name twice');
  const deps = new Map<string, string[]>();
  for (const m of c.models ?? []) {
    let jinja: ReturnType<typeof readJinja>;
    try {
      jinja = readJinja(m.sql);
    } catch (err) {
      check.fail(item, `model '${m.name}' ${(err as Error).message}`);
    }
    if (tables.has(`${modelSchema}.${m.name}`)) check.fail(item, `model '${m.name}' would replace table ${modelSchema}.${m.name}`);
    if ((jinja.config.materialized ?? 'view') !== 'view')
      check.fail(item, `model '${m.name}' is materialized '${jinja.config.materialized}'; the warehouse runs models as views`);
    for (const r of jinja.refs)
      if (!models.has(r)) check.fail(item, `model '${m.name}' refs '${r}', which is not a model of this warehouse`);
    for (const [s, t] of jinja.sources) {
      const src = c.sources?.[s];
      if (!src || !src.tables.includes(t)) check.fail(item, `model '${m.name}' uses source('${s}','${t}'), which sources does not declare`);
    }
    deps.set(m.name, jinja.refs);
  }
  for (const [name, src] of Object.entries(c.sources ?? {})) {
    if (src.lakehouse) {
      const lh = check.ref(item, src.lakehouse, ['lakehouse'], `sources.${name}.lakehouse`);
      const lt = (lh.content as LakehouseContent).tables.map((t) => t.name);
      for (const t of src.tables)
        if (!lt.includes(t)) check.fail(item, `source '${name}' table '${t}' is not a table of lakehouse '${lh.key}'`);
      check.imply(item.key, lh.key, 'reads-from', `source '${name}' reads lakehouse '${lh.key}'`);
    } else
      for (const t of src.tables)
        if (!tables.has(`${src.schema}.${t}`)) check.fail(item, `source '${name}' table ${src.schema}.${t} is not created by the DDL`);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (n: string, path: string[]) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'visiting') check.fail(item, `models ref each other in a cycle: ${[...path, n].join(' -> ')}`);
    state.set(n, 'visiting');
    for (const d of deps.get(n) ?? []) visit(d, [...path, n]);
    state.set(n, 'done');
  };
  for (const n of deps.keys()) visit(n, []);
}

/** A search index: one Edm.String key, valid field types, resolvable vector profiles, documents that carry the key and fit the fields. */
export function validateSearchIndex(check: AppCheck, item: CatalogItem) {
  const { index, documents } = item.content as SearchIndexContent;
  const dup = firstDuplicate(index.fields.map((f) => f.name));
  if (dup) check.fail(item, `index field '${dup}' is declared twice`);
  for (const f of index.fields) if (!isSearchType(f.type)) check.fail(item, `index field '${f.name}' has invalid type '${f.type}'`);
  const keys = index.fields.filter((f) => f.key === true);
  if (keys.length !== 1) check.fail(item, `index '${index.name}' must have exactly one key field, has ${keys.length}`);
  const key = keys[0]!;
  if (key.type !== 'Edm.String') check.fail(item, `index key field '${key.name}' must be Edm.String, is ${key.type}`);
  const vs = index.vectorSearch as { profiles?: { name: string; algorithm: string }[]; algorithms?: { name: string }[] } | undefined;
  for (const f of index.fields.filter((f) => f.vectorSearchProfile !== undefined || f.dimensions !== undefined)) {
    const profile = vs?.profiles?.find((p) => p.name === f.vectorSearchProfile);
    if (!profile || !Number.isInteger(f.dimensions))
      check.fail(item, `vector field '${f.name}' needs dimensions and a vectorSearchProfile declared in vectorSearch.profiles`);
    if (!vs?.algorithms?.some((a) => a.name === profile.algorithm))
      check.fail(
        item,
        `vector profile '${profile.name}' names algorithm '${profile.algorithm}', which vectorSearch.algorithms does not declare`,
      );
  }
  const fields = new Map(index.fields.map((f) => [f.name, f]));
  documents.forEach((doc, n) => {
    const k = doc[key.name];
    if (typeof k !== 'string' || !/^[A-Za-z0-9_=-]+$/.test(k))
      check.fail(item, `document ${n + 1} has no valid key '${key.name}' (letters, digits, _, -, =)`);
    for (const [name, v] of Object.entries(doc)) {
      const f = fields.get(name);
      if (!f) check.fail(item, `document '${k}' has field '${name}', which the index does not declare`);
      if (!fitsSearch(f.type, v)) check.fail(item, `document '${k}' field '${name}' (${f.type}) cannot hold ${JSON.stringify(v)}`);
    }
  });
  const dupDoc = firstDuplicate(documents.map((d) => String(d[key.name])));
  if (dupDoc) check.fail(item, `two documents have key '${dupDoc}'`);
}

/** A mirrored database: the connection binding and the mounted tables. */
export function validateMirroredDatabase(check: AppCheck, item: CatalogItem) {
  const c = item.content as MirroredDatabaseContent;
  const src = c.mirroring.properties.source.typeProperties;
  if (c.connection) {
    if (src.connection !== '${connection.id}')
      check.fail(item, "mirroring source connection must be '${connection.id}' when the content declares a connection");
    if (src.database !== c.connection.database)
      check.fail(item, `mirroring source database '${src.database}' differs from the connection's database '${c.connection.database}'`);
  }
  const mounted = (c.mirroring.properties.mountedTables ?? []).map(
    (m) => `${m.source.typeProperties.schemaName}.${m.source.typeProperties.tableName}`,
  );
  const dup = firstDuplicate(mounted, true);
  if (dup) check.fail(item, `mounts table ${dup} twice`);
}
