import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { WorkspaceRole } from '../data-platform/store.js';
import { callerName, groupFor, reportingCaller } from './auth.js';
import { messageError, notFound } from './errors.js';
import { badRequest, parseRows, parseSchema, parseTable, PUSH_LIMITS, type PushDataset, type PushTable } from './push-datasets.js';
import { json } from './reports-routes.js';
import { modelRoles } from './effective-identity.js';

const MODES = ['Push', 'Streaming', 'PushStreaming'];

/** A dataset as the group routes answer it: a push dataset, or a semantic model of the workspace (not push). */
function datasetJson(
  core: SandboxCore,
  d: { id: string; name: string; configuredBy: string; createdAt: number; push: boolean; hasRoles?: boolean },
) {
  return {
    id: d.id,
    name: d.name,
    webUrl: `${core.urls.reporting}/datasets/${d.id}`,
    addRowsAPIEnabled: d.push,
    configuredBy: d.configuredBy,
    isRefreshable: false,
    // A model with row-level security needs an identity with roles (a push dataset cannot declare roles).
    isEffectiveIdentityRequired: d.hasRoles === true,
    isEffectiveIdentityRolesRequired: d.hasRoles === true,
    isOnPremGatewayRequired: false,
    targetStorageMode: d.push ? 'Abf' : 'PremiumFiles',
    createdDate: new Date(d.createdAt).toISOString(),
  };
}

const pushJson = (core: SandboxCore, d: PushDataset) => datasetJson(core, { ...d, push: true });

/** The workspace's semantic models of the data platform, as datasets (they take no pushed rows). */
function platformModels(core: SandboxCore, groupId: string) {
  const ws = core.dataPlatform.workspaces.get(groupId);
  return [...(ws?.items.values() ?? [])]
    .filter((i) => i.type === 'SemanticModel' && !i.deletedAt)
    .map((i) =>
      datasetJson(core, {
        id: i.id,
        name: i.displayName,
        configuredBy: 'data platform',
        createdAt: Date.now(),
        push: false,
        hasRoles: (modelRoles(core, i.id)?.length ?? 0) > 0,
      }),
    );
}

/** The caller, the group at `needed`, and the dataset of the path: a push dataset, or 404 as the service answers. */
async function datasetFor(core: SandboxCore, ctx: RequestContext, needed: WorkspaceRole): Promise<{ dataset: PushDataset; by: string }> {
  const caller = await reportingCaller(core, ctx);
  const { ws } = groupFor(core, caller, ctx.params.groupId!, needed);
  const id = String(ctx.params.datasetId).toLowerCase();
  const dataset = core.reporting.datasets.get(id);
  if (dataset && dataset.groupId === ws.id) return { dataset, by: callerName(caller) };
  if (platformModels(core, ws.id).some((m) => m.id === id))
    throw messageError(404, 'ItemNotFound', `Dataset ${id} is not Push API dataset.`);
  throw notFound();
}

function tableOf(dataset: PushDataset, name: string): PushTable {
  const table = dataset.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  if (!table) throw messageError(404, 'ItemNotFound', `Table '${name}' not found in dataset 'sobe_wowvirtualserver|${dataset.id}'`);
  return table;
}

