/** Where a live item is provisioned. */
export type Backing = 'data-platform' | 'kql' | 'search' | 'warehouse' | 'reporting';

/** An item type: its id, what it is, and whether an install provisions it live. */
export interface ItemTypeInfo {
  id: string;
  displayName: string;
  description: string;
  provisioning: 'live' | 'stored';
  backing?: Backing;
}

/** Every item type. The first eleven are SPEC.md's live types; report, kql-dashboard and mirrored-database are provisioned live by the catalog table. */
export const ITEM_TYPES: readonly ItemTypeInfo[] = [
  { id: 'notebook', displayName: 'Notebook', description: 'PySpark or SQL cells run against a lakehouse', provisioning: 'live', backing: 'data-platform' },
  { id: 'lakehouse', displayName: 'Lakehouse', description: 'Delta tables and files', provisioning: 'live', backing: 'data-platform' },
  { id: 'warehouse', displayName: 'Warehouse', description: 'T-SQL tables and views', provisioning: 'live', backing: 'warehouse' },
  { id: 'kql-database', displayName: 'KQL database', description: 'tables and functions on the KQL cluster', provisioning: 'live', backing: 'kql' },
  { id: 'kql-queryset', displayName: 'KQL queryset', description: 'saved KQL queries over a KQL database', provisioning: 'live', backing: 'kql' },
  { id: 'eventhouse', displayName: 'Eventhouse', description: 'a KQL cluster database for streaming data', provisioning: 'live', backing: 'kql' },
  { id: 'search-index', displayName: 'Search index', description: 'an index and its documents on the search service', provisioning: 'live', backing: 'search' },
  { id: 'semantic-model', displayName: 'Semantic model', description: 'a TMSL model over lakehouse or warehouse tables', provisioning: 'live', backing: 'data-platform' },
  { id: 'activator', displayName: 'Activator', description: 'rules that watch a table and notify a receiver', provisioning: 'live', backing: 'data-platform' },
  { id: 'data-pipeline', displayName: 'Data pipeline', description: 'activities that run notebooks and copy data', provisioning: 'live', backing: 'data-platform' },
  { id: 'eventstream', displayName: 'Eventstream', description: 'a stream landing events in a KQL table', provisioning: 'live', backing: 'data-platform' },
  { id: 'report', displayName: 'Paginated report', description: 'an RDL report published to the reporting service', provisioning: 'live', backing: 'reporting' },
  { id: 'kql-dashboard', displayName: 'KQL dashboard', description: 'tiles of KQL queries', provisioning: 'live', backing: 'data-platform' },
  { id: 'mirrored-database', displayName: 'Mirrored database', description: 'a database mirrored into the platform', provisioning: 'live', backing: 'data-platform' },
  { id: 'dashboard', displayName: 'Dashboard', description: 'tiles over the workspace’s data', provisioning: 'stored' },
  { id: 'scorecard', displayName: 'Scorecard', description: 'goals and their status', provisioning: 'stored' },
  { id: 'data-product', displayName: 'Data product', description: 'a curated, owned set of data assets', provisioning: 'stored' },
  { id: 'prompt-flow', displayName: 'Prompt flow', description: 'a retrieval-augmented prompt pipeline', provisioning: 'stored' },
  { id: 'dataflow-spec', displayName: 'Dataflow spec', description: 'a declarative dataflow specification', provisioning: 'stored' },
  { id: 'power-bi-report', displayName: 'Report', description: 'an interactive report definition', provisioning: 'stored' },
  { id: 'data-agent', displayName: 'Data agent', description: 'a conversational agent over the workspace’s data', provisioning: 'stored' },
];

const BY_ID = new Map(ITEM_TYPES.map((t) => [t.id, t]));

/** True for a known item type id. */
export function isItemType(id: string): boolean {
  return BY_ID.has(id);
}

/** The item type's description, or undefined. */
export function itemType(id: string): ItemTypeInfo | undefined {
  return BY_ID.get(id);
}
