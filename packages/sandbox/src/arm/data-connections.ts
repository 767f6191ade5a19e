import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { Caller } from '../identity/caller.js';
import { armCaller, resolveCluster } from './auth.js';
import { CLUSTER_PATH, asyncHeaders } from './databases.js';
import { armError, badRequest } from './errors.js';
import type { DataConnection } from './eventhub-store.js';

/** EventHubDataFormat of kusto.json. */
const DATA_FORMATS = [
  'MULTIJSON',
  'JSON',
  'CSV',
  'TSV',
  'SCSV',
  'SOHSV',
  'PSV',
  'TXT',
  'RAW',
  'SINGLEJSON',
  'AVRO',
  'TSVE',
  'PARQUET',
  'ORC',
  'APACHEAVRO',
  'W3CLOGFILE',
];
const COMPRESSIONS = ['None', 'GZip'];
const ROUTINGS = ['Single', 'Multi'];
const KINDS = ['EventHub', 'EventGrid', 'IotHub', 'CosmosDb'];
// The published description allows any name (^.*$); the sandbox holds names to the conservative rule the portal shows.
const CONNECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const norm = (loc: string) => loc.replace(/\s+/g, '').toLowerCase();

const notFound = (ctx: RequestContext, what: string) =>
  armError(
    404,
    'ResourceNotFound',
    `The Resource 'Microsoft.Kusto/clusters/${ctx.params.cluster}/${what}' under resource group '${ctx.params.rg}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
  );

/** The database of a data-connection path: known to the resource manager and finished creating. */
function databaseOf(core: SandboxCore, ctx: RequestContext) {
  core.arm.settle();
  const db = core.arm.databases.get(ctx.params.db!.toLowerCase());
  if (!db || db.deleting || Date.now() < db.readyAt) throw notFound(ctx, `databases/${ctx.params.db}`);
  return db;
}

function connectionJson(core: SandboxCore, dc: DataConnection) {
  const state = dc.deleting ? 'Deleting' : Date.now() >= dc.readyAt ? 'Succeeded' : 'Creating';
  return {
    id: `${core.ids.kqlClusterResourceId}/Databases/${dc.database}/DataConnections/${dc.name}`,
    name: `${core.ids.kqlClusterName}/${dc.database}/${dc.name}`,
    type: 'Microsoft.Kusto/Clusters/Databases/DataConnections',
    location: dc.location,
    kind: 'EventHub',
    properties: {
      eventHubResourceId: dc.eventHubResourceId,
      consumerGroup: dc.consumerGroup,
      ...(dc.tableName ? { tableName: dc.tableName } : {}),
      ...(dc.mappingRuleName ? { mappingRuleName: dc.mappingRuleName } : {}),
      ...(dc.dataFormat ? { dataFormat: dc.dataFormat } : {}),
      eventSystemProperties: dc.eventSystemProperties,
      compression: dc.compression,
      databaseRouting: dc.databaseRouting,
      provisioningState: state,
    },
  };
}

const optionalIn = (value: unknown, allowed: string[], key: string) => {
  if (value !== undefined && (typeof value !== 'string' || !allowed.includes(value)))
    throw badRequest(`The value '${value}' of property '${key}' is invalid; allowed values are ${allowed.join(', ')}.`, 'InvalidParameter');
};

/**
 * What the cluster checks before it accepts an Event Hub data connection: the event hub exists (and the caller may read
 * it: the resource manager's linked access check), its consumer group exists, and the table and mapping exist in the database.
 */
function checkSources(core: SandboxCore, caller: Caller, database: string, props: Record<string, any>): void {
  const hubId = props.eventHubResourceId as string;
  const action = 'Microsoft.EventHub/namespaces/eventhubs/consumergroups/read';
  const roles = core.arm.rolesAt(caller.objectId, hubId);
  if (!roles.length)
    throw armError(
      403,
      'LinkedAuthorizationFailed',
      `The client '${caller.isApp ? caller.appId : (caller.upn ?? caller.objectId)}' with object id '${caller.objectId}' has permission to perform action 'Microsoft.Kusto/clusters/databases/dataConnections/write'; however, it does not have permission to perform action(s) '${action}' on the linked scope(s) '${hubId}' or the linked scope(s) are invalid.`,
    );
  const hub = core.arm.eventHubs.hubById(hubId);
  if (!hub) throw badRequest(`Event hub resource '${hubId}' does not exist or is not an event hub.`, 'BadRequest');
  if (!hub.consumerGroups.has(String(props.consumerGroup).toLowerCase()))
    throw badRequest(`Consumer group '${props.consumerGroup}' does not exist in event hub '${hub.name}'.`, 'BadRequest');
  if (props.tableName !== undefined) {
    const db = core.kql.database(database);
    const table = db && [...db.tables.keys()].find((t) => t === props.tableName);
    if (!table) throw badRequest(`Table '${props.tableName}' could not be found in database '${database}'.`, 'BadRequest');
  }
  // The KQL emulator keeps no ingestion mappings: a named one cannot exist.
  if (props.mappingRuleName !== undefined)
    throw badRequest(
      `Mapping '${props.mappingRuleName}' could not be found for table '${props.tableName ?? ''}' in database '${database}'.`,
      'BadRequest',
    );
}

async function put(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const caller = await armCaller(core, ctx);
  const { db: dbName, dc: name } = ctx.params as { db: string; dc: string };
  resolveCluster(
    core,
    ctx,
    caller,
    'Microsoft.Kusto/clusters/databases/dataConnections/write',
    `/databases/${dbName}/dataConnections/${name}`,
  );
  const db = databaseOf(core, ctx);
  if (!CONNECTION_NAME.test(name))
    throw badRequest(
      `The data connection name '${name}' is invalid: use 1 to 40 letters, digits, periods, hyphens and underscores, starting with a letter or digit.`,
      'InvalidResourceName',
    );
  const body = await ctx.json((d) =>
    badRequest(`The request content was invalid and could not be deserialized: ${d}`, 'InvalidRequestContent'),
  );
  if (!KINDS.includes(body?.kind))
    throw badRequest(`The property 'kind' is required and must be one of ${KINDS.join(', ')}.`, 'InvalidRequestContent');
  if (body.kind !== 'EventHub')
    throw badRequest(`Data connections of kind '${body.kind}' are not available on this cluster.`, 'BadRequest');
  if (body.location !== undefined && norm(String(body.location)) !== norm(core.ids.kqlLocation))
    throw badRequest(
      `The data connection location '${body.location}' must be the location of the cluster ('${core.ids.kqlLocation}').`,
      'LocationMismatch',
    );
  const props = body.properties;
  if (!props || typeof props !== 'object') throw badRequest("The property 'properties' is required.", 'InvalidRequestContent');
  for (const key of ['eventHubResourceId', 'consumerGroup'])
    if (typeof props[key] !== 'string' || !props[key]) throw badRequest(`The property '${key}' is required.`, 'InvalidRequestContent');
  optionalIn(props.dataFormat, DATA_FORMATS, 'dataFormat');
  optionalIn(props.compression, COMPRESSIONS, 'compression');
  optionalIn(props.databaseRouting, ROUTINGS, 'databaseRouting');
  if (props.tableName !== undefined && typeof props.tableName !== 'string')
    throw badRequest("The property 'tableName' must be a string.", 'InvalidRequestContent');
  if (props.tableName && !props.dataFormat)
    throw badRequest("A data connection that names a table must also name its 'dataFormat'.", 'BadRequest');
  checkSources(core, caller, db.name, props);
  const store = core.arm.eventHubs;
  const key = store.connectionKey(db.name, name);
  const existing = store.dataConnections.get(key);
  const apiVersion = ctx.queryCi('api-version')!;
  if (existing?.deleting) throw armError(409, 'Conflict', `The data connection '${name}' is being deleted.`);
  if (existing) {
    if (
      existing.eventHubResourceId.toLowerCase() !== props.eventHubResourceId.toLowerCase() ||
      existing.consumerGroup !== props.consumerGroup
    )
      throw badRequest(
        `The event hub and consumer group of data connection '${name}' cannot be changed; delete it and create it again.`,
        'BadRequest',
      );
    Object.assign(existing, {
      tableName: props.tableName,
      mappingRuleName: props.mappingRuleName,
      dataFormat: props.dataFormat,
      compression: props.compression ?? existing.compression,
      databaseRouting: props.databaseRouting ?? existing.databaseRouting,
      eventSystemProperties: props.eventSystemProperties ?? existing.eventSystemProperties,
    });
    const pending = existing.operationId ? core.arm.operations.get(existing.operationId) : undefined;
    if (pending && Date.now() < pending.readyAt)
      return { status: 202, headers: asyncHeaders(core, pending, apiVersion, true), body: connectionJson(core, existing) };
    return { status: 200, body: connectionJson(core, existing) };
  }
  const dc: DataConnection = {
    database: db.name,
    name,
    location: core.ids.kqlLocation,
    eventHubResourceId: props.eventHubResourceId,
    consumerGroup: props.consumerGroup,
    tableName: props.tableName,
    mappingRuleName: props.mappingRuleName,
    dataFormat: props.dataFormat,
    compression: props.compression ?? 'None',
    databaseRouting: props.databaseRouting ?? 'Single',
    eventSystemProperties: Array.isArray(props.eventSystemProperties) ? props.eventSystemProperties : [],
    readyAt: Date.now(),
  };
  store.dataConnections.set(key, dc);
  const mode = core.switches['arm.asyncMode'];
  if (mode === 'never') return { status: 201, body: connectionJson(core, dc) };
  const op = core.arm.startOperation(name, 'DataConnectionCreate');
  dc.readyAt = op.readyAt;
  dc.operationId = op.id;
  return {
    status: mode === 'always' ? 202 : 201,
    headers: asyncHeaders(core, op, apiVersion, mode === 'always'),
    body: connectionJson(core, dc),
  };
}

async function remove(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const caller = await armCaller(core, ctx);
  const { db: dbName, dc: name } = ctx.params as { db: string; dc: string };
  resolveCluster(
    core,
    ctx,
    caller,
    'Microsoft.Kusto/clusters/databases/dataConnections/delete',
    `/databases/${dbName}/dataConnections/${name}`,
  );
  const db = databaseOf(core, ctx);
  const store = core.arm.eventHubs;
  const key = store.connectionKey(db.name, name);
  const dc = store.dataConnections.get(key);
  if (!dc) return { status: 204 };
  if (core.switches['arm.asyncMode'] === 'never') {
    store.dataConnections.delete(key);
    return { status: 200 };
  }
  const op = core.arm.startOperation(name, 'DataConnectionDelete', () => store.dataConnections.delete(key));
  dc.deleting = { at: op.readyAt };
  return { status: 202, headers: asyncHeaders(core, op, ctx.queryCi('api-version')!, true) };
}

/** Event Hub data connections under the cluster's databases: PUT (201/200/202 + Azure-AsyncOperation), GET, list, DELETE (200/202/204). */
export function dataConnectionRoutes(core: SandboxCore, router: Router): void {
  const list = `${CLUSTER_PATH}/databases/:db/dataConnections`;
  router.put(`${list}/:dc`, (ctx) => put(core, ctx));
  router.delete(`${list}/:dc`, (ctx) => remove(core, ctx));
  router.get(`${list}/:dc`, async (ctx) => {
    const caller = await armCaller(core, ctx);
    const { db: dbName, dc: name } = ctx.params as { db: string; dc: string };
    resolveCluster(
      core,
      ctx,
      caller,
      'Microsoft.Kusto/clusters/databases/dataConnections/read',
      `/databases/${dbName}/dataConnections/${name}`,
    );
    const db = databaseOf(core, ctx);
    const dc = core.arm.eventHubs.dataConnections.get(core.arm.eventHubs.connectionKey(db.name, name));
    if (!dc) throw notFound(ctx, `databases/${dbName}/dataConnections/${name}`);
    return { status: 200, body: connectionJson(core, dc) };
  });
  router.get(list, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/databases/dataConnections/read', `/databases/${ctx.params.db}`);
    const db = databaseOf(core, ctx);
    const value = [...core.arm.eventHubs.dataConnections.values()]
      .filter((d) => d.database.toLowerCase() === db.name.toLowerCase())
      .map((d) => connectionJson(core, d));
    return { status: 200, body: { value } };
  });
}
