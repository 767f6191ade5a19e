import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { ClusterAssignment, ClusterRole, DatabaseRole } from '../kql/engine.js';
import { armCaller, resolveCluster } from './auth.js';
import { CLUSTER_PATH } from './databases.js';
import { armError, badRequest } from './errors.js';

const CLUSTER_ROLES: ClusterRole[] = ['AllDatabasesAdmin', 'AllDatabasesViewer', 'AllDatabasesMonitor'];
const DB_ROLES: DatabaseRole[] = ['Admin', 'Ingestor', 'Monitor', 'User', 'UnrestrictedViewer', 'Viewer'];
const TYPES = ['App', 'Group', 'User'] as const;
const NOTE = (name: string) => `arm:${name}`;

function assignmentJson(core: SandboxCore, a: ClusterAssignment, role: string, db?: string) {
  const p = core.directory.find(a.principalId);
  const cluster = core.ids.kqlClusterName;
  return {
    id: `${core.ids.kqlClusterResourceId}${db ? `/Databases/${db}` : ''}/PrincipalAssignments/${a.name}`,
    name: db ? `${cluster}/${db}/${a.name}` : `${cluster}/${a.name}`,
    type: db ? 'Microsoft.Kusto/Clusters/Databases/PrincipalAssignments' : 'Microsoft.Kusto/Clusters/PrincipalAssignments',
    properties: {
      principalId: a.principalId,
      role,
      principalType: a.principalType,
      tenantId: a.tenantId,
      tenantName: core.ids.tenantDomain,
      principalName: p?.displayName ?? a.principalId,
      provisioningState: 'Succeeded',
      aadObjectId: p?.objectId ?? null,
    },
  };
}

async function readBody(ctx: RequestContext, roles: readonly string[]) {
  const body = await ctx.json((d) => badRequest(d, 'InvalidRequestContent'));
  const props = body?.properties ?? {};
  if (typeof props.principalId !== 'string' || !props.principalId)
    throw badRequest("The property 'properties.principalId' is required.", 'InvalidRequestContent');
  if (!roles.includes(props.role))
    throw badRequest(`The role '${props.role}' is invalid; use one of ${roles.join(', ')}.`, 'InvalidRequestContent');
  if (!TYPES.includes(props.principalType))
    throw badRequest(`The principalType '${props.principalType}' is invalid; use App, Group or User.`, 'InvalidRequestContent');
  return props as { principalId: string; role: string; principalType: (typeof TYPES)[number]; tenantId?: string };
}

/** Cluster principal assignments (the AllDatabases* roles, shared with the KQL emulator) and database principal assignments. */
export function principalAssignmentRoutes(core: SandboxCore, router: Router): void {
  const cluster = `${CLUSTER_PATH}/principalAssignments`;
  router.get(cluster, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/principalAssignments/read');
    return { status: 200, body: { value: [...core.kql.clusterAssignments.values()].map((a) => assignmentJson(core, a, a.role)) } };
  });
  router.get(`${cluster}/:name`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/principalAssignments/read');
    const a = core.kql.clusterAssignments.get(ctx.params.name!);
    if (!a)
      throw armError(
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Kusto/clusters/${ctx.params.cluster}/principalAssignments/${ctx.params.name}' under resource group '${ctx.params.rg}' was not found.`,
      );
    return { status: 200, body: assignmentJson(core, a, a.role) };
  });
  router.put(`${cluster}/:name`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/principalAssignments/write');
    const props = await readBody(ctx, CLUSTER_ROLES);
    if (props.principalType !== 'Group' && !core.directory.find(props.principalId))
      throw badRequest(
        `The principal '${props.principalId}' was not found in tenant '${props.tenantId ?? core.ids.tenantId}'.`,
        'PrincipalNotFound',
      );
    const name = ctx.params.name!;
    const existed = core.kql.clusterAssignments.has(name);
    const a: ClusterAssignment = {
      name,
      principalId: props.principalId,
      principalType: props.principalType,
      role: props.role as ClusterRole,
      tenantId: props.tenantId ?? core.ids.tenantId,
    };
    core.kql.clusterAssignments.set(name, a);
    return { status: existed ? 200 : 201, body: assignmentJson(core, a, a.role) };
  });
  router.delete(`${cluster}/:name`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/principalAssignments/delete');
    return { status: core.kql.clusterAssignments.delete(ctx.params.name!) ? 200 : 204 };
  });

  const dbPath = `${CLUSTER_PATH}/databases/:db/principalAssignments`;
  const dbOf = (ctx: RequestContext) => {
    core.arm.settle();
    const db = core.kql.databases.get(ctx.params.db!.toLowerCase());
    if (!db)
      throw armError(
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Kusto/clusters/${ctx.params.cluster}/databases/${ctx.params.db}' under resource group '${ctx.params.rg}' was not found.`,
      );
    return db;
  };
  const dbAssignments = (ctx: RequestContext) =>
    dbOf(ctx)
      .principals.filter((p) => p.note.startsWith('arm:'))
      .map((p) => {
        const m = /^aad(app|user|group)=([^;]+);?(.*)$/i.exec(p.fqn)!;
        const principalType = m[1] === 'app' ? 'App' : m[1] === 'group' ? 'Group' : 'User';
        return {
          a: {
            name: p.note.slice(4),
            principalId: m[2]!,
            principalType,
            role: 'AllDatabasesAdmin',
            tenantId: m[3] || core.ids.tenantId,
          } as ClusterAssignment,
          role: p.role,
        };
      });
  router.get(dbPath, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/principalAssignments/read');
    return { status: 200, body: { value: dbAssignments(ctx).map(({ a, role }) => assignmentJson(core, a, role, ctx.params.db)) } };
  });
  router.put(`${dbPath}/:name`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/principalAssignments/write');
    const db = dbOf(ctx);
    const props = await readBody(ctx, DB_ROLES);
    if (props.principalType !== 'Group' && !core.directory.find(props.principalId))
      throw badRequest(`The principal '${props.principalId}' was not found.`, 'PrincipalNotFound');
    const name = ctx.params.name!;
    const i = db.principals.findIndex((p) => p.note === NOTE(name));
    const fqn = `aad${props.principalType === 'App' ? 'app' : props.principalType.toLowerCase()}=${props.principalId};${props.tenantId ?? core.ids.tenantId}`;
    const entry = { role: props.role as DatabaseRole, fqn, note: NOTE(name) };
    if (i >= 0) db.principals[i] = entry;
    else db.principals.push(entry);
    const a: ClusterAssignment = {
      name,
      principalId: props.principalId,
      principalType: props.principalType,
      role: 'AllDatabasesAdmin',
      tenantId: props.tenantId ?? core.ids.tenantId,
    };
    return { status: i >= 0 ? 200 : 201, body: assignmentJson(core, a, props.role, db.name) };
  });
  router.delete(`${dbPath}/:name`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/principalAssignments/delete');
    const db = dbOf(ctx);
    const i = db.principals.findIndex((p) => p.note === NOTE(ctx.params.name!));
    if (i < 0) return { status: 204 };
    db.principals.splice(i, 1);
    return { status: 200 };
  });
}
