/** How an audited request ended: 2xx done, 202 accepted as a job, 4xx refused, 5xx failed. */
export type AuditOutcome = 'succeeded' | 'refused' | 'failed' | 'accepted';

/** Every kind the trail records (identity operations are `identity.<operationId>`). */
export type AuditKind =
  | 'role-assignment.created'
  | 'role-assignment.changed'
  | 'role-assignment.deleted'
  | 'token.created'
  | 'token.revoked'
  | 'session.signed-in'
  | 'session.sign-in-failed'
  | 'session.signed-out'
  | 'workspace.created'
  | 'workspace.updated'
  | 'workspace.deleted'
  | 'workspace.bound'
  | 'item.deleted'
  | 'app.installed'
  | 'app.upgraded'
  | 'app.uninstalled'
  | `identity.${string}`
  | 'report.published'
  | 'report.deleted'
  | 'report.cloned'
  | 'report.definition-updated'
  | 'report.datasources-updated'
  | 'report.exported';

/** What an event acted on. */
export type AuditTargetType = 'role-assignment' | 'token' | 'session' | 'workspace' | 'item' | 'app' | 'identity' | 'paginated-report';

/** Who acted: all null for a refused call that never authenticated. */
export interface AuditActor {
  userId: string | null;
  userName: string | null;
  tokenId?: string;
  method: string | null;
}

/** One event to record; `at` and `id` are given by the service. */
export interface AuditRecord {
  tenantId: string;
  actor: AuditActor;
  kind: AuditKind;
  workspaceId?: string;
  target: { type: AuditTargetType; id?: string; name?: string };
  outcome: AuditOutcome;
  status: number;
  detail?: Record<string, unknown>;
  requestId: string;
}

/** An event as GET /api/audit-events answers it. */
export interface AuditEvent extends AuditRecord {
  id: string;
  at: string;
}

/** Who a public sign-in route found (before there is a caller, or when the sign-in fails): the event's actor and tenant. */
export interface SignInSubject {
  tenantId?: string;
  userId?: string;
  userName?: string;
  tokenId?: string;
  method?: 'token' | 'oidc';
  /** Why the sign-in failed, when the answer is a page rather than the error envelope. */
  reason?: string;
  message?: string;
  /** The refusal's status when the browser was redirected to the console's page saying so (the answer itself is a 303). */
  status?: number;
}

/** The filters of GET /api/audit-events (validated by the route's schema and the service). */
export interface AuditFilters {
  workspaceId?: string;
  actor?: string;
  /** An exact kind, or a prefix written `kind.*` (e.g. `report.*`). */
  kind?: string;
  since?: string;
  until?: string;
}

/** The outcome of an answered status. */
export function outcomeOf(status: number): AuditOutcome {
  if (status === 202) return 'accepted';
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  return 'succeeded';
}
