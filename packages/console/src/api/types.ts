import type { Answer, Schema } from './schemas';
import type { RemediationGate } from './client';

export interface WhoAmI {
  tenantId: string;
  userId: string;
  userName: string;
  authMethod: 'token' | 'session';
  scopes: string[];
  tokenId: string | null;
  csrfToken?: string;
}

export interface Health {
  status: string;
  version: string;
  store: string;
  cloud?: string;
  sandbox?: { admin: string };
  /** Present when sign-in with the cloud's identity provider is configured. */
  identityProvider?: { name: string; loginUrl: string };
}

export type Workspace = Schema<'Workspace'>;

/** An item's live provisioning state: the last StepResult written for it. */
export interface ItemProvisioning {
  status: StepStatus;
  resourceId?: string | null;
  gate?: RemediationGate | null;
  error?: string | null;
  code?: string | null;
  message?: string | null;
  steps?: string[];
  at?: string;
}

/** The service documents `provisioning` loosely (the last StepResult); the console reads these fields of it. */
export type Item = Omit<Schema<'Item'>, 'provisioning'> & { provisioning: ItemProvisioning | null };

/** An item type of the service's registry: its id, names, backing service, and the console's icon and editor of it. */
export type ItemType = Answer<'listItemTypes'>['itemTypes'][number];
/** The id of an item type (the service's registry): a name that is none does not compile. */
export type ItemTypeId = ItemType['id'];

export interface AppSummary {
  id: string;
  displayName: string;
  summary: string;
  description: string;
  version: string;
  totalItems: number;
  liveItems: number;
  storedItems: number;
  liveTypes: string[];
  storedTypes: string[];
}

export interface PlannedItem {
  key: string;
  itemType: string;
  displayName: string;
  provisioning: 'live' | 'stored';
  backing?: string;
  action: string;
}

export interface AppDetail extends AppSummary {
  items: PlannedItem[];
  edges: Array<{ from: string; to: string; kind: string }>;
}

export type StepResult = Schema<'StepResult'>;
export type StepStatus = StepResult['status'];

export interface ProvisionStep {
  stepIndex: number;
  itemType: string;
  displayName: string;
  cosmosItemId: string;
  result: StepResult;
}

export type InstallJob = Schema<'InstallJob'>;

export interface TargetOverrides {
  platformWorkspaceId?: string;
  kqlClusterUri?: string;
  kqlDatabase?: string;
  warehouseWorkspace?: string;
  warehouseServer?: string;
  warehouseDatabase?: string;
  searchService?: string;
  lakeAccount?: string;
  lakeContainer?: string;
}

export type ThreadEdge = Schema<'ThreadEdge'>;

export const EDGE_KINDS = ['feeds', 'reads-from', 'visualizes', 'triggers-on', 'runs'] as const;
