import { Badge } from '@fluentui/react-components';
import type { InstallJob, StepStatus } from '../api/types';

const JOB_COLOR = { running: 'brand', done: 'success', partial: 'warning', failed: 'danger' } as const;
const STEP_COLOR = {
  created: 'success',
  exists: 'success',
  skipped: 'subtle',
  remediation: 'warning',
  failed: 'danger',
  running: 'brand',
} as const;

export const PHASES: Record<InstallJob['phase'], string> = {
  'creating-items': 'Creating items',
  provisioning: 'Provisioning',
  finalizing: 'Finalizing',
  done: 'Done',
};

/** How an install ended, in words a notification can carry. */
export function outcomeText(job: InstallJob): string {
  if (job.status === 'running') return `${PHASES[job.phase]} · ${job.percentComplete}%`;
  const steps = job.provision?.steps ?? [];
  const fix = steps.filter((s) => s.result.status === 'remediation').length;
  const failed = steps.filter((s) => s.result.status === 'failed').length;
  if (job.status === 'done')
    return job.provision?.outcome === 'skipped' ? 'installed (stored only, not deployed)' : 'installed, every item created';
  if (job.status === 'partial')
    return `installed with ${[fix && `${fix} step(s) needing an admin`, failed && `${failed} failed step(s)`].filter(Boolean).join(' and ') || 'some steps to review'}`;
  return 'install failed';
}

export function JobStatusBadge({ status }: { status: InstallJob['status'] }) {
  return (
    <Badge appearance="tint" color={JOB_COLOR[status]} data-testid="job-status">
      {status}
    </Badge>
  );
}

/** A step's status, or `running` while the worker runs a retried step. */
export function StepStatusBadge({ status }: { status: StepStatus | 'running' }) {
  return (
    <Badge appearance="tint" color={STEP_COLOR[status] ?? 'informative'} data-testid="step-status">
      {status}
    </Badge>
  );
}
