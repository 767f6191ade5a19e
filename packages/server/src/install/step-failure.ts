import { diagnosisLink, verdictOf } from '../backends/failures.js';
import { StepRefused } from '../provisioning/context.js';
import { ExclusiveAccessNeeded } from '../backends/shared-access.js';
import type { StepResult } from './types.js';

/**
 * What a provisioner threw, as its step's result, by the failure's verdict: a gate → remediation (the backing text kept
 * beside the gate); a failed or transient backing call → failed (the pipeline has retried a transient one already); and
 * anything else is the service's own internal error, never presented as the backing service's answer. `activity` is
 * what the step was doing, as its message says it (a lifecycle job's phase: removing, applying …).
 */
export function failedStep(err: unknown, itemType: string, steps: string[], activity = 'provisioning'): StepResult {
  const v = verdictOf(err);
  if (v?.kind === 'gate') {
    const cause = v.cause;
    if (cause) steps.push(`${cause.service} answered ${cause.status}${cause.code ? ` ${cause.code}` : ''}`);
    // The backing service's own text travels with the gate, unmodified, so the admin sees what it said.
    return {
      status: 'remediation',
      gate: v.gate,
      ...(cause?.body ? { error: cause.body } : {}),
      steps,
      diagnosis: cause && diagnosisLink(cause),
    };
  }
  if (v) {
    const err = v.cause;
    steps.push(`${err.service} ${err.status ? `answered ${err.status}` : 'failed'}${err.code ? ` (${err.code})` : ''}`);
    const diagnosis = err.status === 401 || err.status === 403 || err.service === 'identity' ? diagnosisLink(err) : undefined;
    // Only what the backing service answered travels as `error`; a call that got no answer is described by the service.
    if (err.body) return { status: 'failed', error: err.body, ...(err.code ? { code: err.code } : {}), steps, diagnosis };
    return { status: 'failed', code: err.code ?? 'backing_unreachable', message: err.message, steps, diagnosis };
  }
  if (err instanceof StepRefused || err instanceof ExclusiveAccessNeeded)
    return { status: 'failed', code: err.code, message: err.message, steps };
  steps.push(
    activity === 'provisioning' ? `the ${itemType} provisioner stopped on an internal error` : `${activity} stopped on an internal error`,
  );
  return {
    status: 'failed',
    code: 'internal_error',
    message: `The service failed while ${activity} this ${itemType} (an internal error, not the backing service's answer): ${(err as Error).message}`,
    steps,
  };
}
