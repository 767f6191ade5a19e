import type { RemediationGate } from '../errors.js';

export const JOB_STATUSES = ['running', 'done', 'partial', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const PHASES = ['creating-items', 'provisioning', 'finalizing', 'done'] as const;
export type Phase = (typeof PHASES)[number];
export const STEP_STATUSES = ['created', 'exists', 'skipped', 'remediation', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
export const OUTCOMES = ['all-created', 'partial', 'all-remediation', 'skipped'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const MODES = ['shared', 'dedicated'] as const;
export type Mode = (typeof MODES)[number];
/** The kinds of a job's events (the server-sent event names). */
export type JobEventKind = 'phase' | 'item-created' | 'step' | 'step-retried' | 'done' | 'failed';

/** The result of provisioning one item (SPEC.md StepResult). */
export interface StepResult {
  status: StepStatus;
  resourceId?: string;
  secondaryIds?: Record<string, string>;
  gate?: RemediationGate;
  /** The backing service's error text, unmodified (only ever the backing service's own words). */
  error?: string;
  /** The failure's code: the backing service's error code when it answered one, else the service's own (timeout, network_error, host_not_allowed, redirect_refused, internal_error, …). */
  code?: string;
  /** The service's own description of a failure that is not a backing service's answer (no answer, a refused address, an internal error). */
  message?: string;
  steps: string[];
  /** Where to read a diagnosis of a failed or remediation step (identity operations). */
  diagnosis?: string;
  /** The backend the step ran on (item-types/backends.ts): the data platform, or an Azure-native service. */
  backend?: string;
}

/** One provisioned item in the report (SPEC.md ProvisionStep). */
export interface ProvisionStep {
  stepIndex: number;
  itemType: string;
  displayName: string;
  cosmosItemId: string;
  result: StepResult;
}

/** The report written when provisioning completes (SPEC.md ProvisionReport). */
export interface ProvisionReport {
  outcome: Outcome;
  mode: Mode;
  target: Record<string, string>;
  /** Each live item type's backend in the install's cloud. */
  backends?: Record<string, string>;
  steps: ProvisionStep[];
}

/** A stored item an install created (SPEC.md InstalledItem). */
export interface InstalledItem {
  itemType: string;
  id: string;
  displayName: string;
  status: 'created';
}

/** The install job as polled (SPEC.md Install job). */
export interface InstallJob {
  id: string;
  appId: string;
  workspaceId: string;
  status: JobStatus;
  phase: Phase;
  percentComplete: number;
  totalItems: number;
  createdItems: number;
  installed: InstalledItem[];
  provision?: ProvisionReport;
  deploy: boolean;
  mode: Mode;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** targetOverrides of a dedicated install (SPEC.md). */
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
