import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../store/paging.js';
import { errors, Id, Name, Ok, PageQuery, PlatformWorkspaceId } from '../http/schemas.js';
import type { Caller } from '../auth/caller.js';
import { BooleanQuery, JobSchema } from '../lifecycle/schemas.js';
import type { Job } from '../lifecycle/types.js';
import type { WorkspaceService } from './workspace-service.js';
import { RoleSourceSchema, WorkspaceRoleSchema } from '../access/schemas.js';

/** Reads a job accepted by a forced delete (the lifecycle's JobService). */
export interface JobReader {
  get(caller: Caller, jobId: string): Promise<Job>;
}

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
    role: WorkspaceRoleSchema,
    roleSource: RoleSourceSchema,
  },
  { $id: 'Workspace' },
);

const Params = Type.Object({ workspaceId: Id('workspace id') });

/** Workspace routes: list, create, read, rename or bind, delete. */
export const workspaceRoutes =
  (service: WorkspaceService, jobs: JobReader): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/workspaces',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listWorkspaces',
          tags: ['workspaces'],
          summary: 'List the workspaces of the caller’s tenant that the caller may see (a role, or the admin scope), with its role on each',
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
          summary:
            'Create a workspace; the caller becomes its Admin (a token limited to workspaces: 403 workspace_limited_token; a name another workspace of the tenant holds, ignoring case: 409 duplicate_workspace, field name)',
          body: Type.Object({ name: WorkspaceName, description: Type.Optional(Description) }, { additionalProperties: false }),
          response: { 201: Type.Object({ ok: Ok, workspace: Type.Ref(WorkspaceSchema) }), ...errors(409) },
        },
      },
      async (req, reply) => reply.status(201).send({ ok: true as const, workspace: await service.create(req.caller!, req.body) }),
    );

    app.get(
      '/api/workspaces/:workspaceId',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'getWorkspace',
          tags: ['workspaces'],
          summary: 'Read a workspace',
          params: Params,
          response: { 200: Type.Object({ ok: Ok, workspace: Type.Ref(WorkspaceSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, workspace: await service.view(req.caller!, req.params.workspaceId) }),
    );

    app.patch(
      '/api/workspaces/:workspaceId',
      {
        config: { scope: 'write', role: 'Admin' },
        schema: {
          operationId: 'updateWorkspace',
          tags: ['workspaces'],
          summary:
            'Rename a workspace (a name another workspace of the tenant holds, ignoring case: 409 duplicate_workspace, field name), or bind it to a platform workspace of the tenant (admin scope; another tenant’s is 404)',
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
          response: { 200: Type.Object({ ok: Ok, workspace: Type.Ref(WorkspaceSchema) }), ...errors(404, 409) },
        },
      },
      async (req) => ({ ok: true as const, workspace: await service.update(req.caller!, req.params.workspaceId, req.body) }),
    );

    app.delete(
      '/api/workspaces/:workspaceId',
      {
        config: { scope: 'write', role: 'Admin' },
        schema: {
          operationId: 'deleteWorkspace',
          tags: ['workspaces'],
          summary:
            'Delete a workspace and its items; with installed apps 409 workspace_has_apps, or with force=true a job that uninstalls them first',
          description: [
            'Without installed apps the workspace and its stored items are deleted (200). With installed apps it is refused',
            '(409 workspace_has_apps, the message naming them) unless force=true: then ONE uninstall job of every installed',
            'app is accepted (202, poll GET /api/jobs/{jobId}); data stores are kept unless purgeData=true, and the job’s end',
            'deletes the workspace when every step succeeded.',
          ].join(' '),
          params: Params,
          querystring: Type.Object(
            {
              force: BooleanQuery('uninstall the installed apps, then delete the workspace'),
              purgeData: BooleanQuery('with force: delete the apps’ data stores and their data too'),
            },
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
        const caller = req.caller!;
        const started = await service.delete(caller, req.params.workspaceId, {
          force: req.query.force === 'true',
          purgeData: req.query.purgeData === 'true',
        });
        if (started) return reply.status(202).send({ ok: true as const, job: await jobs.get(caller, started.jobId) });
        return reply.status(200).send({ ok: true as const, deleted: req.params.workspaceId });
      },
    );
  };
