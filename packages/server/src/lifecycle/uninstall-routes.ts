import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import type { JobService } from './job-service.js';
import { BooleanQuery, JobSchema } from './schemas.js';
import type { UninstallService } from './uninstall-service.js';

/** Uninstall an installed app, as a job. */
export const uninstallRoutes =
  (uninstalls: UninstallService, jobs: JobService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.delete(
      '/api/workspaces/:workspaceId/apps/:appId',
      {
        config: { scope: 'install', role: 'Contributor' },
        schema: {
          operationId: 'uninstallApp',
          tags: ['jobs'],
          summary:
            'Uninstall an app: delete its live resources (dependants first) and its stored items, as a job: 202 with the job to poll',
          description: [
            'Each step deletes one item’s live resource through its type’s delete call (deleted; not-found when it was already',
            'gone). Data stores (lakehouse, warehouse, KQL database, eventhouse, search index) are kept unless purgeData=true:',
            'a kept one stays in the workspace as a stored item detached from the app. When every step succeeded the installed',
            'app is removed; otherwise its status is failed with the items that remain (retry a step at',
            'POST /api/jobs/{jobId}/steps/{stepIndex}/retry). 409 job_running while a job of the app runs.',
          ].join(' '),
          params: Type.Object({ workspaceId: Id('workspace id'), appId: Id('app id') }),
          querystring: Type.Object(
            { purgeData: BooleanQuery('delete the data stores and their data too') },
            { additionalProperties: false },
          ),
          response: { 202: Type.Object({ ok: Ok, job: Type.Ref(JobSchema) }), ...errors(404, 409) },
        },
      },
      async (req, reply) => {
        const { workspaceId, appId } = req.params;
        const { jobId } = await uninstalls.uninstallApp(req.caller!, workspaceId, appId, { purgeData: req.query.purgeData === 'true' });
        return reply.status(202).send({ ok: true as const, job: await jobs.get(req.caller!, jobId) });
      },
    );
  };
