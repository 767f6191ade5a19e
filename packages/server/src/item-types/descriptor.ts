import type { Static, TSchema } from '@sinclair/typebox';
import type { AppCheck } from '../catalog/app-check.js';
import type { CatalogItem, CuratedApp, EdgeKind } from '../catalog/types.js';
import type { ProvisionOutcome, TypedProvisionContext } from '../provisioning/context.js';
import type { PlannedCall } from './calls.js';
import type { ItemTypeId } from './index.js';

/** Where a live item is provisioned. */
export const BACKINGS = ['data-platform', 'kql', 'search', 'warehouse', 'reporting', 'synapse', 'lake', 'event-hubs', 'monitor'] as const;
export type Backing = (typeof BACKINGS)[number];

/**
 * Where a type's items live in a cloud: one of its backing services, or `stored` where the cloud has no published API
 * for the type (the item is kept in the service only, and its plan says why).
 */
export type BackendId = Backing | 'stored';

/** Whether an install provisions an item live or stores it in the service only. */
export type Provisioning = 'live' | 'stored';

/** The console's icon of a type: a Fluent UI icon name (the console maps each to its component). */
export const ITEM_ICONS = [
  'Notebook',
  'HomeDatabase',
  'Server',
  'DatabaseLightning',
  'DatabaseSearch',
  'DatabaseMultiple',
  'Search',
  'DataTrending',
  'Alert',
  'Flow',
  'ArrowSync',
  'DocumentText',
  'Grid',
  'Database',
  'Board',
  'Target',
  'Box',
  'Sparkle',
  'DataFunnel',
  'ChartMultiple',
  'Bot',
] as const;
export type ItemIcon = (typeof ITEM_ICONS)[number];

/** The console's editor of a type's content, beside the JSON editor every type has ('json': that one alone). */
export const ITEM_EDITORS = ['json', 'cells', 'kql-schema', 'sql'] as const;
export type ItemEditor = (typeof ITEM_EDITORS)[number];

/** The files of the app folder an item's content names (a report's RDL); reading one marks it as content. */
export interface ContentFiles {
  /** The text of `path` (relative to the app folder); a CatalogError names `what` when it is missing or outside. */
  read(path: string, what: string): string;
}

/** The edge kinds that may start at an item of the type, and those that may end at one (EDGE_RULES is their product). */
export interface EdgeEnds {
  from: readonly EdgeKind[];
  to: readonly EdgeKind[];
}

/**
 * What every item type declares. `S` is the schema of its content file, `C` the content as loaded (the file's, unless
 * `load` adds what it names, such as a report's RDL text).
 */
export interface ItemTypeBase<Id extends string, S extends TSchema, C> {
  id: Id;
  displayName: string;
  description: string;
  icon: ItemIcon;
  editor: ItemEditor;
  /** The content file's schema, checked before anything else reads the content. */
  content: S;
  /** A rule on the item's display name beyond the manifest's (the data platform's naming of the type). */
  nameRule?: { pattern: RegExp; rule: string };
  /** The content as loaded from its file, with the files it names read (`files` marks them as content). */
  load?(content: Static<S>, files: ContentFiles): C;
  /** The catalog's checks of an item against the rest of its app (references, tables, implied thread edges). */
  validate?(check: AppCheck, item: CatalogItem): void;
  /** Types whose content `validate` reads: their items are validated first, so that their own faults are named. */
  validatesAfter?: readonly ItemTypeId[];
  edges: EdgeEnds;
}

/** A type that an install stores in the service only: it has no backing service and no calls. */
export interface StoredItemType<Id extends string, S extends TSchema = TSchema, C = Static<S>> extends ItemTypeBase<Id, S, C> {
  backing?: never;
  provision?: never;
}

/**
 * A live resource's content as text, by part: a definition part's path, a table or view, an index field. What an install
 * would send and what the backing service holds are both put in this shape, so one comparison serves plan and drift.
 */
export type LiveParts = Record<string, string>;

/** A live resource as a lifecycle operation reads it: its id in the backing service and what it holds now. */
export interface LiveState {
  resourceId: string;
  /** What dependants bind to, as a provisioning step reports it (the platform workspace, a SQL endpoint, a database). */
  secondaryIds?: Record<string, string>;
  parts: LiveParts;
}

