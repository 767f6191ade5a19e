import type { Static, TSchema } from '@sinclair/typebox';
import type { CloudProfile } from '../cloud/profiles.js';
import type { BackingPipeline } from '../backends/http-pipeline.js';
import type { DataPlatformClient } from '../backends/data-platform.js';
import type { OneLakeClient } from '../backends/onelake.js';
import type { LakeClient } from '../backends/lake.js';
import type { KqlClient } from '../backends/kql.js';
import type { EventHubsClient } from '../backends/event-hubs.js';
import type { SearchClient } from '../backends/search.js';
import type { ReportingClient } from '../backends/reporting.js';
import type { MonitorClient } from '../backends/monitor.js';
import type { SynapseClient } from '../backends/synapse.js';
import type { CatalogItem, CuratedApp } from '../catalog/types.js';
import type { StepResult } from '../install/types.js';
import type { ResolvedTarget } from './targets.js';
import type { JobLists } from './job-lists.js';

/** The one client of each backing service, all over the one pipeline: what provisioners and identity operations call. */
export interface Backends {
  pipeline: BackingPipeline;
  dataPlatform: DataPlatformClient;
  oneLake: OneLakeClient;
  /** The lake's storage accounts (Data Lake Storage Gen2): the lakehouses of a cloud without the data platform. */
  lake: LakeClient;
  kql: KqlClient;
  eventHubs: EventHubsClient;
  search: SearchClient;
  reporting: ReportingClient;
  monitor: MonitorClient;
  synapse: SynapseClient;
}

/** What the runner hands over to provision one item: the item with its install-time content, the target, the clients, a step log. */
export interface ProvisionContext {
  app: CuratedApp;
  item: CatalogItem;
  /** The item's content with seed tokens replaced by install-time timestamps and bindings by live values. */
  content: unknown;
  storedItemId: string;
  target: ResolvedTarget;
  profile: CloudProfile;
  backends: Backends;
  log(line: string): void;
  /** The result of another item of the same install, by key (dependencies are provisioned first). */
  dependency(key: string): StepResult | undefined;
  /** Content of another item of the app, by key. */
  contentOf(key: string): unknown;
  /** The backend its live record names (what provisioned it); unset, the cloud's choice (item-types/backends.ts). */
  backend?: string;
  /**
   * The ids the item's own provisioning recorded (a stored item's live record): where what it made lives, which a removal
   * deletes even after the items it depended on went (an earlier, partial uninstall deleted or detached them).
   */
  recordedIds?: Record<string, string>;
  /** What the job lists once for all its steps; unset, each step lists for itself. */
  lists?: JobLists;
  /**
   * The caller has just read the live resource and found it differs from what the step sends (an apply): a definition
   * is written without being read and compared again.
   */
  liveDiffers?: boolean;
}

/** What the shared provisioning helpers read: the context without the item's content. */
export type StepContext = Omit<ProvisionContext, 'content' | 'contentOf'>;

/**
 * What an item type's provisioner gets: the context with its content typed (the catalog checked it against the
 * type's schema), and other items' content read through their type's schema.
 */
export interface TypedProvisionContext<C> extends StepContext {
  content: C;
  /** Content of another item of the app, by key; `schema` is its type's content schema (a different one throws). */
  contentOf<S extends TSchema>(key: string, schema: S): Static<S> | undefined;
}

/** What a provisioner returns; the runner adds the step log. A gate is raised by throwing GateError. */
export type ProvisionOutcome = Omit<StepResult, 'steps'>;

/** A live item type's provisioner, as the runner calls it. */
export type Provisioner = (ctx: ProvisionContext) => Promise<ProvisionOutcome>;

/** What a provisioner refuses with before any call (its content cannot be provisioned as the target stands): a code and why. */
export class StepRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
