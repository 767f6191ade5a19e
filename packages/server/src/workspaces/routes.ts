import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../store/paging.js';
import { errors, Id, Name, Ok, PageQuery, PlatformWorkspaceId } from '../http/schemas.js';
import type { WorkspaceService } from './workspace-service.js';

const WorkspaceName = Name(200, 'display name, 1 to 200 characters, at least one of them visible');
const Description = Type.String({ maxLength: 2000 });

export const WorkspaceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    platformWorkspaceId: Type.Union([Type.String(), Type.Null()], { description: 'bound platform workspace (capacity binding), or null' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Workspace' },
);

const Params = Type.Object({ workspaceId: Id('workspace id') });

/** Workspace routes: list, create, read, rename or bind, delete. */
export const workspaceRoutes =
  (service: WorkspaceService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/workspaces',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listWorkspaces',
          tags: ['workspaces'],
          summary: 'List the workspaces of the caller’s tenant',
          querystring: PageQuery,
          response: {
            200: Type.Object({ ok: Ok, workspaces: Type.Array(Type.Ref(WorkspaceSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await service.list(req.caller!, pageRequest(req.query))) }),
    );

    app.post(
      '/api/workspaces',
      {
        config: { scope: 'write' },
        schema: {
          operationId: 'createWorkspace',
          tags: ['workspaces'],
          summary: 'Create a workspace',
          body: Type.Object({ name: WorkspaceName, description: Type.Optional(Description) }, { additionalProperties: false }),
          response: { 201: Type.Object({ ok: Ok, workspace: Type.Ref(WorkspaceSchema) }), ...errors() },
        },
      },
      async (req, reply) => reply.status(201).send({ ok: true as const, workspace: await service.create(req.caller!, req.body) }),
    );

    app.get(
      '/api/workspaces/:workspaceId',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getWorkspace',
          tags: ['workspaces'],
          summary: 'Read a workspace',
          params: Params,
          response: { 200: Type.Object({ ok: Ok, workspace: Type.Ref(WorkspaceSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, workspace: await service.get(req.caller!, req.params.workspaceId) }),
    );

    app.patch(
      '/api/workspaces/:workspaceId',
      {
        config: { scope: 'write' },
        schema: {
          operationId: 'updateWorkspace',
          tags: ['workspaces'],
          summary: 'Rename a workspace, or bind it to a platform workspace of the tenant (admin scope; another tenant’s is 404)',
          params: Params,
          body: Type.Object(
            {
              name: Type.Optional(WorkspaceName),
              description: Type.Optional(Description),
              platformWorkspaceId: Type.Optional(
                Type.Union([PlatformWorkspaceId('a platform workspace assigned to the tenant (a GUID), or null to unbind'), Type.Null()]),
              ),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: Type.Object({ ok: Ok, workspace: Type.Ref(WorkspaceSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, workspace: await service.update(req.caller!, req.params.workspaceId, req.body) }),
    );

    app.delete(
      '/api/workspaces/:workspaceId',
      {
        config: { scope: 'write' },
        schema: {
          operationId: 'deleteWorkspace',
          tags: ['workspaces'],
          summary: 'Delete a workspace and its items',
          params: Params,
          response: { 200: Type.Object({ ok: Ok, deleted: Type.String() }), ...errors(404, 409) },
        },
      },
      async (req) => {
        await service.delete(req.caller!, req.params.workspaceId);
        return { ok: true as const, deleted: req.params.workspaceId };
      },
    );
  };