/** What a type's `remove` answers: false when the live resource was already gone (the backing service's 404), never an error. */
export interface RemoveOutcome {
  removed: boolean;
  /** Not deleted because something else still uses it (the reason): the live resource stays for that user. */
  keptFor?: string;
}

/**
 * A type's lifecycle on one backing service. `calls` declares every backing call `provision` makes (a test holds the two
 * together against the sandbox's request log); the app page's plan text is derived from it. `desired` and `readLive`
 * (with the read calls it declares in `readCalls`) give the plan and drift; `remove` (with `removeCalls`) deletes the
 * live resource at uninstall.
 */
export interface LiveBackend<C> {
  backing: Backing;
  /** Keys of other items whose live results provisioning needs first (besides those its `${item:…}` bindings name). */
  dependsOn?(content: C): readonly (string | undefined)[];
  /** The backing calls `provision` makes for this content, in order. */
  calls(content: C): readonly PlannedCall[];
  /** Creates or updates the live resource; a gate is raised by throwing GateError, a backing refusal by BackingError. */
  provision(ctx: TypedProvisionContext<C>): Promise<ProvisionOutcome>;
  /** What `provision` would send, as parts (built by the same function provision uses); read-only calls only. */
  desired(ctx: TypedProvisionContext<C>): Promise<LiveParts>;
  /** The live resource as the backing service holds it now, read with read-only calls; undefined when it does not exist. */
  readLive(ctx: TypedProvisionContext<C>): Promise<LiveState | undefined>;
  /** The backing calls `desired` and `readLive` make, in order (all reads: GETs, and POSTs the real API defines as reads). */
  readCalls(content: C): readonly PlannedCall[];
  /**
   * The id of the live resource the item's own names lead to, read without going through other items (an earlier,
   * partial uninstall may have removed them): what an uninstall of a step that failed midway deletes. Unset, readLive's.
   */
  find?(ctx: TypedProvisionContext<C>): Promise<string | undefined>;
  /** The backing calls `find` makes, in order; unset, readCalls. */
  findCalls?(content: C): readonly PlannedCall[];
  /** Applies the item's stored content to its live resource (an edited item, or one that drifted). */
  apply?(ctx: TypedProvisionContext<C>): Promise<ProvisionOutcome>;
  /**
   * Deletes the live resource `resourceId` (the id its provisioning step answered) at uninstall or a single item's delete;
   * a resource already gone answers removed:false. A 401/403 raises the type's gate (GateError), another refusal a BackingError.
   */
  remove(ctx: TypedProvisionContext<C>, resourceId: string): Promise<RemoveOutcome>;
  /** The backing calls `remove` makes for this content, in order (the plan text of an uninstall). */
  removeCalls(content: C): readonly PlannedCall[];
  /** A data store (its tables, rows or documents are the user's data): an uninstall keeps it unless asked to purge data. */
  holdsData?: boolean;
  /**
   * Why this backend cannot hold this item (an activator watching a search index, where the backend's rules read KQL
   * tables only), or undefined when it can: such an item is stored in the service only, and its plan and live record
   * say why, rather than failing at every install.
   */
  unsupported?(content: C, app: CuratedApp): string | undefined;
}

/** A cloud where no published API holds the type: its items are stored in the service only, for this reason. */
export interface StoredBackend {
  backing: 'stored';
  /** Why, as the plan and the console say it (the service it would need, and what is kept instead). */
  reason: string;
}

/**
 * A type an install provisions live. Its own members are its primary backend (the data platform for the types the
 * platform holds); `alternatives` are the backends of the clouds without that service (issue 20: the Azure-native
 * services of GCC-High and DoD), chosen per type by the cloud profile or SVC_BACKEND_<TYPE> (item-types/backends.ts).
 */
export interface LiveItemType<Id extends string, S extends TSchema = TSchema, C = Static<S>>
  extends ItemTypeBase<Id, S, C>,
    LiveBackend<C> {
  alternatives?: readonly (LiveBackend<C> | StoredBackend)[];
}

/** An item type: live (provisioned in a backing service at install) or stored only. */
export type ItemTypeDescriptor<Id extends string, S extends TSchema = TSchema, C = Static<S>> =
  | LiveItemType<Id, S, C>
  | StoredItemType<Id, S, C>;