/** Push datasets in a group: create, list, get, tables (list, PUT schema), rows (POST, DELETE), delete. */
export function datasetRoutes(core: SandboxCore, router: Router): void {
  const group = '/v1.0/myorg/groups/:groupId/datasets';
  const one = `${group}/:datasetId`;

  router.post(group, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Contributor');
    const retention = ctx.query('defaultRetentionPolicy') ?? 'None';
    const policy = ['None', 'basicFIFO'].find((p) => p.toLowerCase() === retention.toLowerCase());
    if (!policy) throw messageError(400, 'InvalidRequest', `defaultRetentionPolicy '${retention}' is not None or basicFIFO.`);
    const body = await json(ctx);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a dataset object.');
    for (const k of Object.keys(body))
      if (!['name', 'tables', 'relationships', 'datasources', 'defaultMode'].includes(k))
        throw badRequest(
          `The property '${k}' does not exist on type 'Microsoft.PowerBI.ServiceContracts.Api.Dataset'. Make sure to only use property names that are defined by the type.`,
        );
    if (typeof body.name !== 'string' || !body.name.trim()) throw badRequest("The request field 'name' is required.");
    const mode = body.defaultMode ?? 'Push';
    if (!MODES.includes(mode))
      throw messageError(
        400,
        'InvalidRequest',
        `defaultMode '${mode}' cannot be created by this call: it creates Push, Streaming or PushStreaming datasets.`,
      );
    const { tables, relationships } = parseSchema(body);
    const dataset: PushDataset = {
      id: core.idSource.next('reporting:dataset'),
      groupId: ws.id,
      name: body.name,
      defaultMode: mode,
      retention: policy as PushDataset['retention'],
      tables,
      relationships,
      configuredBy: callerName(caller),
      createdAt: Date.now(),
      posts: [],
    };
    core.reporting.datasets.set(dataset.id, dataset);
    return {
      status: 201,
      body: {
        '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${ws.id}/$metadata#datasets/$entity`,
        id: dataset.id,
        name: dataset.name,
        defaultRetentionPolicy: dataset.retention,
      },
    };
  });

  router.get(group, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Viewer');
    const push = [...core.reporting.datasets.values()].filter((d) => d.groupId === ws.id).sort((a, b) => a.createdAt - b.createdAt);
    const value = [...push.map((d) => pushJson(core, d)), ...platformModels(core, ws.id)];
    return { status: 200, body: { '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${ws.id}/$metadata#datasets`, value } };
  });

  router.get(one, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Viewer');
    const id = String(ctx.params.datasetId).toLowerCase();
    const push = core.reporting.datasets.get(id);
    const found = push && push.groupId === ws.id ? pushJson(core, push) : platformModels(core, ws.id).find((m) => m.id === id);
    if (!found) throw notFound();
    return {
      status: 200,
      body: { '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${ws.id}/$metadata#datasets/$entity`, ...found },
    };
  });

  router.delete(one, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Contributor');
    const dataset = core.reporting.datasets.get(String(ctx.params.datasetId).toLowerCase());
    if (!dataset || dataset.groupId !== ws.id) throw notFound();
    core.reporting.datasets.delete(dataset.id);
    return { status: 200 };
  });

  // The documented answer lists the tables by name only (the schema is not read back).
  router.get(`${one}/tables`, async (ctx) => {
    const { dataset } = await datasetFor(core, ctx, 'Viewer');
    return {
      status: 200,
      body: {
        '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${dataset.groupId}/$metadata#tables`,
        value: dataset.tables.map((t) => ({ name: t.name })),
      },
    };
  });

  // PUT updates an existing table's schema (a table cannot be added this way: 404 ItemNotFound). Rows are kept, each
  // with the values of the columns that remain.
  router.put(`${one}/tables/:tableName`, async (ctx) => {
    const { dataset } = await datasetFor(core, ctx, 'Contributor');
    const table = tableOf(dataset, ctx.params.tableName!);
    const next = parseTable(await json(ctx), 'requestMessage');
    if (next.name.toLowerCase() !== table.name.toLowerCase())
      throw messageError(400, 'InvalidRequest', `The body names table '${next.name}'; the path names '${table.name}'.`);
    const kept = new Set(next.columns.map((c) => c.name));
    table.rows = table.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => kept.has(k))));
    table.columns = next.columns;
    table.measures = next.measures;
    return { status: 200, body: { name: table.name } };
  });

  router.post(`${one}/tables/:tableName/rows`, async (ctx) => {
    const { dataset } = await datasetFor(core, ctx, 'Contributor');
    const table = tableOf(dataset, ctx.params.tableName!);
    const body = await json(ctx);
    const rows = parseRows(table, body?.rows);
    const now = Date.now();
    dataset.posts = dataset.posts.filter((p) => now - p.at < 3_600_000);
    const lastMinute = dataset.posts.filter((p) => now - p.at < 60_000).length;
    const big = dataset.tables.some((t) => t.rows.length >= 250_000);
    if (lastMinute >= PUSH_LIMITS.postsPerMinute || (big && dataset.posts.length >= PUSH_LIMITS.postsPerMinute))
      throw messageError(
        429,
        'TooManyRequests',
        `The dataset took ${PUSH_LIMITS.postsPerMinute} POST rows requests in the last ${big ? 'hour' : 'minute'}.`,
        {
          'retry-after': big ? 3600 : 60,
        },
      );
    const hourRows = dataset.posts.reduce((n, p) => n + p.rows, 0);
    if (hourRows + rows.length > PUSH_LIMITS.rowsPerHour)
      throw messageError(
        429,
        'TooManyRequests',
        `A push dataset takes ${PUSH_LIMITS.rowsPerHour} rows per hour; this one took ${hourRows}.`,
        {
          'retry-after': 3600,
        },
      );
    if (dataset.retention === 'None' && table.rows.length + rows.length > PUSH_LIMITS.noneRows)
      throw messageError(
        400,
        'InvalidRequest',
        `Table '${table.name}' would hold ${table.rows.length + rows.length} rows; a table without a retention policy holds at most ${PUSH_LIMITS.noneRows}.`,
      );
    dataset.posts.push({ at: now, rows: rows.length });
    table.rows.push(...rows);
    // basicFIFO keeps the newest 200,000 rows of a table.
    if (dataset.retention === 'basicFIFO' && table.rows.length > PUSH_LIMITS.fifoRows)
      table.rows.splice(0, table.rows.length - PUSH_LIMITS.fifoRows);
    return { status: 200 };
  });

  router.delete(`${one}/tables/:tableName/rows`, async (ctx) => {
    const { dataset } = await datasetFor(core, ctx, 'Contributor');
    tableOf(dataset, ctx.params.tableName!).rows = [];
    return { status: 200 };
  });
}
