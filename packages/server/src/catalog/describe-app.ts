import type { KqlDatabaseContent, LakehouseContent, PipelineContent, SearchIndexContent, WarehouseContent } from './content-schemas.js';
import { itemType, type Backing } from './item-types.js';
import type { CatalogItem, CuratedApp } from './types.js';

/** What installing one item does: stored only, or provisioned live in a backing service by the named call. */
export interface PlannedItem {
  key: string;
  itemType: string;
  displayName: string;
  provisioning: 'live' | 'stored';
  backing?: Backing;
  action: string;
}

/** What installing an app provisions: per item live or stored and where, and the thread edges it records. */
export interface InstallPlan {
  appId: string;
  displayName: string;
  totalItems: number;
  live: number;
  stored: number;
  edges: number;
  items: PlannedItem[];
}

const rows = (tables: { seedRows?: unknown[] }[]) => tables.reduce((n, t) => n + (t.seedRows?.length ?? 0), 0);

/** The backing call(s) that provision a live item, with a count of what its content carries. */
function action(item: CatalogItem): string {
  const c = item.content as never;
  switch (item.itemType) {
    case 'lakehouse': {
      const l = c as LakehouseContent;
      return `POST /workspaces/{ws}/lakehouses, then ${l.tables.length} table folders with ${rows(l.tables)} seed rows`;
    }
    case 'kql-database':
    case 'eventhouse':
    case 'kql-queryset': {
      if (item.itemType === 'kql-queryset') return 'saved into the parent KQL database';
      const k = c as KqlDatabaseContent;
      return `PUT database ${k.database} on the KQL cluster, then .create table ×${k.tables.length}, .ingest inline of ${rows(k.tables)} rows, ${k.functions?.length ?? 0} functions`;
    }
    case 'warehouse': {
      const w = c as WarehouseContent;
      return `T-SQL: ${w.ddl.length} DDL statements, ${w.seeds?.length ?? 0} seeded tables, ${w.models?.length ?? 0} dbt models as views`;
    }
    case 'search-index': {
      const s = c as SearchIndexContent;
      return `PUT /indexes/${s.index.name}, then POST /indexes/${s.index.name}/docs/index with ${s.documents.length} documents`;
    }
    case 'notebook': return 'POST /workspaces/{ws}/notebooks, then updateDefinition';
    case 'semantic-model': return 'POST /workspaces/{ws}/semanticModels with a TMSL model.bim part';
    case 'activator': return 'POST /workspaces/{ws}/reflexes, then its triggers';
    case 'data-pipeline': return `POST /workspaces/{ws}/dataPipelines, then updateDefinition (${(c as PipelineContent).variant} variant)`;
    case 'eventstream': return 'POST /workspaces/{ws}/eventstreams, then updateDefinition';
    case 'report': return 'POST imports of the .rdl to the reporting service, bound to its semantic model';
    case 'kql-dashboard': return 'POST /workspaces/{ws}/items (KQLDashboard) with its tiles';
    case 'mirrored-database': return 'POST /workspaces/{ws}/mirroredDatabases with mirroring.json, then startMirroring';
    default: return 'stored in the service only';
  }
}

/** What installing `app` will provision: each item live (with its backing service and call) or stored. */
export function describeApp(app: CuratedApp): InstallPlan {
  const items = app.items.map((i): PlannedItem => {
    const info = itemType(i.itemType);
    const live = i.provisioning === 'live';
    return { key: i.key, itemType: i.itemType, displayName: i.displayName, provisioning: i.provisioning, ...(live && info?.backing ? { backing: info.backing } : {}), action: live ? action(i) : 'stored in the service only' };
  });
  const live = items.filter((i) => i.provisioning === 'live').length;
  return { appId: app.id, displayName: app.displayName, totalItems: items.length, live, stored: items.length - live, edges: app.edges.length, items };
}
