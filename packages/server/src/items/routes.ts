import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BACKINGS, ITEM_EDITORS, ITEM_ICONS } from '../item-types/descriptor.js';
import { type AnyLiveItemType, backendIdOf, isLive, ITEM_TYPE_IDS, ITEM_TYPES } from '../item-types/index.js';
import { backendIdsOf } from '../item-types/backends.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { pageRequest } from '../store/paging.js';
import { errors, Id, IfMatchHeaders, Name, Ok, PageQuery } from '../http/schemas.js';
import type { Caller } from '../auth/caller.js';
import type { ItemJsonPage, ItemService } from './item-service.js';
import { LIVE_STATES } from '../lifecycle/item-state.js';
import { BooleanQuery, JobSchema } from '../lifecycle/schemas.js';
import type { Job } from '../lifecycle/types.js';
import type { ReadCache } from '../store/read-cache.js';

const DisplayName = Name(256, 'unique per item type in the workspace; at least one visible character');

/** A string enum of `values` (one `enum` keyword: what other languages' generators read best). */
const Enum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const ItemSchema = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    itemType: Type.String(),
    displayName: Type.String(),
    description: Type.String(),
    appId: Type.Union([Type.String(), Type.Null()], { description: 'the curated app that installed it' }),
    contentSource: Type.String({ description: "'catalog' until a user saves the content, then 'user'" }),
    provisioning: Type.Unknown({
      description:
        'live provisioning record: the last step that provisioned, applied or checked it (status, resourceId, jobId of the job that last worked on it, drift), or null',
    }),
    liveState: Enum(
      LIVE_STATES,
      'the live resource: stored-only (no backing service), not-provisioned, created, changed (edited since provisioned: apply it), drifted, missing (deleted outside the service), deleted, remediation, failed',
    ),
    backend: Type.Union([Enum([...BACKINGS, 'stored'], 'where the item lives'), Type.Null()], {
      description:
        'where the item lives in this cloud: the backend that provisioned it, else the one this cloud chooses (stored: kept in the service only, for want of an API); null for a stored-only type',
    }),
    portal: Type.Union([Type.Object({ name: Type.String(), url: Type.String() }), Type.Null()], {
      description:
        'the portal of the item’s cloud that shows its live resource (data platform, reporting service, Synapse Studio, Azure portal)',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Item' },
);

const ItemTypeSchema = Type.Object({
  id: Enum(ITEM_TYPE_IDS, 'the item type id'),
  displayName: Type.String(),
  description: Type.String(),
  provisioning: Type.Union([Type.Literal('live'), Type.Literal('stored')]),
  provisionedLive: Type.Boolean(),
  backing: Type.Optional(
    Enum([...BACKINGS, 'stored'], 'where a live item is provisioned in this cloud (stored: kept in the service only here)'),
  ),
  backends: Type.Optional(
    Type.Array(Enum([...BACKINGS, 'stored'], 'a backend'), {
      description: 'every backend the type can run on, the primary first (SVC_BACKEND_<TYPE> picks one)',
    }),
  ),
  icon: Enum(ITEM_ICONS, 'the console’s icon of the type: a Fluent UI icon name'),
  editor: Enum(ITEM_EDITORS, 'the console’s editor of the content besides JSON (json: JSON alone)'),
});

/** An item type as GET /api/item-types lists it. */
const itemTypeView = (t: (typeof ITEM_TYPES)[number], profile: CloudProfile) => ({
  id: t.id,
  displayName: t.displayName,
  description: t.description,
  provisioning: t.provision ? ('live' as const) : ('stored' as const),
  provisionedLive: isLive(t.id, profile),
  ...(t.provision ? { backing: backendIdOf(t.id, profile), backends: backendIdsOf(t as AnyLiveItemType) } : {}),
  icon: t.icon,
  editor: t.editor,
});

/** A page of a workspace's items. */
export const ItemListSchema = Type.Object({ ok: Ok, items: Type.Array(Type.Ref(ItemSchema)), nextCursor: Type.Optional(Type.String()) });

/**
 * The listing's answer, byte for byte what the route's response schema writes (items-list.test.ts compares them): the
 * items come as their JSON (ItemJson), so they are neither read into objects nor serialized again.
 */
export const listBody = (page: ItemJsonPage) =>
  `{"ok":true,"items":[${page.items.join(',')}]${page.nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(page.nextCursor)}`}}`;

const WsParams = Type.Object({ workspaceId: Id('workspace id') });
const ItemParams = Type.Object({ workspaceId: Id('workspace id'), itemId: Id('item id') });

/** What creating an item with deploy true asks of the lifecycle: a check before anything is written, then an apply job. */
export interface Deployer {
  checkDeployable(itemType: string, content: unknown): void;
  start(caller: Caller, workspaceId: string, itemId: string): Promise<{ jobId: string }>;
}

/** What deleting an item with deleteLive asks of the lifecycle: an uninstall job of that one item, and the job as polled. */
export interface LiveDeleter {
  deleteLive(caller: Caller, workspaceId: string, itemId: string): Promise<{ jobId: string }>;
  job(caller: Caller, jobId: string): Promise<Job>;
}

/** Item routes: item types, and a workspace's items with their content. */
export const itemRoutes =
  (service: ItemService, lists: ReadCache<Buffer>, deployer: Deployer, deleter: LiveDeleter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/item-types',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listItemTypes',
          tags: ['items'],
          summary: 'Every item type, and whether an install provisions it live',
          response: { 200: Type.Object({ ok: Ok, itemTypes: Type.Array(ItemTypeSchema) }), ...errors() },
        },
      },
      async () => ({ ok: true as const, itemTypes: ITEM_TYPES.map((t) => itemTypeView(t, service.cloud)) }),
    );

    app.get(
      '/api/workspaces/:workspaceId/items',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'listItems',
          tags: ['items'],
          summary: 'List the items of a workspace',
          params: WsParams,
          querystring: Type.Composite([PageQuery, Type.Object({ itemType: Type.Optional(Type.String({ maxLength: 64 })) })], {
            additionalProperties: false,
          }),
          response: {
            200: ItemListSchema,
            ...errors(404),
          },
        },
      },
      (req, reply) => {
        // The hottest read: its serialized answer is cached per tenant and query until an items or workspaces write commits.
        const page = pageRequest(req.query);
        const caller = req.caller!;
        const key = `${caller.tenantId}\n${req.params.workspaceId}\n${req.query.itemType ?? ''}\n${page.cursor ?? ''}\n${page.limit}`;
        const send = (body: Buffer): void => void reply.type('application/json; charset=utf-8').send(body as never); // already serialized
        const cached = lists.get(key);
        // A cached answer goes out in this turn, without a promise.
        if (cached) return send(cached);
        return lists
          .fill(key, async () => {
            const list = await service.listJson(caller, req.params.workspaceId, page, { itemType: req.query.itemType });
            // Kept as its UTF-8 bytes: a cached answer is neither measured nor encoded again on its way out.
            return Buffer.from(listBody(list));
          })
          .then(send);
      },
    );

    app.post(
      '/api/workspaces/:workspaceId/items',
      {
        config: { scope: 'write', role: 'Contributor' },
        schema: {
          operationId: 'createItem',
          tags: ['items'],
          summary: 'Create an item in a workspace',
          params: WsParams,
          body: Type.Object(
            {
              itemType: Enum(ITEM_TYPE_IDS, 'an item type id (GET /api/item-types)'),
              displayName: DisplayName,
              description: Type.Optional(Type.String({ maxLength: 2000 })),
              content: Type.Optional(Type.Unknown({ description: 'initial stored content (JSON)' })),
              deploy: Type.Optional(
                Type.Boolean({
                  description:
                    'provision the new item live too, through an apply job: the answer’s item.provisioning.jobId names it (poll GET /api/jobs/{jobId}); a live type only, with content its schema accepts',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, item: Type.Ref(ItemSchema) }), ...errors(404, 409) },
        },
      },
      async (req, reply) => {
        const { deploy, ...input } = req.body;
        // Checked before the item is written: a deploy that cannot run creates nothing.
        if (deploy) deployer.checkDeployable(input.itemType, input.content);
        const item = await service.create(req.caller!, req.params.workspaceId, input);
        if (!deploy) return reply.status(201).send({ ok: true as const, item });
        await deployer.start(req.caller!, req.params.workspaceId, item.id);
        // The item as the job left it at accept: its provisioning record names the apply job (provisioning.jobId).
        return reply.status(201).send({ ok: true as const, item: await service.get(req.caller!, req.params.workspaceId, item.id) });
      },
    );

    app.get(
      '/api/workspaces/:workspaceId/items/:itemId',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'getItem',
          tags: ['items'],
          summary: 'Read an item',
          params: ItemParams,
          response: { 200: Type.Object({ ok: Ok, item: Type.Ref(ItemSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, item: await service.get(req.caller!, req.params.workspaceId, req.params.itemId) }),
    );

    app.patch(
      '/api/workspaces/:workspaceId/items/:itemId',
      {
        config: { scope: 'write', role: 'Contributor' },
        schema: {
          operationId: 'updateItem',
          tags: ['items'],
          summary: 'Rename or redescribe an item',
          params: ItemParams,
          body: Type.Object(
            { displayName: Type.Optional(DisplayName), description: Type.Optional(Type.String({ maxLength: 2000 })) },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: Type.Object({ ok: Ok, item: Type.Ref(ItemSchema) }), ...errors(404, 409) },
        },
      },
      async (req) => ({ ok: true as const, item: await service.update(req.caller!, req.params.workspaceId, req.params.itemId, req.body) }),
    );

    app.delete(
      '/api/workspaces/:workspaceId/items/:itemId',
      {
        config: { scope: 'write', role: 'Contributor' },
        schema: {
          operationId: 'deleteItem',
          tags: ['items'],
          summary: 'Delete an item; with deleteLive=true its live resource too, as an uninstall job of the item (202)',
          description:
            'Without deleteLive only the stored item is deleted (200) and its live resource, if any, stays in its backing service. With deleteLive=true an uninstall job of the one item is accepted (202, poll GET /api/jobs/{jobId}): it deletes the live resource through its type’s delete call (a data store too: the caller asked for it), then the stored item.',
          params: ItemParams,
          querystring: Type.Object(
            { deleteLive: BooleanQuery('also delete the live resource in its backing service, through a job') },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ ok: Ok, deleted: Type.String() }),
            202: Type.Object({ ok: Ok, job: Type.Ref(JobSchema) }),
            ...errors(404, 409),
          },
        },
      },
      async (req, reply) => {
        const { workspaceId, itemId } = req.params;
        if (req.query.deleteLive === 'true') {
          const { jobId } = await deleter.deleteLive(req.caller!, workspaceId, itemId);
          return reply.status(202).send({ ok: true as const, job: await deleter.job(req.caller!, jobId) });
        }
        await service.delete(req.caller!, workspaceId, itemId);
        return reply.status(200).send({ ok: true as const, deleted: itemId });
      },
    );

    app.get(
      '/api/workspaces/:workspaceId/items/:itemId/content',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'getItemContent',
          tags: ['items'],
          summary: 'Read an item’s stored content; the ETag header versions it',
          params: ItemParams,
          response: { 200: Type.Object({ ok: Ok, content: Type.Unknown(), etag: Type.String() }), ...errors(404) },
        },
      },
      async (req, reply) => {
        const { content, etag } = await service.getContent(req.caller!, req.params.workspaceId, req.params.itemId);
        reply.header('etag', etag);
        return { ok: true as const, content, etag };
      },
    );

    app.put(
      '/api/workspaces/:workspaceId/items/:itemId/content',
      {
        config: { scope: 'write', role: 'Contributor' },
        schema: {
          operationId: 'putItemContent',
          tags: ['items'],
          summary: 'Save an item’s content; If-Match must carry the ETag read (428 without it, 412 when it is stale)',
          params: ItemParams,
          headers: IfMatchHeaders,
          body: Type.Object({ content: Type.Unknown() }, { additionalProperties: false, required: ['content'] }),
          response: { 200: Type.Object({ ok: Ok, etag: Type.String() }), ...errors(404, 412, 428) },
        },
      },
      async (req, reply) => {
        const { etag } = await service.putContent(
          req.caller!,
          req.params.workspaceId,
          req.params.itemId,
          req.body.content,
          req.headers['if-match'],
        );
        reply.header('etag', etag);
        return { ok: true as const, etag };
      },
    );
  };
