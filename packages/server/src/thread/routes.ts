import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import { EDGE_KINDS, type ThreadService } from './thread-service.js';

const Edge = Type.Object(
  {
    id: Type.String(),
    fromItemId: Type.String(),
    toItemId: Type.String(),
    kind: Type.String(),
    source: Type.String({ description: "'app' (recorded by an install) or 'user'" }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ThreadEdge' },
);
const WsParams = Type.Object({ workspaceId: Id('workspace id') });

/** Thread routes: a workspace's lineage edges. */
export const threadRoutes =
  (service: ThreadService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/workspaces/:workspaceId/thread/edges',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'listThreadEdges',
          tags: ['thread'],
          summary: 'The lineage edges of a workspace',
          params: WsParams,
          response: { 200: Type.Object({ ok: Ok, edges: Type.Array(Type.Ref(Edge)) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, edges: await service.list(req.caller!, req.params.workspaceId) }),
    );

    app.post(
      '/api/workspaces/:workspaceId/thread/edges',
      {
        config: { scope: 'write', role: 'Contributor' },
        schema: {
          operationId: 'createThreadEdge',
          tags: ['thread'],
          summary: 'Add a lineage edge between two items of the workspace',
          params: WsParams,
          body: Type.Object(
            { fromItemId: Id('item id'), toItemId: Id('item id'), kind: Type.Union(EDGE_KINDS.map((k) => Type.Literal(k))) },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, edge: Type.Ref(Edge) }), ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({ ok: true as const, edge: await service.add(req.caller!, req.params.workspaceId, req.body) }),
    );

    app.delete(
      '/api/workspaces/:workspaceId/thread/edges/:edgeId',
      {
        config: { scope: 'write', role: 'Contributor' },
        schema: {
          operationId: 'deleteThreadEdge',
          tags: ['thread'],
          summary: 'Remove a lineage edge',
          params: Type.Object({ workspaceId: Id('workspace id'), edgeId: Id('edge id') }),
          response: { 200: Type.Object({ ok: Ok, deleted: Type.String() }), ...errors(404) },
        },
      },
      async (req) => {
        await service.remove(req.caller!, req.params.workspaceId, req.params.edgeId);
        return { ok: true as const, deleted: req.params.edgeId };
      },
    );
  };

export const THREAD_SCHEMAS = [Edge];
