import type { Provisioning } from '../item-types/descriptor.js';
import type { ItemTypeId } from '../item-types/index.js';

/** The kinds of thread (lineage) edge an app may declare. */
export const EDGE_KINDS = ['feeds', 'reads-from', 'visualizes', 'triggers-on', 'runs'] as const;
/** One of EDGE_KINDS. */
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** One thread edge between two items of an app, by key. */
export interface CatalogEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

/** One item of a curated app, with its parsed content (a report's content also carries the RDL text as `rdl`). */
export interface CatalogItem {
  key: string;
  itemType: ItemTypeId;
  displayName: string;
  description: string;
  provisioning: Provisioning;
  content: unknown;
}

/** A curated app: a bundle of items and the thread between them. */
export interface CuratedApp {
  id: string;
  displayName: string;
  summary: string;
  description: string;
  version: string;
  items: CatalogItem[];
  edges: CatalogEdge[];
}

/** Every curated app, loaded and validated once at start. */
export interface Catalog {
  apps: readonly CuratedApp[];
  /** The app with that id, or undefined. */
  get(appId: string): CuratedApp | undefined;
}
