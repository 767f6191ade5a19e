import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import type { ApplyService } from './apply-service.js';
import type { JobService } from './job-service.js';
import { JobSchema } from './schemas.js';

/** Apply: push an item's stored content to its live resource, as a job. */
export const applyRoutes =
  (applies: ApplyService, jobs: JobService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/workspaces/:workspaceId/items/:itemId/apply',
      {
        config: { scope: 'install', role: 'Contributor' },
        schema: {
          operationId: 'applyItem',
          tags: ['jobs'],
          summary: 'Push the item’s stored content to its live resource (creating it when there is none): 202 with the apply job to poll',
          description:
            'The job reads the live resource first and sends nothing when it already holds the stored content (no-change); otherwise it updates it through the type’s update call (updated), or creates it (created). The item’s live state becomes created.',
          params: Type.Object({ workspaceId: Id('workspace id'), itemId: Id('item id') }),
          response: { 202: Type.Object({ ok: Ok, job: Type.Ref(JobSchema) }), ...errors(400, 404) },
        },
      },
      async (req, reply) => {
        const { jobId } = await applies.start(req.caller!, req.params.workspaceId, req.params.itemId);
        return reply.status(202).send({ ok: true as const, job: await jobs.get(req.caller!, jobId) });
      },
    );
  };
