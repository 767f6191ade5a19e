import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { callerFrom, type Caller } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import { ROLE_RANK, type Workspace, type WorkspaceRole } from '../data-platform/store.js';
import { messageError, notFound, pbiError } from './errors.js';

/**
 * Authenticates a reporting call: a bearer token for the Power BI API audience (the reporting API and the data
 * platform share it), then the tenant setting that lets service principals call the APIs.
 */
export async function reportingCaller(core: SandboxCore, ctx: RequestContext): Promise<Caller> {
  core.reporting.settle();
  const v = await core.tokens.verifyBearer(ctx.header('authorization'), [...AUDIENCES.dataPlatform]);
  if (!v.ok) {
    if (v.claims?.oid) ctx.identity = String(v.claims.oid);
    if (v.reason === 'expired') throw messageError(403, 'TokenExpired', 'Access token has expired, resubmit with a new access token');
    throw pbiError(401, 'PowerBINotAuthorizedException', [
      {
        code: 'AuthenticationFailed',
        detail: v.reason === 'missing' ? 'The request has no bearer token.' : `The bearer token is not valid for this API: ${v.detail}`,
      },
    ]);
  }
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  if (caller.isApp && !core.switches['reporting.servicePrincipalsEnabled']) {
    throw pbiError(401, 'PowerBINotAuthorizedException', [
      {
        code: 'TenantSetting',
        detail: 'Service principals are not allowed to use the APIs by the tenant setting "Service principals can use Fabric APIs".',
      },
    ]);
  }
  return caller;
}

/** The display string the service records as modifiedBy (UPN of users, the app's name otherwise). */
export function callerName(caller: Caller): string {
  return caller.upn ?? caller.principal?.displayName ?? caller.appId ?? caller.objectId;
}

/**
 * The group (a reporting group is the platform workspace) with the caller's role, which must reach `needed`:
 * unknown group → 404 PowerBIEntityNotFound; no role → 401 PowerBINotAuthorizedException; a lower role → 403.
 */
export function groupFor(
  core: SandboxCore,
  caller: Caller,
  groupId: string,
  needed: WorkspaceRole,
): { ws: Workspace; role: WorkspaceRole } {
  const ws = core.dataPlatform.workspaces.get(groupId.toLowerCase());
  if (!ws) throw notFound();
  const role = ws.roleAssignments.get(caller.objectId)?.role;
  if (!role)
    throw pbiError(401, 'PowerBINotAuthorizedException', [
      { code: 'NotWorkspaceMember', detail: `The caller has no role on workspace ${ws.id}.` },
    ]);
  if (ROLE_RANK[role] < ROLE_RANK[needed])
    throw pbiError(403, 'PowerBINotAuthorizedException', [
      {
        code: 'InsufficientWorkspaceRole',
        detail: `This operation requires the workspace role ${needed} or higher; the caller is ${role}.`,
      },
    ]);
  return { ws, role };
}
