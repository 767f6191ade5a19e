import type { AuditKind, AuditTargetType } from './audit-types.js';

/** What one answered request offers the table: the validated input and the parsed JSON answer (never stored whole). */
export interface AuditContext {
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** The JSON answer, when there is one (an error envelope on a refusal). */
  payload: Record<string, unknown>;
  status: number;
}

/** What an audited operation records of a request: its target and the few named fields of its detail. */
export interface AuditRead {
  id?: string;
  name?: string;
  workspaceId?: string;
  detail?: Record<string, unknown>;
}

/** One audited operation: the kind (which may depend on the request or the outcome), the target type, and its reader. */
export interface AuditedOperation {
  kind: AuditKind | ((c: AuditContext) => AuditKind);
  target: AuditTargetType;
  read: (c: AuditContext) => AuditRead;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const ok = (c: AuditContext) => c.status < 400;
/** The id of a job an operation accepted (`jobId`, or `job.id`). */
const jobOf = (c: AuditContext) => str(c.payload.jobId) ?? str(obj(c.payload.job).id);
/** Drops the undefined fields of a detail, so the stored object holds only what was known. */
const defined = (d: Obj): Obj => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));

const workspaceTarget = (c: AuditContext): AuditRead => {
  const ws = obj(c.payload.workspace);
  const id = str(c.params.workspaceId) ?? str(ws.id);
  return { id, name: str(ws.name) ?? str(c.body.name), workspaceId: id };
};

const appTarget = (workspaceId: string | undefined, c: AuditContext, detail: Obj = {}): AuditRead => ({
  id: str(c.params.appId),
  workspaceId,
  detail: defined({ jobId: jobOf(c), ...detail }),
});

const reportTarget = (c: AuditContext, detail: Obj = {}): AuditRead => {
  const report = obj(c.payload.report);
  return {
    id: str(c.params.reportId) ?? str(report.id),
    name: str(report.name) ?? str(c.body.name),
    workspaceId: str(c.query.workspaceId),
    detail: defined(detail),
  };
};

const assignmentTarget = (c: AuditContext): AuditRead => {
  const a = obj(c.payload.roleAssignment);
  const principal = obj(a.principal);
  const asked = obj(c.body.principal);
  return {
    id: str(c.params.assignmentId) ?? str(a.id),
    name: str(principal.displayName),
    workspaceId: str(c.params.workspaceId),
    detail: defined({
      principal: str(principal.id ?? asked.id) ? { type: str(principal.type ?? asked.type), id: str(principal.id ?? asked.id) } : undefined,
      role: str(c.body.role) ?? str(a.role),
    }),
  };
};

// Identity operations name their target by one of these path parameters (the first present wins).
const IDENTITY_TARGET_PARAMS = ['rotationId', 'credentialId', 'ruleId', 'approvalId', 'incidentId', 'changeId'] as const;

/** Every POST and DELETE under /api/admin/identity: recorded as `identity.<operationId>`. */
export const IDENTITY_OPERATIONS = [
  'diagnoseIdentityFailureBody',
  'inspectIdentityToken',
  'runIdentityProbe',
  'addFirewallRule',
  'removeFirewallRule',
  'grantWorkspaceRole',
  'rollBackIdentityChange',
  'openIncident',
  'approveIncidentChange',
  'fileChangeRequest',
  'snapshotPolicy',
  'recordIncidentChange',
  'verifyIncidentFix',
  'closeIncident',
  'registerCredential',
  'deleteCredential',
  'startRotation',
  'runRotationStep',
  'rollBackRotation',
] as const;

const identityOperation = (operationId: string): AuditedOperation => ({
  kind: `identity.${operationId}`,
  target: 'identity',
  read: (c) => {
    const param = IDENTITY_TARGET_PARAMS.find((p) => str(c.params[p]));
    // A created thing (credential, incident, rotation, change) is named by the answer's first object with an id.
    const made = Object.values(c.payload)
      .map(obj)
      .find((o) => str(o.id));
    return {
      id: param ? str(c.params[param]) : str(made?.id),
      name: str(made?.displayName) ?? str(made?.title),
      // The identity routes' workspaceId is a platform workspace (a GUID), not a service workspace.
      detail: defined({ platformWorkspaceId: str(c.params.workspaceId), step: str(c.params.step) }),
    };
  },
});

/**
 * The audited operations, keyed by OpenAPI operationId: the one place that says what the trail records. The hook
 * (http/audit-trail.ts) records one event for each answered request of these, whatever its outcome.
 */
