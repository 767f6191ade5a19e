import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, eventStreamResponse, Id, LastEventIdHeaders, Ok, PageQuery } from '../http/schemas.js';
import { pageRequest } from '../store/paging.js';
import type { InstallService } from './install-service.js';
import { InstallBodySchema, InstallJobSchema } from './schemas.js';
import { streamJobEvents } from './job-event-stream.js';

const JobParams = Type.Object({ jobId: Id('install job id') });

/** Install routes: start, poll, list, retry a step, and the job's event stream. */
export const installRoutes =
  (service: InstallService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/apps/:appId/install',
      {
        config: { scope: 'install', role: 'Contributor' },
        schema: {
          operationId: 'installApp',
          tags: ['install'],
          summary: 'Install a curated app into a workspace; answers 202 at once with the job id to poll',
          params: Type.Object({ appId: Id('app id') }),
          body: InstallBodySchema,
          response: { 202: Type.Object({ ok: Ok, jobId: Type.String(), totalItems: Type.Integer() }), ...errors(404) },
        },
      },
      async (req, reply) =>
        reply.status(202).send({ ok: true as const, ...(await service.start(req.caller!, req.params.appId, req.body)) }),
    );

    app.get(
      '/api/apps/install-jobs/:jobId',
      {
        config: { scope: 'read', role: 'Viewer', workspaceOf: 'job' },
        schema: {
          operationId: 'getInstallJob',
          tags: ['install'],
          summary: 'Poll an install job (every 5 s); provision is present once provisioning completes',
          params: JobParams,
          response: { 200: Type.Object({ ok: Ok, job: Type.Ref(InstallJobSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, job: await service.get(req.caller!, req.params.jobId, req.job) }),
    );

    app.get(
      '/api/apps/install-jobs',
      {
        config: { scope: 'read', role: 'Viewer', workspaceOf: 'optional' },
        schema: {
          operationId: 'listInstallJobs',
          tags: ['install'],
          summary: 'List install jobs, optionally of one workspace',
          querystring: Type.Composite([PageQuery, Type.Object({ workspaceId: Type.Optional(Id('workspace id')) })], {
            additionalProperties: false,
          }),
          response: {
            200: Type.Object({ ok: Ok, jobs: Type.Array(Type.Ref(InstallJobSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(404),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await service.list(req.caller!, req.query.workspaceId, pageRequest(req.query))) }),
    );

    app.post(
      '/api/apps/install-jobs/:jobId/steps/:stepIndex/retry',
      {
        config: { scope: 'install', role: 'Contributor', workspaceOf: 'job' },
        schema: {
          operationId: 'retryInstallStep',
          tags: ['install'],
          summary:
            'Re-open one provisioning step (after fixing its gate): 202 with the job running again; poll it like an install until the worker has run the step',
          description: [
            "The worker runs the re-opened step under the job's lease and recomputes the report from the stored steps.",
            'Several steps may be re-opened one after another until a worker claims the job; while a worker runs it, 409 job_running.',
          ].join(' '),
          params: Type.Object({ jobId: Id('install job id'), stepIndex: Type.String({ pattern: '^[0-9]{1,3}$' }) }),
          response: { 202: Type.Object({ ok: Ok, job: Type.Ref(InstallJobSchema) }), ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply
          .status(202)
          .send({ ok: true as const, job: await service.retryStep(req.caller!, req.params.jobId, Number(req.params.stepIndex)) }),
    );

    app.get(
      '/api/apps/install-jobs/:jobId/events',
      {
        config: { scope: 'read', role: 'Viewer', workspaceOf: 'job' },
        schema: {
          operationId: 'streamInstallJobEvents',
          tags: ['install'],
          summary: 'Server-sent events of a job (phase, item-created, step, step-retried, done); replays after Last-Event-ID',
          params: JobParams,
          headers: LastEventIdHeaders,
          response: {
            200: eventStreamResponse('phase, item-created, step, step-retried and done'),
            ...errors(404),
          },
        },
      },
      (req, reply) =>
        streamJobEvents(req, reply, {
          events: (after) => service.events(req.caller!, req.params.jobId, after),
          running: async () => (await service.get(req.caller!, req.params.jobId)).status === 'running',
        }),
    );
  };
