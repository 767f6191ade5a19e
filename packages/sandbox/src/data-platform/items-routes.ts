import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import { platformCaller, requireRole, workspaceOf } from './auth.js';
import { checkNames, createItem } from './create-item.js';
import { fabricError, invalidJson, itemNotFound } from './errors.js';
import { canonicalType, ruleFor, ruleForCollection } from './item-types.js';
import { itemJson, typedItemJson } from './item-json.js';
import { page } from './paging.js';
import type { Item, Workspace } from './store.js';

/** The item, visible and of the expected type, or 404 (EntityNotFound while the post-create lag lasts). */
export function itemOf(core: SandboxCore, ws: Workspace, id: string, type?: string): Item {
  const item = ws.items.get(id.toLowerCase());
  if (!item || !core.dataPlatform.visible(item) || (type && item.type !== type)) throw itemNotFound();
  if (Date.now() < item.lagUntil) throw fabricError(404, 'EntityNotFound', 'The requested entity was not found');
  return item;
}

/** The item type a typed collection path names, or 404 for an unknown collection. */
export function typeOfCollection(collection: string | undefined): string | undefined {
  if (collection === undefined) return undefined;
  const rule = ruleForCollection(collection);
  if (!rule) throw fabricError(404, 'EntityNotFound', `The requested resource '${collection}' was not found`);
  return rule.type;
}

async function list(core: SandboxCore, ctx: RequestContext, typed?: string) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, 'Viewer');
  let type = typed;
  const filter = ctx.query('type');
  if (!typed && filter) {
    type = canonicalType(filter);
    if (!type) throw fabricError(400, 'InvalidItemType', `The item type '${filter}' is invalid`);
  }
  const items = core.dataPlatform.items(ws).filter((i) => !type || i.type === type);
  const path = typed ? `${ctx.params.collection}` : `items${filter ? `?type=${encodeURIComponent(filter)}` : ''}`;
  const listUrl = `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/${path}`;
  const body = page(
    ctx,
    items.map((i) => (typed ? typedItemJson(core, i) : itemJson(i))),
    core.switches['dataPlatform.pageSize'],
    listUrl,
    `${ws.id}|${typed ?? 'items'}|${type ?? ''}`,
  );
  return { status: 200, body };
}

async function create(core: SandboxCore, ctx: RequestContext, typed?: string) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, 'Contributor');
  const body = await ctx.json(invalidJson);
  if (typed && body && typeof body === 'object' && 'type' in body && body.type !== typed) {
    throw fabricError(400, 'InvalidItemType', `The item type '${body.type}' does not match the ${ctx.params.collection} collection`);
  }
  return createItem(core, caller, ws, body, typed);
}

async function get(core: SandboxCore, ctx: RequestContext, typed?: string) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, 'Viewer');
  const item = itemOf(core, ws, ctx.params.id!, typed);
  return { status: 200, body: typed ? typedItemJson(core, item) : itemJson(item) };
}

async function update(core: SandboxCore, ctx: RequestContext, typed?: string) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, 'Contributor');
  const item = itemOf(core, ws, ctx.params.id!, typed);
  const body = await ctx.json(invalidJson);
  checkNames(ruleFor(item.type), body, false);
  if (body.displayName !== undefined && body.displayName !== item.displayName) {
    const conflict = core.dataPlatform.nameConflict(ws, item.type, body.displayName, item.id);
    if (conflict) throw conflict;
    item.displayName = body.displayName;
  }
  if (body.description !== undefined && body.description !== null) item.description = body.description;
  return { status: 200, body: typed ? typedItemJson(core, item) : itemJson(item) };
}

async function remove(core: SandboxCore, ctx: RequestContext, typed?: string) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  const hard = ctx.query('hardDelete') === 'true';
  // Soft deletion needs write permission on the item; a hard (permanent) one the workspace's Admin role.
  requireRole(ws, caller, hard ? 'Admin' : 'Contributor');
  const item = itemOf(core, ws, ctx.params.id!, typed);
  core.dataPlatform.deleteItem(ws, item, hard);
  // The item's OneLake folders go with it: into the recycle bin, or for good.
  core.oneLake.itemDeleted(ws.id, item.id, hard);
  return { status: 200 };
}

/** Item CRUD on the generic /items collection and every typed collection (/notebooks, /lakehouses …). */
export function itemRoutes(core: SandboxCore, router: Router): void {
  const ws = '/v1/workspaces/:ws';
  router.get(`${ws}/items`, (ctx) => list(core, ctx));
  router.post(`${ws}/items`, (ctx) => create(core, ctx));
  router.get(`${ws}/items/:id`, (ctx) => get(core, ctx));
  router.patch(`${ws}/items/:id`, (ctx) => update(core, ctx));
  router.delete(`${ws}/items/:id`, (ctx) => remove(core, ctx));
}

/** The typed twins, registered after every fixed path so that /roleAssignments etc. win. */
export function typedItemRoutes(core: SandboxCore, router: Router): void {
  const ws = '/v1/workspaces/:ws';
  const typed = (ctx: RequestContext) => typeOfCollection(ctx.params.collection);
  router.get(`${ws}/:collection`, (ctx) => list(core, ctx, typed(ctx)));
  router.post(`${ws}/:collection`, (ctx) => create(core, ctx, typed(ctx)));
  router.get(`${ws}/:collection/:id`, (ctx) => get(core, ctx, typed(ctx)));
  router.patch(`${ws}/:collection/:id`, (ctx) => update(core, ctx, typed(ctx)));
  router.delete(`${ws}/:collection/:id`, (ctx) => remove(core, ctx, typed(ctx)));
}
