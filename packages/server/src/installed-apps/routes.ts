import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok, PageQuery } from '../http/schemas.js';
import { pageRequest } from '../store/paging.js';
import type { InstalledAppService } from './installed-app-service.js';
import { InstalledAppSchema } from './schemas.js';

const Params = Type.Object({ workspaceId: Id('workspace id') });

/** Installed apps of a workspace: list and read. */
export const installedAppRoutes =
  (service: InstalledAppService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/workspaces/:workspaceId/apps',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'listInstalledApps',
          tags: ['installed-apps'],
          summary: 'List the apps installed in a workspace, with their status and items',
          params: Params,
          querystring: PageQuery,
          response: {
            200: Type.Object({ ok: Ok, apps: Type.Array(Type.Ref(InstalledAppSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(404),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await service.list(req.caller!, req.params.workspaceId, pageRequest(req.query))) }),
    );

    app.get(
      '/api/workspaces/:workspaceId/apps/:appId',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'getInstalledApp',
          tags: ['installed-apps'],
          summary: 'Read an app installed in a workspace: its version, the catalog’s current version, status and items',
          params: Type.Object({ workspaceId: Id('workspace id'), appId: Id('app id') }),
          response: { 200: Type.Object({ ok: Ok, app: Type.Ref(InstalledAppSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, app: await service.get(req.caller!, req.params.workspaceId, req.params.appId) }),
    );
  };
