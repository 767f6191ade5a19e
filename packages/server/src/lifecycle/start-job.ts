import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import type { JobStore } from '../install/job-store.js';
import type { StepRow } from '../install/job-rows.js';
import type { Mode, TargetOverrides } from '../install/types.js';
import type { Db } from '../store/db.js';
import { type JobOptions, type LifecycleKind, WORK_PHASE } from './types.js';

/** One step of a lifecycle job as it is written at accept. */
export type NewStep = Omit<StepRow, 'result' | 'stepIndex'>;

/** What a lifecycle job is accepted with. */
export interface NewLifecycleJob {
  kind: LifecycleKind;
  workspaceId: string;
  appId: string | null;
  options: JobOptions;
  steps: NewStep[];
  mode?: Mode;
  targetOverrides?: TargetOverrides | null;
}

/** Writes a lifecycle job and its steps (in their order of execution) in one transaction; answers its id. */
export async function startLifecycleJob(jobs: JobStore, caller: Caller, job: NewLifecycleJob, within?: Db): Promise<string> {
  const id = randomUUID();
  await jobs.create(
    {
      id,
      kind: job.kind,
      options: job.options,
      phase: WORK_PHASE[job.kind],
      tenantId: caller.tenantId,
      workspaceId: job.workspaceId,
      appId: job.appId,
      createdBy: caller.userId,
      deploy: true,
      mode: job.mode ?? 'shared',
      targetOverrides: job.targetOverrides ?? undefined,
      totalItems: job.steps.length,
    },
    job.steps.map((s, stepIndex) => ({ ...s, stepIndex })),
    within,
  );
  return id;
}
