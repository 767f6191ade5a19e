import { escapeRe, firstMention, type AppCheck } from './app-check.js';
import type { EventstreamContent } from '../item-types/eventstream.js';
import type { ItemTypeId } from '../item-types/index.js';
import type { KqlDatabaseContent } from '../item-types/kql-database.js';
import type { LakehouseContent } from '../item-types/lakehouse.js';
import type { MirroredDatabaseContent } from '../item-types/mirrored-database.js';
import type { NotebookContent } from '../item-types/notebook.js';
import type { PipelineContent } from '../item-types/data-pipeline.js';
import type { SearchIndexContent } from '../item-types/search-index.js';
import { storeTables } from './store-tables.js';
import type { CatalogItem } from './types.js';

const READ_TYPES: readonly ItemTypeId[] = [
  'lakehouse',
  'warehouse',
  'kql-database',
  'eventhouse',
  'search-index',
  'eventstream',
  'mirrored-database',
  'semantic-model',
];
const WRITE_TYPES: readonly ItemTypeId[] = ['lakehouse', 'warehouse', 'kql-database', 'eventhouse', 'search-index'];
const WRITE_CALLS = [
  /\.saveAsTable\(\s*["']([\w.]+)["']/g,
  /\.insertInto\(\s*["']([\w.]+)["']/g,
  /DeltaTable\.forName\(\s*\w+\s*,\s*["']([\w.]+)["']/g,
  /\b(?:INSERT\s+(?:INTO|OVERWRITE)(?:\s+TABLE)?|MERGE\s+INTO)\s+([A-Za-z_][\w.]*)/gi,
];
const READ_CALLS = [/spark\.(?:read\.)?table\(\s*["']([\w.]+)["']/g];

/** The item key in a `${item:<key>.id}` binding, or undefined. */
export function boundKey(v: unknown): string | undefined {
  return typeof v === 'string' ? /^\$\{item:([a-z0-9-]+)\.id\}$/.exec(v)?.[1] : undefined;
}

/** A notebook: its declared lakehouse, reads and writes exist, and the tables its code names exist where it says. */
export function validateNotebook(check: AppCheck, item: CatalogItem) {
  const c = item.content as NotebookContent;
  const home = c.lakehouse ? check.ref(item, c.lakehouse, ['lakehouse'], 'lakehouse') : undefined;
  const reads = (c.reads ?? []).map((k, i) => check.ref(item, k, READ_TYPES, `reads[${i}]`));
  const writes = (c.writes ?? []).map((k, i) => check.ref(item, k, WRITE_TYPES, `writes[${i}]`));
  for (const r of reads) check.imply(item.key, r.key, 'reads-from', `the notebook reads '${r.key}'`);
  for (const w of writes) check.imply(item.key, w.key, 'feeds', `the notebook writes '${w.key}'`);
  const code = c.cells
    .filter((x) => x.kind === 'code')
    .map((x) => x.source)
    .join('\n');
  const declared = new Set([home, ...reads, ...writes].filter((x) => x).map((x) => x!.key));

  for (const target of [...reads, ...writes]) {
    const name =
      target.itemType === 'search-index'
        ? (target.content as SearchIndexContent).index.name
        : target.itemType === 'kql-database' || target.itemType === 'eventhouse'
          ? (target.content as KqlDatabaseContent).database
          : target.itemType === 'eventstream' && 'customEndpoint' in (target.content as EventstreamContent).destination
            ? (target.content as { destination: { customEndpoint: string } }).destination.customEndpoint
            : target.displayName;
    if (target !== home && !firstMention(code, [name])) check.fail(item, `declares '${target.key}' but its code never names '${name}'`);
  }
  for (const other of [...check.ofType('search-index'), ...check.ofType('kql-database'), ...check.ofType('eventhouse')]) {
    const name =
      other.itemType === 'search-index' ? (other.content as SearchIndexContent).index.name : (other.content as KqlDatabaseContent).database;
    if (!declared.has(other.key) && firstMention(code, [name]))
      check.fail(item, `code uses '${name}' but reads and writes do not name '${other.key}'`);
  }
  for (const lh of check.ofType('lakehouse')) {
    const tables = (lh.content as LakehouseContent).tables.map((t) => t.name);
    for (const m of code.matchAll(new RegExp(`(?<![\\w.])${escapeRe(lh.displayName)}\\.(?:Lakehouse/Tables/)?(\\w+)`, 'g'))) {
      if (!declared.has(lh.key))
        check.fail(item, `code uses lakehouse ${lh.displayName} but lakehouse, reads and writes do not name '${lh.key}'`);
      if (!tables.includes(m[1]!)) check.fail(item, `code uses ${lh.displayName}.${m[1]}, which is not a table of lakehouse '${lh.key}'`);
    }
  }
  for (const md of check.ofType('mirrored-database')) {
    const mounted = storeTables(check, md)!.tables;
    const declaresTables = ((md.content as MirroredDatabaseContent).mirroring.properties.mountedTables ?? []).length > 0;
    for (const m of code.matchAll(
      new RegExp(`(?<![\\w.])${escapeRe(md.displayName)}(?:\\.MirroredDatabase/Tables/|\\.)(\\w+)[./](\\w+)`, 'g'),
    )) {
      if (!declared.has(md.key)) check.fail(item, `code uses mirrored database ${md.displayName} but reads does not name '${md.key}'`);
      if (declaresTables && !mounted.has(`${m[1]}.${m[2]}`))
        check.fail(item, `code uses ${md.displayName}.${m[1]}.${m[2]}, which mirrored database '${md.key}' does not mount`);
    }
  }
  const resolve = (name: string, write: boolean) => {
    const dot = name.lastIndexOf('.');
    const lh = dot < 0 ? home : check.ofType('lakehouse').find((l) => l.displayName === name.slice(0, dot));
    const table = name.slice(dot + 1);
    if (!lh)
      check.fail(
        item,
        dot < 0
          ? `code names table '${name}' but the notebook has no default lakehouse`
          : `code ${write ? 'writes' : 'reads'} '${name}', which is not a lakehouse table of this app`,
      );
    if (!(lh.content as LakehouseContent).tables.some((t) => t.name === table))
      check.fail(item, `code ${write ? 'writes' : 'reads'} table '${table}', which lakehouse '${lh.key}' does not declare`);
    if (write && !writes.includes(lh))
      check.fail(item, `code writes table '${table}' of lakehouse '${lh.key}', which writes does not name`);
  };
  for (const re of WRITE_CALLS) for (const m of code.matchAll(re)) resolve(m[1]!, true);
  for (const re of READ_CALLS) for (const m of code.matchAll(re)) resolve(m[1]!, false);
}

/** A data pipeline: notebook, pipeline and lakehouse bindings of its activities resolve, and each activity's dependencies exist. */
export function validatePipeline(check: AppCheck, item: CatalogItem) {
  const c = item.content as PipelineContent;
  const names = new Set(c.activities.map((a) => a.name));
  if (names.size !== c.activities.length) check.fail(item, 'two activities share a name');
  const notebooks: string[] = [];
  for (const a of c.activities) {
    for (const d of (a.dependsOn ?? []) as { activity?: string }[]) {
      if (!d.activity || !names.has(d.activity) || d.activity === a.name)
        check.fail(item, `activity '${a.name}' depends on '${d.activity}', which is not another activity of this pipeline`);
    }
    const tp = a.typeProperties;
    if (a.type === 'TridentNotebook') {
      const nb = check.ref(item, boundKey(tp.notebookId), ['notebook'], `activity '${a.name}' notebookId (\${item:<key>.id})`);
      check.imply(item.key, nb.key, 'runs', `activity '${a.name}' runs notebook '${nb.key}'`);
      notebooks.push(nb.key);
    } else if (a.type === 'InvokePipeline') {
      const p = check.ref(item, boundKey(tp.pipelineId), ['data-pipeline'], `activity '${a.name}' pipelineId (\${item:<key>.id})`);
      check.imply(item.key, p.key, 'runs', `activity '${a.name}' invokes pipeline '${p.key}'`);
    } else if (a.type === 'Copy') validateCopy(check, item, a.name, tp);
  }
  if (c.variant === 'notebook') {
    if (!c.notebook) check.fail(item, "a 'notebook' pipeline must name its notebook");
    check.ref(item, c.notebook, ['notebook'], 'notebook');
    if (!notebooks.includes(c.notebook)) check.fail(item, `no TridentNotebook activity runs notebook '${c.notebook}'`);
  } else if (!c.activities.some((a) => a.type === 'Copy')) check.fail(item, "a 'copy' pipeline needs a Copy activity");
  if (c.lakehouse) check.ref(item, c.lakehouse, ['lakehouse'], 'lakehouse');
}

type Settings = {
  datasetSettings?: {
    typeProperties?: { table?: string; location?: { type?: string; folderPath?: string } };
    linkedService?: { properties?: { typeProperties?: { artifactId?: string } } };
  };
};

/** A Copy activity: its lakehouse source folder is declared and its sink table exists. */
function validateCopy(check: AppCheck, item: CatalogItem, name: string, tp: Record<string, unknown>) {
  const lakehouseOf = (s: Settings, side: string) =>
    check.ref(
      item,
      boundKey(s.datasetSettings?.linkedService?.properties?.typeProperties?.artifactId),
      ['lakehouse'],
      `activity '${name}' ${side} linkedService artifactId`,
    );
  const source = tp.source as Settings | undefined;
  const sink = tp.sink as Settings | undefined;
  if (!source || !sink) check.fail(item, `activity '${name}' needs a source and a sink`);
  const srcLh = lakehouseOf(source, 'source');
  const folder = source.datasetSettings?.typeProperties?.location?.folderPath;
  const files = (srcLh.content as LakehouseContent).files ?? [];
  if (!folder || !files.some((f) => f.startsWith(`Files/${folder}`) || `Files/${folder}`.startsWith(f.replace(/\/$/, ''))))
    check.fail(item, `activity '${name}' copies from Files/${folder}, which lakehouse '${srcLh.key}' does not declare in files`);
  const sinkLh = lakehouseOf(sink, 'sink');
  const table = sink.datasetSettings?.typeProperties?.table;
  if (!(sinkLh.content as LakehouseContent).tables.some((t) => t.name === table))
    check.fail(item, `activity '${name}' copies into table '${table}', which lakehouse '${sinkLh.key}' does not declare`);
  check.imply(item.key, sinkLh.key, 'feeds', `activity '${name}' copies into '${sinkLh.key}'`);
}

/** An eventstream: its destination table exists, and its event schema matches that table's columns. */
export function validateEventstream(check: AppCheck, item: CatalogItem) {
  const c = item.content as EventstreamContent;
  const dest = c.destination;
  if ('customEndpoint' in dest) return;
  const target =
    'database' in dest
      ? check.ref(item, dest.database, ['kql-database', 'eventhouse'], 'destination.database')
      : check.ref(item, dest.lakehouse, ['lakehouse'], 'destination.lakehouse');
  const columns = storeTables(check, target)!.tables.get(dest.table);
  if (!columns) check.fail(item, `destination table '${dest.table}' is not a table of '${target.key}'`);
  check.imply(item.key, target.key, 'feeds', `events land in '${target.key}'`);
  for (const f of c.eventSchema ?? [])
    if (!columns.some((col) => col.name === f.name))
      check.fail(item, `event field '${f.name}' is not a column of destination table '${dest.table}'`);
}
