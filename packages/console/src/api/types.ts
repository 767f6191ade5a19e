import type { Answer, Body, Schema } from './schemas';
import type { RemediationGate } from './client';

/** The caller: tenant, user, how it signed in, and its scopes. */
export type WhoAmI = Omit<Answer<'whoami'>, 'ok'>;

/** GET /api/health (its schema is open, so the generated type is too loose to read: the fields the console reads). */
export interface Health {
  status: string;
  version: string;
  store: string;
  cloud?: string;
  /** False in a cloud without the data platform (its types run on the Azure-native backends). */
  dataPlatform?: boolean;
  sandbox?: { admin: string };
  /** Present when sign-in with the cloud's identity provider is configured. */
  identityProvider?: { name: string; loginUrl: string };
}

/** A workspace with the caller's effective role on it (`role`) and where that role comes from (`roleSource`). */
export type Workspace = Schema<'Workspace'>;

/** An app installed in a workspace: its version against the catalog's, its status and items. */
export type InstalledApp = Schema<'InstalledApp'>;

/** An item's live provisioning state: the last StepResult written for it. */
export interface ItemProvisioning {
  /** A step's status, or `stored`: the item is kept in this service only in this cloud (`message` says why). */
  status: StepStatus | 'stored';
  resourceId?: string | null;
  gate?: RemediationGate | null;
  error?: string | null;
  code?: string | null;
  message?: string | null;
  steps?: string[];
  at?: string;
  /** The job that last worked on the item (a create with deploy names its apply job here). */
  jobId?: string | null;
}

/** The service documents `provisioning` loosely (the last StepResult); the console reads these fields of it. */
export type Item = Omit<Schema<'Item'>, 'provisioning'> & { provisioning: ItemProvisioning | null };

/** An item type of the service's registry: its id, names, backing service, and the console's icon and editor of it. */
export type ItemType = Answer<'listItemTypes'>['itemTypes'][number];
/** The id of an item type (the service's registry): a name that is none does not compile. */
export type ItemTypeId = ItemType['id'];

export type AppSummary = Schema<'AppSummary'>;

/** An app with the items it installs, each with its planned backing calls, and its lineage edges. */
export type AppDetail = Answer<'getApp'>['app'];
export type PlannedItem = AppDetail['items'][number];

export type StepResult = Schema<'StepResult'>;
export type StepStatus = StepResult['status'];

export type ProvisionStep = Schema<'ProvisionReport'>['steps'][number];

export type InstallJob = Schema<'InstallJob'>;

/** Where a dedicated install goes: the install body's targetOverrides. */
export type TargetOverrides = NonNullable<Body<'installApp'>['targetOverrides']>;

export type ThreadEdge = Schema<'ThreadEdge'>;

export const EDGE_KINDS = ['feeds', 'reads-from', 'visualizes', 'triggers-on', 'runs'] as const;

/** What installing an app would do now, per item, read from the backing services (POST /api/apps/{appId}/plan). */
export type InstallPlanAnswer = Schema<'InstallPlan'>;
export type PlanItem = Schema<'PlanItem'>;
