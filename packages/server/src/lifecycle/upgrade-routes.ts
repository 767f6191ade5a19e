import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import type { JobService } from './job-service.js';
import { JobSchema } from './schemas.js';
import type { UpgradeService } from './upgrade-service.js';

/** Upgrade: an installed app moved to the catalog's current version, as a job. */
export const upgradeRoutes =
  (upgrades: UpgradeService, jobs: JobService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/workspaces/:workspaceId/apps/:appId/upgrade',
      {
        config: { scope: 'install', role: 'Contributor' },
        // A POST without a body asks the defaults (removeDropped false).
        preValidation: async (req) => {
          req.body ??= {};
        },
        schema: {
          operationId: 'upgradeApp',
          tags: ['jobs'],
          summary:
            'Upgrade an installed app to the catalog’s current version, merging each item with the user’s edits: 202 with the upgrade job to poll',
          description: [
            'Per item, a three-way merge of the content the installed version shipped, the stored content (the user’s edits) and',
            'the new version’s: a change on one side is taken, and both sides changing the same part is a conflict step that',
            'writes nothing and shows both versions. Merged live items are applied to their live resources; items the new',
            'version adds are created; items it dropped are listed (dropped) and removed only with removeDropped true (a data',
            'store is always kept). The app records the new version only when no step conflicted or failed (else it stays at its',
            'version, partial). 409 app_current when the installed version is the catalog’s; 409 job_running while a job of the app runs.',
          ].join(' '),
          params: Type.Object({ workspaceId: Id('workspace id'), appId: Id('app id') }),
          body: Type.Optional(
            Type.Object(
              {
                removeDropped: Type.Optional(
                  Type.Boolean({ description: 'remove the items the new version dropped (default false: list and keep them)' }),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          response: { 202: Type.Object({ ok: Ok, job: Type.Ref(JobSchema) }), ...errors(400, 404, 409) },
        },
      },
      async (req, reply) => {
        const { jobId } = await upgrades.start(req.caller!, req.params.workspaceId, req.params.appId, req.body ?? {});
        return reply.status(202).send({ ok: true as const, job: await jobs.get(req.caller!, jobId) });
      },
    );
  };
