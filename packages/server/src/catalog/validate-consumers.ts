import { checkRdl, faultText } from '../reports/rdl/check.js';
import { firstMention, type AppCheck } from './app-check.js';
import type { ActivatorContent } from '../item-types/activator.js';
import type { EventstreamContent } from '../item-types/eventstream.js';
import type { ItemTypeId } from '../item-types/index.js';
import type { KqlDashboardContent } from '../item-types/kql-dashboard.js';
import type { KqlDatabaseContent } from '../item-types/kql-database.js';
import type { KqlQuerysetContent } from '../item-types/kql-queryset.js';
import type { ReportContent } from '../item-types/report.js';
import type { SearchIndexContent } from '../item-types/search-index.js';
import type { SemanticModelContent } from '../item-types/semantic-model.js';
import { fitsColumn, storeTables } from './store-tables.js';
import type { CatalogItem } from './types.js';
import { modelIndex, unresolvedDaxRef } from './validate-model.js';

const KQL_TYPES: readonly ItemTypeId[] = ['kql-database', 'eventhouse'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;

/** The table and function names a KQL database declares. */
function kqlNames(db: CatalogItem): string[] {
  const c = db.content as KqlDatabaseContent;
  return [...c.tables.map((t) => t.name), ...(c.functions ?? []).map((f) => f.name)];
}

/** An activator: its table exists in its source, each condition compares a real column with a value of its type, each action names a receiver. */
export function validateActivator(check: AppCheck, item: CatalogItem) {
  const c = item.content as ActivatorContent;
  const source = check.ref(item, c.source, [...KQL_TYPES, 'eventstream', 'lakehouse', 'search-index'], 'source');
  check.imply(item.key, source.key, 'triggers-on', `the activator watches '${source.key}'`);
  if (source.itemType === 'eventstream' && 'customEndpoint' in (source.content as EventstreamContent).destination)
    check.fail(item, `eventstream '${source.key}' lands in no table to watch`);
  const store = storeTables(check, source)!;
  const columns = store.tables.get(c.table);
  if (!columns) check.fail(item, `table '${c.table}' does not exist in '${source.key}' (has ${[...store.tables.keys()].join(', ')})`);
  for (const t of c.triggers) {
    const col = columns.find((x) => x.name === t.condition.column);
    if (!col) check.fail(item, `trigger '${t.name}' compares column '${t.condition.column}', which table '${c.table}' does not have`);
    if (!fitsColumn(store.flavor, col.type, t.condition.value))
      check.fail(item, `trigger '${t.name}' compares ${col.name} (${col.type}) with ${JSON.stringify(t.condition.value)}`);
    if (t.action.kind === 'email' && !EMAIL.test(t.action.receiver))
      check.fail(item, `trigger '${t.name}' emails '${t.action.receiver}', which is not an email address`);
  }
}

/** A paginated report: a valid RDL 2016/01 definition bound to its semantic model, whose DAX names what the model has. */
export function validateReport(check: AppCheck, item: CatalogItem) {
  const c = item.content as ReportContent;
  const model = c.semanticModel ? check.ref(item, c.semanticModel, ['semantic-model'], 'semanticModel') : undefined;
  if (model) check.imply(item.key, model.key, 'visualizes', `the report's data set queries '${model.key}'`);
  const rdl = checkRdl(c.rdl, { complete: true });
  if (rdl.faults[0]) check.fail(item, `${c.rdlFile} ${faultText(rdl.faults[0])}`);
  for (const ds of rdl.dataSources.filter((d) => d.provider === 'PBIDATASET')) {
    if (!model) check.fail(item, `data source '${ds.name}' is a semantic model but the content names no semanticModel`);
    if (!ds.connectString.includes(`\${item:${model.key}.id}`))
      check.fail(item, `data source '${ds.name}' ConnectString must name the model as \${item:${model.key}.id}`);
  }
  if (!model) return;
  const idx = modelIndex(model.content as SemanticModelContent);
  for (const set of rdl.dataSets) {
    const bad = unresolvedDaxRef(set.commandText, idx) ?? set.fields.map((f) => unresolvedDaxRef(f.dataField, idx)).find((x) => x);
    if (bad) check.fail(item, `data set '${set.name}' uses ${bad}, which semantic model '${model.key}' does not have`);
  }
}

/** A KQL dashboard or queryset: its database exists and every query names one of its tables or functions. */
export function validateKqlQueries(check: AppCheck, item: CatalogItem) {
  const isDashboard = item.itemType === 'kql-dashboard';
  const c = item.content as KqlDashboardContent & KqlQuerysetContent;
  const db = check.ref(item, c.database, KQL_TYPES, 'database');
  check.imply(item.key, db.key, isDashboard ? 'visualizes' : 'reads-from', `its queries run on '${db.key}'`);
  const names = kqlNames(db);
  for (const q of isDashboard ? c.tiles.map((t) => ({ name: t.title, text: t.query })) : c.queries) {
    if (!firstMention(q.text, names)) check.fail(item, `query '${q.name}' names no table or function of '${db.key}'`);
  }
}

/** A stored item: every `item`/`items`/`source` field names an item of the app, and what it asks of that item exists. */
export function validateStored(check: AppCheck, item: CatalogItem) {
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      for (const [i, e] of v.entries()) walk(e, `${path}[${i}]`);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    for (const field of ['item', 'items', 'source'] as const) {
      if (!(field in o)) continue;
      const keys = Array.isArray(o[field]) ? (o[field] as unknown[]) : [o[field]];
      keys.forEach((k, i) => {
        const target = check.ref(
          item,
          k,
          [...check.items.values()].map((x) => x.itemType),
          `${path}.${field}${Array.isArray(o[field]) ? `[${i}]` : ''}`,
        );
        check.imply(item.key, target.key, undefined, `${path}.${field} refers to '${target.key}'`);
        if (field === 'source') checkUse(check, item, target, o, `${path}`);
      });
    }
    for (const [k, e] of Object.entries(o)) walk(e, `${path}.${k}`);
  };
  walk(item.content, 'content');
}

