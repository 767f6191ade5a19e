import type { Severity } from './severity.js';

/** Change kinds that need the identity change board's approval before they are made. */
const APPROVAL_REQUIRED = new Set(['conditional-access']);
const DAY_MS = 86_400_000;

export interface Approval {
  id: string;
  changeKind: string;
  approver: string;
  verbal: boolean;
  at: string;
  /** Verbal (SEV1) approvals: the retroactive change request is due within 24 hours. */
  changeRequestDueAt?: string;
  changeRequestId?: string;
}

/** Checks an approval against the incident's severity: verbal approval is allowed only for SEV1. */
export function approvalProblem(severity: Severity, verbal: boolean): string | undefined {
  return verbal && severity !== 'SEV1'
    ? `verbal approval is allowed only for SEV1 (this incident is ${severity}); get the identity change board’s approval`
    : undefined;
}

/** When the retroactive change request of a verbal approval is due. */
export const changeRequestDue = (approvedAt: Date) => new Date(approvedAt.getTime() + DAY_MS);

/** Why a change of this kind may not be made yet: a missing approval or a missing policy snapshot. */
export function changeProblem(kind: string, approvals: Approval[], hasSnapshot: boolean): string | undefined {
  if (!APPROVAL_REQUIRED.has(kind)) return undefined;
  if (!approvals.some((a) => a.changeKind === kind))
    return `a ${kind} change needs an approval first (the identity change board, or verbal from the on-call identity lead for SEV1)`;
  if (!hasSnapshot) return 'take a snapshot of the policy before any edit (send it as snapshot)';
  return undefined;
}

/** Monitoring after the fix lasts twice the incident's duration (opened to fixed). */
export function monitoringUntil(openedAt: Date, fixedAt: Date): Date {
  return new Date(fixedAt.getTime() + 2 * Math.max(0, fixedAt.getTime() - openedAt.getTime()));
}

/** Why the incident cannot close at `now`, or undefined when it may. */
export function closeProblem(i: { status: string; monitoringUntil?: string }, now: Date): string | undefined {
  if (i.status === 'closed') return 'the incident is already closed';
  if (!i.monitoringUntil) return 'run the verification checklist after the fix first; monitoring starts when it passes';
  if (now.getTime() < Date.parse(i.monitoringUntil))
    return `monitoring continues for twice the incident’s duration, until ${i.monitoringUntil}`;
  return undefined;
}

/** Change requests of verbal approvals not filed yet, with whether they are overdue. */
export function openChangeRequests(approvals: Approval[], now: Date) {
  return approvals
    .filter((a) => a.verbal && !a.changeRequestId)
    .map((a) => ({ approvalId: a.id, dueAt: a.changeRequestDueAt!, overdue: now.getTime() > Date.parse(a.changeRequestDueAt!) }));
}
