import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { callerFrom, type Caller } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import { fabricError } from './errors.js';
import { ROLE_RANK, type ThrottleBucket, type Workspace, type WorkspaceRole } from './store.js';

/**
 * Authenticates a data-platform call: bearer token with the Power BI / Fabric audience, the tenant setting for
 * service principals, and the per-identity throttle of the call's quota bucket (an operation poll is counted as an LRO
 * API call, a job instance call as a Job Scheduler one, every other call as a Platform API one). Settles pending
 * operations first.
 */
export async function platformCaller(core: SandboxCore, ctx: RequestContext, bucket: ThrottleBucket = 'platform'): Promise<Caller> {
  core.dataPlatform.settle();
  const v = await core.tokens.verifyBearer(ctx.header('authorization'), [...AUDIENCES.dataPlatform]);
  if (!v.ok) {
    if (v.claims?.oid) ctx.identity = String(v.claims.oid);
    if (v.reason === 'missing')
      throw fabricError(401, 'Unauthorized', 'The request is not authenticated: an Authorization header with a bearer token is required');
    if (v.reason === 'expired') throw fabricError(401, 'TokenExpired', 'Access token has expired, resubmit with a new access token');
    throw fabricError(401, 'InvalidToken', `Access token is invalid: ${v.detail}`);
  }
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  if (caller.isApp && !core.switches['dataPlatform.servicePrincipalsEnabled']) {
    throw fabricError(
      401,
      'Unauthorized',
      'The caller is not authorized to use the public APIs: service principals are not allowed by the tenant settings',
    );
  }
  const wait = core.dataPlatform.throttle(caller.objectId, bucket);
  if (wait !== undefined) {
    const until = new Date(Date.now() + wait * 1000)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '');
    throw fabricError(
      429,
      'RequestBlocked',
      `Request is blocked by the upstream service until: ${until} (UTC)`,
      { isRetriable: true },
      { 'retry-after': wait },
    );
  }
  return caller;
}

/** The workspace, or 404 WorkspaceNotFound. */
export function workspaceOf(core: SandboxCore, id: string): Workspace {
  const ws = core.dataPlatform.workspaces.get(id.toLowerCase());
  if (!ws) throw fabricError(404, 'WorkspaceNotFound', 'The requested workspace was not found');
  return ws;
}

/** The caller's role on a workspace (principal id = object id). */
export function roleOf(ws: Workspace, caller: Caller): WorkspaceRole | undefined {
  return ws.roleAssignments.get(caller.objectId)?.role;
}

/** Requires at least `needed` on the workspace: 403 InsufficientPrivileges (no role) or InsufficientWorkspaceRole (too low). */
export function requireRole(ws: Workspace, caller: Caller, needed: WorkspaceRole): WorkspaceRole {
  const role = roleOf(ws, caller);
  if (!role)
    throw fabricError(
      403,
      'InsufficientPrivileges',
      `The caller does not have sufficient permissions on workspace ${ws.id} to perform this operation`,
    );
  if (ROLE_RANK[role] < ROLE_RANK[needed]) {
    throw fabricError(
      403,
      'InsufficientWorkspaceRole',
      `The caller's workspace role ${role} is insufficient: this operation requires ${needed} or higher`,
    );
  }
  return role;
}