/** What an object that names a `source` asks of it: KQL queries, tables and columns, search documents, measures and DAX fields. */
function checkUse(check: AppCheck, item: CatalogItem, source: CatalogItem, o: Record<string, unknown>, path: string) {
  if (typeof o.query === 'string' && KQL_TYPES.includes(source.itemType) && !firstMention(o.query, kqlNames(source)))
    check.fail(item, `${path}.query names no table or function of '${source.key}'`);
  const store = storeTables(check, source);
  if (store && typeof o.table === 'string') {
    if (!store.tables.has(o.table)) check.fail(item, `${path}.table '${o.table}' is not a table of '${source.key}'`);
    const columns = store.tables.get(o.table);
    const wanted = [o.column, ...(Array.isArray(o.columns) ? o.columns : [])].filter((x): x is string => typeof x === 'string');
    for (const w of wanted)
      if (columns && !columns.some((col) => col.name === w))
        check.fail(item, `${path} uses column '${w}', which ${o.table} of '${source.key}' does not have`);
  }
  if (source.itemType === 'search-index' && Array.isArray(o.documents)) {
    const { index, documents } = source.content as SearchIndexContent;
    const key = index.fields.find((f) => f.key)!.name;
    for (const d of o.documents)
      if (!documents.some((doc) => doc[key] === d))
        check.fail(item, `${path}.documents names '${String(d)}', which is not a document of '${source.key}'`);
  }
  if (source.itemType === 'semantic-model') {
    const idx = modelIndex(source.content as SemanticModelContent);
    const measures = [o.measure, ...(Array.isArray(o.measures) ? o.measures : [])].filter((x): x is string => typeof x === 'string');
    for (const m of measures)
      if (![...idx.tables.values()].some((t) => t.measures.has(m)))
        check.fail(item, `${path} uses measure '${m}', which semantic model '${source.key}' does not have`);
    const fields = (Array.isArray(o.fields) ? o.fields : []).filter((x): x is string => typeof x === 'string');
    for (const f of fields)
      if (!/\[/.test(f) || unresolvedDaxRef(f, idx))
        check.fail(item, `${path} uses field '${f}', which semantic model '${source.key}' does not have`);
  }
}
