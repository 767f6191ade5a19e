import type { StoreRow } from '../store/schema.js';
import type { JobKind, JobOptions, LifecycleStepResult } from '../lifecycle/types.js';
import type { InstallJob, Mode, Phase, StepResult, TargetOverrides } from './types.js';

/** An install_jobs row as the store reads it. */
export type JobRow = StoreRow<'install_jobs'>;

/** A job row as the worker sees it. */
export interface JobRecord {
  id: string;
  kind: JobKind;
  options: JobOptions;
  tenantId: string;
  workspaceId: string;
  /** The app of an install, an upgrade or an uninstall; null for a job of the whole workspace. */
  appId: string | null;
  createdBy: string;
  deploy: boolean;
  mode: Mode;
  targetOverrides: TargetOverrides | null;
  attempts: number;
  /** The traceparent of the request that accepted the job (or re-opened a step): the job's span continues it. */
  traceParent: string | null;
}

/** One step of a job as the worker reads it. */
export interface StepRow {
  stepIndex: number;
  itemKey: string;
  itemType: string;
  displayName: string;
  live: boolean;
  cosmosItemId: string | null;
  result: StepResult | null;
}

/** One step of a lifecycle job: the same row, with a lifecycle result. */
export type LifecycleStepRow = Omit<StepRow, 'result'> & { result: LifecycleStepResult | null };

/** A job row as the worker sees it. */
export function toRecord(r: JobRow): JobRecord {
  return {
    id: r.id,
    kind: r.kind,
    options: r.options ?? {},
    tenantId: r.tenant_id,
    workspaceId: r.workspace_id,
    appId: r.app_id,
    createdBy: r.created_by,
    deploy: r.deploy,
    mode: r.mode,
    targetOverrides: r.target_overrides ?? null,
    attempts: r.attempts,
    traceParent: r.trace_parent ?? null,
  };
}

/** An install job row as the API answers it (an install's app id and phase are always set). */
export function toJob(r: JobRow): InstallJob {
  return {
    id: r.id,
    appId: r.app_id ?? '',
    workspaceId: r.workspace_id,
    status: r.status,
    phase: r.phase as Phase,
    percentComplete: r.percent_complete,
    totalItems: r.total_items,
    createdItems: r.created_items,
    installed: r.installed ?? [],
    ...(r.provision ? { provision: r.provision } : {}),
    deploy: r.deploy,
    mode: r.mode,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  };
}
