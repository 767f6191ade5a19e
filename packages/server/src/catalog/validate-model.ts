import { firstDuplicate, type AppCheck } from './app-check.js';
import { TMSL_TYPES, tmslTypeOf } from './column-types.js';
import type { SemanticModelContent } from '../item-types/semantic-model.js';
import { storeTables } from './store-tables.js';
import type { CatalogItem } from './types.js';

/** The names a semantic model exposes to DAX: per table its columns and measures. */
export interface ModelIndex {
  tables: Map<string, { columns: Set<string>; measures: Set<string> }>;
  names: Set<string>;
}

/** The DAX-visible names of a semantic model's content. */
export function modelIndex(c: SemanticModelContent): ModelIndex {
  const tables = new Map(
    c.model.model.tables.map((t) => [
      t.name,
      { columns: new Set(t.columns.map((col) => col.name)), measures: new Set((t.measures ?? []).map((m) => m.name)) },
    ]),
  );
  const names = new Set([...tables.values()].flatMap((t) => [...t.columns, ...t.measures]));
  return { tables, names };
}

/** The first `Table[Name]` or `[Name]` reference in DAX `text` that the model does not have, or undefined. */
export function unresolvedDaxRef(text: string, idx: ModelIndex): string | undefined {
  const stripped = text.replace(/"(?:[^"]|"")*"/g, '""');
  for (const m of stripped.matchAll(/(?:'([^']+)'|\b([A-Za-z_][A-Za-z0-9_]*))?\[([^\]]+)\]/g)) {
    const table = m[1] ?? m[2];
    const name = m[3]!;
    if (table === undefined) {
      if (!idx.names.has(name)) return `[${name}]`;
      continue;
    }
    const t = idx.tables.get(table);
    if (!t || (!t.columns.has(name) && !t.measures.has(name))) return `${m[0]}`;
  }
  return undefined;
}

/** A semantic model: its partitions name tables of its source, its columns name source columns of matching type, and its DAX resolves. */
export function validateSemanticModel(check: AppCheck, item: CatalogItem) {
  const c = item.content as SemanticModelContent;
  const source = check.ref(item, c.source, ['lakehouse', 'warehouse'], 'source');
  check.imply(item.key, source.key, 'reads-from', `the model's tables are '${source.key}' tables`);
  const store = storeTables(check, source)!;
  const model = c.model.model;
  const dupTable = firstDuplicate(
    model.tables.map((t) => t.name),
    true,
  );
  if (dupTable) check.fail(item, `model declares table '${dupTable}' twice`);
  const dupMeasure = firstDuplicate(
    model.tables.flatMap((t) => (t.measures ?? []).map((m) => m.name)),
    true,
  );
  if (dupMeasure) check.fail(item, `model declares measure '${dupMeasure}' twice`);
  const expressions = new Set((model.expressions ?? []).map((e) => e.name));
  for (const t of model.tables) {
    for (const p of t.partitions) {
      const schema = p.source.schemaName ?? 'dbo';
      const entity =
        source.itemType === 'lakehouse'
          ? schema === 'dbo'
            ? p.source.entityName
            : `${schema}.${p.source.entityName}`
          : `${schema}.${p.source.entityName}`;
      if (!store.tables.has(entity))
        check.fail(item, `table '${t.name}' partition reads '${entity}', which is not a table of ${source.itemType} '${source.key}'`);
      if (p.source.expressionSource && !expressions.has(p.source.expressionSource))
        check.fail(
          item,
          `table '${t.name}' partition uses expression '${p.source.expressionSource}', which model.expressions does not declare`,
        );
      const columns = store.tables.get(entity);
      for (const col of t.columns) {
        if (!TMSL_TYPES.includes(col.dataType)) check.fail(item, `column '${t.name}'[${col.name}] has unknown dataType '${col.dataType}'`);
        if (!columns) continue;
        const sc = columns.find((x) => x.name === col.sourceColumn);
        if (!sc) check.fail(item, `column '${t.name}'[${col.name}] reads '${col.sourceColumn}', which is not a column of ${entity}`);
        if (tmslTypeOf(sc.type) !== col.dataType)
          check.fail(item, `column '${t.name}'[${col.name}] is ${col.dataType} but ${entity}.${sc.name} is ${sc.type}`);
      }
    }
  }
  const idx = modelIndex(c);
  for (const t of model.tables) {
    for (const m of t.measures ?? []) {
      const bad = unresolvedDaxRef(m.expression, idx);
      if (bad) check.fail(item, `measure '${m.name}' references ${bad}, which the model does not have`);
    }
  }
  for (const r of model.relationships ?? []) {
    for (const [table, column] of [
      [r.fromTable, r.fromColumn],
      [r.toTable, r.toColumn],
    ] as const) {
      if (!idx.tables.get(table)?.columns.has(column))
        check.fail(item, `relationship '${r.name}' uses '${table}'[${column}], which the model does not have`);
    }
  }
}
