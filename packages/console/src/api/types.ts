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

export interface Workspace {
  id: string;
  name: string;
  description: string;
  platformWorkspaceId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An item's live provisioning state: the last StepResult written for it. */
export interface ItemProvisioning {
  status: StepStatus;
  resourceId?: string | null;
  gate?: RemediationGate | null;
  error?: string | null;
  steps?: string[];
  at?: string;
}

export interface Item {
  id: string;
  workspaceId: string;
  itemType: string;
  displayName: string;
  description: string;
  appId: string | null;
  contentSource: string;
  provisioning: ItemProvisioning | null;
  createdAt: string;
  updatedAt: string;
}

export interface ItemType {
  id: string;
  displayName: string;
  description: string;
  provisioning: 'live' | 'stored';
  backing?: string;
}

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

export type StepStatus = 'created' | 'exists' | 'skipped' | 'remediation' | 'failed';
export type JobStatus = 'running' | 'done' | 'partial' | 'failed';

export interface StepResult {
  status: StepStatus;
  resourceId?: string;
  secondaryIds?: Record<string, string>;
  gate?: RemediationGate;
  error?: string;
  steps: string[];
  diagnosis?: string;
}

export interface ProvisionStep {
  stepIndex: number;
  itemType: string;
  displayName: string;
  cosmosItemId: string;
  result: StepResult;
}

export interface InstallJob {
  id: string;
  appId: string;
  workspaceId: string;
  status: JobStatus;
  phase: 'creating-items' | 'provisioning' | 'finalizing' | 'done';
  percentComplete: number;
  totalItems: number;
  createdItems: number;
  installed: Array<{ itemType: string; id: string; displayName: string; status: 'created' }>;
  provision?: { outcome: string; mode: string; target: Record<string, string>; steps: ProvisionStep[] };
  deploy: boolean;
  mode: 'shared' | 'dedicated';
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

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

export interface ThreadEdge {
  id: string;
  fromItemId: string;
  toItemId: string;
  kind: string;
  source: string;
  createdAt: string;
}

export const EDGE_KINDS = ['feeds', 'reads-from', 'visualizes', 'triggers-on', 'runs'] as const;
