import type { StepRow } from './job-rows.js';
import type { JobStatus, Outcome, ProvisionReport, StepResult } from './types.js';

const provisioned = (r: StepResult) => r.status === 'created' || r.status === 'exists';

/** The report's outcome from its steps (DESIGN.md "Install pipeline"). */
export function outcomeOf(results: StepResult[]): Outcome {
  if (results.every(provisioned)) return 'all-created';
  if (results.every((r) => r.status === 'skipped')) return 'skipped';
  if (results.every((r) => r.status === 'remediation')) return 'all-remediation';
  return 'partial';
}

/** The job's final status: done, partial (some steps failed or wait on remediation), or failed (nothing provisioned). */
export function jobStatusOf(outcome: Outcome, results: StepResult[]): JobStatus {
  if (outcome === 'all-created' || outcome === 'skipped') return 'done';
  return results.some(provisioned) ? 'partial' : 'failed';
}

/** Progress inside the provisioning phase: 35 to 95 as steps complete. */
export function provisioningPercent(done: number, total: number): number {
  return total === 0 ? 95 : 35 + Math.floor((60 * done) / total);
}

/** Progress inside the creating-items phase: 0 to 35 as items are stored. */
export function creatingPercent(done: number, total: number): number {
  return total === 0 ? 35 : Math.floor((35 * done) / total);
}

/** The ProvisionReport from the job's steps. */
export function reportOf(
  mode: ProvisionReport['mode'],
  target: Record<string, string>,
  steps: StepRow[],
  backends?: Record<string, string>,
): ProvisionReport {
  const live = steps.filter((s) => s.live && s.result);
  const provSteps = live.map((s) => ({
    stepIndex: s.stepIndex,
    itemType: s.itemType,
    displayName: s.displayName,
    cosmosItemId: s.cosmosItemId ?? '',
    result: s.result!,
  }));
  return { outcome: outcomeOf(provSteps.map((s) => s.result)), mode, target, ...(backends ? { backends } : {}), steps: provSteps };
}
