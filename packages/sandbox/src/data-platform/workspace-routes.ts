import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import { platformCaller, requireRole, roleOf, workspaceOf } from './auth.js';
import { fabricError, invalidInput, invalidJson } from './errors.js';
import { page } from './paging.js';
import { PRINCIPAL_TYPES, ROLE_RANK, type RoleAssignment, type Workspace, type WorkspaceRole } from './store.js';

const ROLES = Object.keys(ROLE_RANK) as WorkspaceRole[];
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function workspaceJson(core: SandboxCore, ws: Workspace) {
  return {
    id: ws.id,
    displayName: ws.displayName,
    description: ws.description,
    type: 'Workspace',
    ...(ws.capacityId ? { capacityId: ws.capacityId, capacityRegion: 'East US', capacityAssignmentProgress: 'Completed' } : {}),
    oneLakeEndpoints: { blobEndpoint: core.urls.oneLake, dfsEndpoint: core.urls.oneLake },
    tags: [],
  };
}

/** A role assignment with the principal's details from the directory. */
function assignmentJson(core: SandboxCore, ra: RoleAssignment) {
  const p = core.directory.byObjectId(ra.principal.id);
  const details = !p
    ? {}
    : ra.principal.type === 'ServicePrincipal'
      ? { servicePrincipalDetails: { aadAppId: p.appId } }
      : ra.principal.type === 'User'
        ? { userDetails: { userPrincipalName: p.upn } }
        : {};
  return {
    id: ra.id,
    principal: { id: ra.principal.id, type: ra.principal.type, ...(p ? { displayName: p.displayName } : {}), ...details },
    role: ra.role,
  };
}

function checkRole(role: unknown): WorkspaceRole {
  if (typeof role !== 'string' || !ROLES.includes(role as WorkspaceRole)) throw invalidInput('role', `must be one of ${ROLES.join(', ')}`);
  return role as WorkspaceRole;
}

/** Members may grant up to their own level; only Admins grant or change Admin. */
function checkGrantLevel(callerRole: WorkspaceRole, role: WorkspaceRole): void {
  if (ROLE_RANK[role] > ROLE_RANK[callerRole])
    throw fabricError(403, 'InsufficientWorkspaceRole', `A ${callerRole} cannot assign the ${role} role`);
}

async function assignmentOf(core: SandboxCore, ctx: RequestContext, needed: WorkspaceRole) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  const callerRole = requireRole(ws, caller, needed);
  const ra = ws.roleAssignments.get(ctx.params.id!.toLowerCase());
  if (!ra) throw fabricError(404, 'WorkspaceRoleAssignmentNotFound', 'The requested workspace role assignment was not found');
  return { ws, ra, callerRole };
}

