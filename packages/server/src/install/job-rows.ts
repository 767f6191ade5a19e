import type { StoreRow } from '../store/schema.js';
import type { InstallJob, Mode, StepResult, TargetOverrides } from './types.js';

/** An install_jobs row as the store reads it. */
export type JobRow = StoreRow<'install_jobs'>;

/** A job row as the worker sees it. */
export interface JobRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  appId: string;
  createdBy: string;
  deploy: boolean;
  mode: Mode;
  targetOverrides: TargetOverrides | null;
  attempts: number;
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

/** A job row as the API answers it. */
export function toJob(r: JobRow): InstallJob {
  return {
    id: r.id,
    appId: r.app_id,
    workspaceId: r.workspace_id,
    status: r.status,
    phase: r.phase,
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
