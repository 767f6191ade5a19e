import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import type { Router } from '../http/router.js';
import { armCaller, resolveCluster } from './auth.js';
import { armError, badRequest } from './errors.js';
import type { ArmDatabase, ArmOperation } from './store.js';

const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const DB_NAME = /^[A-Za-z0-9 ._-]{1,260}$/;
const norm = (loc: string) => loc.replace(/\s+/g, '').toLowerCase();

export const CLUSTER_PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Kusto/clusters/:cluster';

function operationUrl(core: SandboxCore, op: ArmOperation, apiVersion: string): string {
  return `${core.urls.arm}/subscriptions/${core.ids.subscriptionId}/providers/Microsoft.Kusto/locations/${core.ids.kqlLocation}/operationResults/${op.id}?api-version=${apiVersion}`;
}

/** The Database resource body. */
function databaseJson(core: SandboxCore, db: ArmDatabase) {
  const state = db.deleting ? 'Deleting' : Date.now() >= db.readyAt ? 'Succeeded' : 'Creating';
  return {
    id: `${core.ids.kqlClusterResourceId}/Databases/${db.name}`,
    name: `${core.ids.kqlClusterName}/${db.name}`,
    type: 'Microsoft.Kusto/Clusters/Databases',
    location: db.location,
    kind: db.kind,
    properties: {
      provisioningState: state,
      softDeletePeriod: db.softDeletePeriod,
      hotCachePeriod: db.hotCachePeriod,
      statistics: { size: 0 },
      isFollowed: false,
    },
  };
}

/** The headers of an accepted long-running operation: Azure-AsyncOperation, optionally Location, and Retry-After. */
export function asyncHeaders(core: SandboxCore, op: ArmOperation, apiVersion: string, withLocation: boolean) {
  const url = operationUrl(core, op, apiVersion);
  return {
    'azure-asyncoperation': url,
    ...(withLocation ? { location: `${url}&operationResultResponseType=Location` } : {}),
    'retry-after': core.switches['arm.retryAfterSeconds'],
  };
}

async function put(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const caller = await armCaller(core, ctx);
  resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/write', `/databases/${ctx.params.db}`);
  const apiVersion = ctx.queryCi('api-version')!;
  const name = ctx.params.db!;
  if (!DB_NAME.test(name))
    throw badRequest(
      `The database name '${name}' is invalid: use letters, digits, spaces, periods, hyphens and underscores (at most 260 characters).`,
      'InvalidDatabaseName',
    );
  const body = await ctx.json((d) =>
    badRequest(`The request content was invalid and could not be deserialized: ${d}`, 'InvalidRequestContent'),
  );
  if (body?.kind !== 'ReadWrite' && body?.kind !== 'ReadOnlyFollowing')
    throw badRequest("The property 'kind' is required and must be 'ReadWrite' or 'ReadOnlyFollowing'.", 'InvalidRequestContent');
  if (body.kind === 'ReadOnlyFollowing')
    throw badRequest('A follower database cannot be created with a database PUT; attach it with attachedDatabaseConfigurations.');
  if (body.location && norm(body.location) !== norm(core.ids.kqlLocation))
    throw badRequest(
      `The database location '${body.location}' must be the location of the cluster ('${core.ids.kqlLocation}').`,
      'LocationMismatch',
    );
  const props = body.properties ?? {};
  for (const key of ['softDeletePeriod', 'hotCachePeriod']) {
    if (props[key] !== undefined && (typeof props[key] !== 'string' || !DURATION.test(props[key])))
      throw badRequest(`The value '${props[key]}' of property '${key}' is not a valid ISO 8601 duration.`, 'InvalidParameter');
  }
  const callerRole = ctx.queryCi('callerRole') ?? 'Admin';
  if (!['Admin', 'None'].includes(callerRole))
    throw badRequest(`The callerRole '${callerRole}' is invalid; use Admin or None.`, 'InvalidParameter');
  core.arm.settle();
  const existing = core.arm.databases.get(name.toLowerCase());
  if (existing?.deleting) throw armError(409, 'Conflict', `The database '${name}' is being deleted.`);
  if (existing) {
    existing.softDeletePeriod = props.softDeletePeriod ?? existing.softDeletePeriod;
    existing.hotCachePeriod = props.hotCachePeriod ?? existing.hotCachePeriod;
    const pending = existing.operationId ? core.arm.operations.get(existing.operationId) : undefined;
    if (pending && Date.now() < pending.readyAt)
      return { status: 202, headers: asyncHeaders(core, pending, apiVersion, true), body: databaseJson(core, existing) };
    return { status: 200, body: databaseJson(core, existing) };
  }
  const mode = core.switches['arm.asyncMode'];
  const now = Date.now();
  const db: ArmDatabase = {
    name,
    kind: 'ReadWrite',
    location: core.ids.kqlLocation,
    softDeletePeriod: props.softDeletePeriod,
    hotCachePeriod: props.hotCachePeriod,
    createdAt: now,
    readyAt: now,
  };
  const kqlDb = core.kql.createDatabase(name, now);
  // callerRole (default Admin): the caller who creates the database becomes its Admin; None leaves it out.
  if (callerRole === 'Admin') kqlDb.principals.push({ role: 'Admin', fqn: core.kql.fqn(caller), note: 'callerRole=Admin' });
  core.arm.databases.set(name.toLowerCase(), db);
  if (mode === 'never') {
    core.dataPlatform.clusterDatabase(name, now);
    return { status: 201, body: databaseJson(core, db) };
  }
  const op = core.arm.startOperation(name, 'DatabaseCreate');
  db.readyAt = kqlDb.readyAt = op.readyAt;
  core.dataPlatform.clusterDatabase(name, op.readyAt);
  db.operationId = op.id;
  return {
    status: mode === 'always' ? 202 : 201,
    headers: asyncHeaders(core, op, apiVersion, mode === 'always'),
    body: databaseJson(core, db),
  };
}

