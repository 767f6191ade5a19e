export { ITEM_TYPES, isItemType, itemType, type ItemTypeInfo, type Backing } from './item-types.js';
export { loadCatalog, loadApp, DEFAULT_CATALOG_DIR } from './load-catalog.js';
export { CatalogError } from './catalog-error.js';
export { expandSeedTokens, isNowToken } from './seed-tokens.js';
export { boundItemKeys, resolveBindings } from './bindings.js';
export { describeApp, type InstallPlan, type PlannedItem } from './describe-app.js';
export { EDGE_RULES } from './edges.js';
export type { Catalog, CatalogEdge, CatalogItem, CuratedApp, EdgeKind } from './types.js';
export type * from './content-schemas.js';