/** Workspaces (list, create, get, update, delete) and workspace role assignments. */
export function workspaceRoutes(core: SandboxCore, router: Router): void {
  router.get('/v1/workspaces', async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const mine = [...core.dataPlatform.workspaces.values()].filter((ws) => roleOf(ws, caller));
    return {
      status: 200,
      body: page(
        ctx,
        mine.map((ws) => workspaceJson(core, ws)),
        core.switches['dataPlatform.pageSize'],
        `${core.urls.dataPlatform}/v1/workspaces`,
        'workspaces',
      ),
    };
  });
  router.post('/v1/workspaces', async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const body = await ctx.json(invalidJson);
    if (typeof body?.displayName !== 'string' || !body.displayName.trim() || body.displayName.length > 256)
      throw invalidInput('displayName', 'The display name is required (at most 256 characters)');
    const taken = [...core.dataPlatform.workspaces.values()].some((w) => w.displayName.toLowerCase() === body.displayName.toLowerCase());
    if (taken) throw fabricError(409, 'WorkspaceNameAlreadyExists', `Workspace name '${body.displayName}' already exists`);
    const ws = core.dataPlatform.addWorkspace(
      core.idSource.next('workspace'),
      body.displayName,
      body.description ?? '',
      body.capacityId ?? undefined,
    );
    ws.roleAssignments.set(caller.objectId, {
      id: caller.objectId,
      principal: { id: caller.objectId, type: caller.isApp ? 'ServicePrincipal' : 'User' },
      role: 'Admin',
    });
    return { status: 201, headers: { location: `${core.urls.dataPlatform}/v1/workspaces/${ws.id}` }, body: workspaceJson(core, ws) };
  });
  router.get('/v1/workspaces/:ws', async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Viewer');
    return { status: 200, body: workspaceJson(core, ws) };
  });
  router.patch('/v1/workspaces/:ws', async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Admin');
    const body = await ctx.json(invalidJson);
    if (body.displayName !== undefined) {
      if (typeof body.displayName !== 'string' || !body.displayName.trim()) throw invalidInput('displayName', 'must be a non-empty string');
      ws.displayName = body.displayName;
    }
    if (typeof body.description === 'string') ws.description = body.description;
    return { status: 200, body: workspaceJson(core, ws) };
  });
  router.delete('/v1/workspaces/:ws', async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Admin');
    core.dataPlatform.workspaces.delete(ws.id);
    return { status: 200 };
  });

  const ra = '/v1/workspaces/:ws/roleAssignments';
  router.get(ra, async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Viewer');
    const all = [...ws.roleAssignments.values()].map((r) => assignmentJson(core, r));
    return {
      status: 200,
      body: page(
        ctx,
        all,
        core.switches['dataPlatform.pageSize'],
        `${core.urls.dataPlatform}${ra.replace(':ws', ws.id)}`,
        `${ws.id}|roles`,
      ),
    };
  });
  router.post(ra, async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    const callerRole = requireRole(ws, caller, 'Member');
    const body = await ctx.json(invalidJson);
    const principal = body?.principal;
    if (!principal || typeof principal.id !== 'string' || !GUID.test(principal.id)) throw invalidInput('principal.id', 'must be a GUID');
    if (!PRINCIPAL_TYPES.includes(principal.type)) throw invalidInput('principal.type', `must be one of ${PRINCIPAL_TYPES.join(', ')}`);
    const role = checkRole(body.role);
    checkGrantLevel(callerRole, role);
    const id = principal.id.toLowerCase();
    const known = core.directory.byObjectId(id);
    if (principal.type !== 'Group' && !known)
      throw fabricError(400, 'PrincipalNotFound', `The principal '${principal.id}' was not found in the tenant`);
    if (ws.roleAssignments.has(id))
      throw fabricError(
        409,
        'PrincipalAlreadyHasWorkspaceRolePermissions',
        `The principal '${principal.id}' already has a role on the workspace`,
      );
    const created: RoleAssignment = { id, principal: { id, type: principal.type }, role };
    ws.roleAssignments.set(id, created);
    return {
      status: 201,
      headers: { location: `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/roleAssignments/${id}` },
      body: assignmentJson(core, created),
    };
  });
  router.get(`${ra}/:id`, async (ctx) => {
    const { ra: found } = await assignmentOf(core, ctx, 'Viewer');
    return { status: 200, body: assignmentJson(core, found) };
  });
  router.patch(`${ra}/:id`, async (ctx) => {
    const { ra: found, callerRole } = await assignmentOf(core, ctx, 'Member');
    const role = checkRole((await ctx.json(invalidJson))?.role);
    checkGrantLevel(callerRole, role);
    checkGrantLevel(callerRole, found.role);
    found.role = role;
    return { status: 200, body: assignmentJson(core, found) };
  });
  router.delete(`${ra}/:id`, async (ctx) => {
    const { ws, ra: found, callerRole } = await assignmentOf(core, ctx, 'Member');
    checkGrantLevel(callerRole, found.role);
    ws.roleAssignments.delete(found.id);
    return { status: 200 };
  });
}