async function remove(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const caller = await armCaller(core, ctx);
  resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/delete', `/databases/${ctx.params.db}`);
  core.arm.settle();
  const key = ctx.params.db!.toLowerCase();
  const db = core.arm.databases.get(key);
  if (!db) return { status: 204 };
  const drop = () => {
    core.arm.databases.delete(key);
    core.kql.databases.delete(key);
    core.dataPlatform.clusterDatabase(db.name, 0, true);
    // A database's data connections go with it.
    for (const [k, dc] of core.arm.eventHubs.dataConnections)
      if (dc.database.toLowerCase() === key) core.arm.eventHubs.dataConnections.delete(k);
  };
  if (core.switches['arm.asyncMode'] === 'never') {
    drop();
    return { status: 200 };
  }
  const op = core.arm.startOperation(db.name, 'DatabaseDelete', drop);
  db.deleting = { at: op.readyAt };
  return { status: 202, headers: asyncHeaders(core, op, ctx.queryCi('api-version')!, true) };
}

/** Databases under the cluster: PUT (201/200/202 + Azure-AsyncOperation), GET, list, PATCH, DELETE (200/202/204), checkNameAvailability. */
export function databaseRoutes(core: SandboxCore, router: Router): void {
  const one = `${CLUSTER_PATH}/databases/:db`;
  router.put(one, (ctx) => put(core, ctx));
  router.delete(one, (ctx) => remove(core, ctx));
  router.get(one, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/read', `/databases/${ctx.params.db}`);
    core.arm.settle();
    const db = core.arm.databases.get(ctx.params.db!.toLowerCase());
    if (!db)
      throw armError(
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Kusto/clusters/${ctx.params.cluster}/databases/${ctx.params.db}' under resource group '${ctx.params.rg}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
      );
    return { status: 200, body: databaseJson(core, db) };
  });
  router.patch(one, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/write', `/databases/${ctx.params.db}`);
    core.arm.settle();
    const db = core.arm.databases.get(ctx.params.db!.toLowerCase());
    if (!db)
      throw armError(
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Kusto/clusters/${ctx.params.cluster}/databases/${ctx.params.db}' under resource group '${ctx.params.rg}' was not found.`,
      );
    const props = (await ctx.json((d) => badRequest(d, 'InvalidRequestContent')))?.properties ?? {};
    for (const key of ['softDeletePeriod', 'hotCachePeriod'] as const) {
      if (props[key] !== undefined && !DURATION.test(String(props[key])))
        throw badRequest(`The value '${props[key]}' of property '${key}' is not a valid ISO 8601 duration.`, 'InvalidParameter');
      if (props[key] !== undefined) db[key] = props[key];
    }
    return { status: 200, body: databaseJson(core, db) };
  });
  router.get(`${CLUSTER_PATH}/databases`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/read');
    core.arm.settle();
    return { status: 200, body: { value: [...core.arm.databases.values()].map((d) => databaseJson(core, d)) } };
  });
  router.post(`${CLUSTER_PATH}/checkNameAvailability`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/read');
    const body = await ctx.json((d) => badRequest(d, 'InvalidRequestContent'));
    const name = String(body?.name ?? '');
    if (!DB_NAME.test(name))
      return { status: 200, body: { name, nameAvailable: false, reason: 'Invalid', message: `Name '${name}' is not valid.` } };
    const taken = core.arm.databases.has(name.toLowerCase());
    return {
      status: 200,
      body: {
        name,
        nameAvailable: !taken,
        ...(taken ? { reason: 'AlreadyExists', message: `Name '${name}' is already taken. Please specify a different name.` } : {}),
      },
    };
  });
  router.get('/subscriptions/:sub/providers/Microsoft.Kusto/locations/:loc/operationResults/:op', async (ctx) => {
    await armCaller(core, ctx, 'locations/operationResults');
    core.arm.settle();
    const op = core.arm.operations.get(ctx.params.op!.toLowerCase());
    if (!op || ctx.params.sub!.toLowerCase() !== core.ids.subscriptionId)
      throw armError(404, 'ResourceNotFound', `The operation '${ctx.params.op}' was not found.`);
    const done = Date.now() >= op.readyAt;
    const span = Math.max(1, op.readyAt - op.startedAt);
    const body = {
      id: `/subscriptions/${core.ids.subscriptionId}/providers/Microsoft.Kusto/locations/${core.ids.kqlLocation}/operationResults/${op.id}`,
      name: op.id,
      status: done ? 'Succeeded' : 'Running',
      startTime: new Date(op.startedAt).toISOString(),
      ...(done ? { endTime: new Date(op.readyAt).toISOString() } : {}),
      percentComplete: done ? 100 : Math.min(99, Math.round(((Date.now() - op.startedAt) / span) * 100)),
      properties: { operationKind: op.kind, provisioningState: done ? 'Succeeded' : 'Running' },
    };
    const headers: Record<string, number> = done ? {} : { 'retry-after': core.switches['arm.retryAfterSeconds'] };
    return { status: 200, headers, body };
  });
}
