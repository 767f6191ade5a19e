import type { CuratedApp } from '../catalog/types.js';
import type { InstalledAppRecord, InstalledAppStatus } from '../installed-apps/types.js';
import type { JobRecord, StepRow } from './job-rows.js';
import type { JobStatus, Outcome } from './types.js';

/** The installed app's status from its job's outcome: installed, partial (some items wait or failed), or failed. */
export function appStatusOf(outcome: Outcome, jobStatus: JobStatus): InstalledAppStatus {
  if (outcome === 'all-created' || outcome === 'skipped') return 'installed';
  if (outcome === 'all-remediation') return 'partial';
  return jobStatus === 'failed' ? 'failed' : 'partial';
}

/** What a finished job records of its app: version, mode, target and each stored item with its live state. */
export function installedAppOf(
  job: JobRecord,
  app: CuratedApp,
  steps: StepRow[],
  target: Record<string, string>,
  status: InstalledAppStatus,
): InstalledAppRecord {
  return {
    tenantId: job.tenantId,
    workspaceId: job.workspaceId,
    appId: app.id,
    version: app.version,
    mode: job.mode,
    target,
    status,
    jobId: job.id,
    by: job.createdBy,
    items: steps.flatMap((s) =>
      s.cosmosItemId
        ? [
            {
              key: s.itemKey,
              itemType: s.itemType,
              itemId: s.cosmosItemId,
              resourceId: s.result?.resourceId ?? null,
              status: s.live ? (s.result?.status ?? 'pending') : 'stored',
            },
          ]
        : [],
    ),
  };
}
