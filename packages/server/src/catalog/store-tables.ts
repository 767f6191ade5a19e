import type { AppCheck } from './app-check.js';
import { fitsKql, fitsSearch, fitsSpark, fitsSql } from './column-types.js';
import type { EventstreamContent } from '../item-types/eventstream.js';
import type { KqlDatabaseContent } from '../item-types/kql-database.js';
import type { LakehouseContent } from '../item-types/lakehouse.js';
import type { MirroredDatabaseContent } from '../item-types/mirrored-database.js';
import type { SearchIndexContent } from '../item-types/search-index.js';
import type { WarehouseContent } from '../item-types/warehouse.js';
import { parseDdl } from './sql-ddl.js';
import type { CatalogItem } from './types.js';

/** A column of a store's table. */
export type Column = { name: string; type: string };

/** The tables an item holds (columns undefined when the catalog does not know them), and how its values are typed. */
export interface StoreTables {
  flavor: 'spark' | 'kql' | 'sql' | 'search' | 'mirror';
  tables: Map<string, Column[] | undefined>;
}

/** True when `v` fits a column of type `t` in a store of `flavor`. */
export function fitsColumn(flavor: StoreTables['flavor'], t: string, v: unknown): boolean {
  if (flavor === 'kql') return fitsKql(t, v);
  if (flavor === 'spark') return fitsSpark(t, v);
  if (flavor === 'search') return fitsSearch(t, v);
  if (flavor === 'sql') return fitsSql(t, v);
  return true;
}

/** Warehouse tables (`schema.name`) from DDL, plus the model views (columns unknown). */
export function warehouseTables(c: WarehouseContent): Map<string, Column[] | undefined> {
  const { tables } = parseDdl(c.ddl);
  const map = new Map<string, Column[] | undefined>(tables.map((t) => [`${t.schema}.${t.name}`, t.columns]));
  for (const m of c.models ?? []) map.set(`${c.modelSchema ?? 'dbo'}.${m.name}`, undefined);
  return map;
}

/** The tables of a data-holding item, or undefined for a type that holds none. An eventstream holds its destination table. */
export function storeTables(check: AppCheck, item: CatalogItem): StoreTables | undefined {
  switch (item.itemType) {
    case 'lakehouse':
      return { flavor: 'spark', tables: new Map((item.content as LakehouseContent).tables.map((t) => [t.name, t.columns])) };
    case 'kql-database':
    case 'eventhouse':
      return { flavor: 'kql', tables: new Map((item.content as KqlDatabaseContent).tables.map((t) => [t.name, t.columns])) };
    case 'warehouse':
      return { flavor: 'sql', tables: warehouseTables(item.content as WarehouseContent) };
    case 'search-index': {
      const { index } = item.content as SearchIndexContent;
      return { flavor: 'search', tables: new Map([[index.name, index.fields.map((f) => ({ name: f.name, type: f.type }))]]) };
    }
    case 'mirrored-database': {
      const mounted = (item.content as MirroredDatabaseContent).mirroring.properties.mountedTables ?? [];
      return {
        flavor: 'mirror',
        tables: new Map(mounted.map((m) => [`${m.source.typeProperties.schemaName}.${m.source.typeProperties.tableName}`, undefined])),
      };
    }
    case 'eventstream': {
      const dest = (item.content as EventstreamContent).destination;
      if ('customEndpoint' in dest) return { flavor: 'kql', tables: new Map() };
      const target = check.items.get('database' in dest ? dest.database : dest.lakehouse);
      const store = target && storeTables(check, target);
      if (!store) return undefined;
      return { flavor: store.flavor, tables: new Map([[dest.table, store.tables.get(dest.table)]]) };
    }
    default:
      return undefined;
  }
}
