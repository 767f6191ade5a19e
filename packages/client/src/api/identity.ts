import { type Answer, rest, type Transport } from '../transport.js';

/** Identity operations (admin scope): method and path of each, called through one typed-by-document helper. */
const IDENTITY_ROUTES = {
  addFirewallRule: ['POST', '/api/admin/identity/workspaces/{workspaceId}/firewall-rules'],
  approveIncidentChange: ['POST', '/api/admin/identity/incidents/{incidentId}/approvals'],
  checkEgressAddress: ['GET', '/api/admin/identity/workspaces/{workspaceId}/firewall-check'],
  closeIncident: ['POST', '/api/admin/identity/incidents/{incidentId}/close'],
  deleteCredential: ['DELETE', '/api/admin/identity/credentials/{credentialId}'],
  diagnoseIdentityFailure: ['GET', '/api/admin/identity/diagnose'],
  diagnoseIdentityFailureBody: ['POST', '/api/admin/identity/diagnose'],
  fileChangeRequest: ['POST', '/api/admin/identity/incidents/{incidentId}/approvals/{approvalId}/change-request'],
  getIdentityChange: ['GET', '/api/admin/identity/changes/{changeId}'],
  getIncident: ['GET', '/api/admin/identity/incidents/{incidentId}'],
  getRotation: ['GET', '/api/admin/identity/rotations/{rotationId}'],
  grantWorkspaceRole: ['POST', '/api/admin/identity/workspaces/{workspaceId}/role-assignments'],
  inspectIdentityToken: ['POST', '/api/admin/identity/inspect-token'],
  listCredentials: ['GET', '/api/admin/identity/credentials'],
  listFirewallRules: ['GET', '/api/admin/identity/workspaces/{workspaceId}/firewall-rules'],
  listIdentityAlerts: ['GET', '/api/admin/identity/alerts'],
  listIdentityChanges: ['GET', '/api/admin/identity/changes'],
  listIdentitySignals: ['GET', '/api/admin/identity/signals'],
  listIncidentEvents: ['GET', '/api/admin/identity/incidents/{incidentId}/events'],
  listIncidents: ['GET', '/api/admin/identity/incidents'],
  listRotations: ['GET', '/api/admin/identity/rotations'],
  listWorkspaceRoleAssignments: ['GET', '/api/admin/identity/workspaces/{workspaceId}/role-assignments'],
  openIncident: ['POST', '/api/admin/identity/incidents'],
  recordIncidentChange: ['POST', '/api/admin/identity/incidents/{incidentId}/changes'],
  registerCredential: ['POST', '/api/admin/identity/credentials'],
  removeFirewallRule: ['DELETE', '/api/admin/identity/workspaces/{workspaceId}/firewall-rules/{ruleId}'],
  rollBackIdentityChange: ['POST', '/api/admin/identity/changes/{changeId}/rollback'],
  rollBackRotation: ['POST', '/api/admin/identity/rotations/{rotationId}/rollback'],
  runIdentityProbe: ['POST', '/api/admin/identity/probes'],
  runRotationStep: ['POST', '/api/admin/identity/rotations/{rotationId}/steps/{step}'],
  snapshotPolicy: ['POST', '/api/admin/identity/incidents/{incidentId}/snapshots'],
  startRotation: ['POST', '/api/admin/identity/credentials/{credentialId}/rotations'],
  verifyIncidentFix: ['POST', '/api/admin/identity/incidents/{incidentId}/verify'],
} as const;

export type IdentityOperation = keyof typeof IDENTITY_ROUTES;

/**
 * Identity operations under /api/admin/identity (admin scope), one method per operation:
 * `client.identity.listFirewallRules({ path: { workspaceId } })`. Answers the success body without `ok`.
 */
export function identityApi(t: Transport) {
  return Object.fromEntries(
    (Object.entries(IDENTITY_ROUTES) as Array<[IdentityOperation, readonly [string, string]]>).map(([id, [method, path]]) => [
      id,
      (params: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {}) =>
        t.run(
          id,
          (i) =>
            (t.api as unknown as Record<string, (p: string, o: object) => Promise<Answer>>)[method]!(path, {
              ...i,
              params: { path: params.path, query: params.query },
              body: params.body,
            }),
          rest<Record<string, unknown>>,
        ),
    ]),
  ) as Record<
    IdentityOperation,
    (params?: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown }) => Promise<Record<string, unknown>>
  >;
}