export const AUDITED_OPERATIONS: Record<string, AuditedOperation> = {
  createWorkspace: { kind: 'workspace.created', target: 'workspace', read: workspaceTarget },
  updateWorkspace: {
    kind: (c) => ('platformWorkspaceId' in c.body ? 'workspace.bound' : 'workspace.updated'),
    target: 'workspace',
    read: (c) => ({
      ...workspaceTarget(c),
      detail: defined({ fields: Object.keys(c.body).sort(), platformWorkspaceId: c.body.platformWorkspaceId }),
    }),
  },
  deleteWorkspace: {
    kind: 'workspace.deleted',
    target: 'workspace',
    read: (c) => ({ ...workspaceTarget(c), detail: defined({ jobId: jobOf(c), force: c.query.force, purgeData: c.query.purgeData }) }),
  },
  deleteItem: {
    kind: 'item.deleted',
    target: 'item',
    read: (c) => ({
      id: str(c.params.itemId),
      workspaceId: str(c.params.workspaceId),
      detail: defined({ jobId: jobOf(c), deleteLive: c.query.deleteLive }),
    }),
  },
  installApp: {
    kind: 'app.installed',
    target: 'app',
    read: (c) => appTarget(str(c.body.workspaceId), c, { mode: c.body.mode, deploy: c.body.deploy }),
  },
  upgradeApp: {
    kind: 'app.upgraded',
    target: 'app',
    read: (c) => appTarget(str(c.params.workspaceId), c, { removeDropped: c.body.removeDropped }),
  },
  uninstallApp: {
    kind: 'app.uninstalled',
    target: 'app',
    read: (c) => appTarget(str(c.params.workspaceId), c, { purgeData: c.query.purgeData }),
  },
  publishPaginatedReport: { kind: 'report.published', target: 'paginated-report', read: (c) => reportTarget(c) },
  deletePaginatedReport: { kind: 'report.deleted', target: 'paginated-report', read: (c) => reportTarget(c) },
  clonePaginatedReport: {
    kind: 'report.cloned',
    target: 'paginated-report',
    read: (c) => ({
      ...reportTarget(c, {
        cloneId: str(obj(c.payload.report).id),
        cloneName: str(c.body.name),
        targetWorkspaceId: str(c.body.targetWorkspaceId),
      }),
      name: undefined,
    }),
  },
  // The definition itself is never copied: the event says that it changed, and by whom.
  putPaginatedReportDefinition: { kind: 'report.definition-updated', target: 'paginated-report', read: (c) => reportTarget(c) },
  updatePaginatedReportDatasources: {
    kind: 'report.datasources-updated',
    target: 'paginated-report',
    read: (c) => reportTarget(c, { datasources: Array.isArray(c.body.updateDetails) ? c.body.updateDetails.length : undefined }),
  },
  // An export takes a report's data out, possibly as another user (a tenant admin's effectiveIdentity): the format and
  // that name are recorded, never the parameter values.
  startPaginatedReportExport: {
    kind: 'report.exported',
    target: 'paginated-report',
    read: (c) =>
      reportTarget(c, {
        format: str(c.body.format),
        exportId: str(obj(c.payload.export).id),
        effectiveUsername: str(obj(c.body.effectiveIdentity).username),
      }),
  },
  // Name, scopes and expiry only: the answer's secret is read by no one here.
  createToken: {
    kind: 'token.created',
    target: 'token',
    read: (c) => {
      const token = obj(c.payload.token);
      return {
        id: str(token.id),
        name: str(token.name) ?? str(c.body.name),
        detail: defined({
          scopes: Array.isArray(c.body.scopes) ? c.body.scopes : undefined,
          expiresAt: str(token.expiresAt),
          expiresInDays: c.body.expiresInDays,
        }),
      };
    },
  },
  revokeToken: { kind: 'token.revoked', target: 'token', read: (c) => ({ id: str(c.params.tokenId) }) },
  addRoleAssignment: { kind: 'role-assignment.created', target: 'role-assignment', read: assignmentTarget },
  changeRoleAssignment: { kind: 'role-assignment.changed', target: 'role-assignment', read: assignmentTarget },
  removeRoleAssignment: { kind: 'role-assignment.deleted', target: 'role-assignment', read: assignmentTarget },
  createSession: {
    kind: (c) => (ok(c) ? 'session.signed-in' : 'session.sign-in-failed'),
    target: 'session',
    read: () => ({ detail: { method: 'token' } }),
  },
  completeOidcSignIn: {
    kind: (c) => (ok(c) ? 'session.signed-in' : 'session.sign-in-failed'),
    target: 'session',
    read: () => ({ detail: { method: 'oidc' } }),
  },
  deleteSession: { kind: 'session.signed-out', target: 'session', read: () => ({}) },
  ...Object.fromEntries(IDENTITY_OPERATIONS.map((op) => [op, identityOperation(op)])),
};
