import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, eventStreamResponse, Id, LastEventIdHeaders, Ok, PageQuery } from '../http/schemas.js';
import { streamJobEvents } from '../install/job-event-stream.js';
import { pageRequest } from '../store/paging.js';
import type { JobService } from './job-service.js';
import { JobSchema } from './schemas.js';
import { JOB_KINDS } from './types.js';

const JobParams = Type.Object({ jobId: Id('job id') });
const JobAnswer = Type.Object({ ok: Ok, job: Type.Ref(JobSchema) });

/** Jobs of every kind: poll, list a workspace's, retry a step, and the event stream. */
export const jobRoutes =
  (service: JobService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/jobs/:jobId',
      {
        config: { scope: 'read', role: 'Viewer', workspaceOf: 'job' },
        schema: {
          operationId: 'getJob',
          tags: ['jobs'],
          summary: 'Poll a job of any kind (install, upgrade, uninstall, apply, drift) with its steps and their results',
          params: JobParams,
          response: { 200: JobAnswer, ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, job: await service.get(req.caller!, req.params.jobId, req.job) }),
    );

    app.get(
      '/api/workspaces/:workspaceId/jobs',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'listWorkspaceJobs',
          tags: ['jobs'],
          summary: 'List the jobs of a workspace, oldest first, optionally of one kind',
          params: Type.Object({ workspaceId: Id('workspace id') }),
          querystring: Type.Composite(
            [PageQuery, Type.Object({ kind: Type.Optional(Type.Union(JOB_KINDS.map((k) => Type.Literal(k)))) })],
            {
              additionalProperties: false,
            },
          ),
          response: {
            200: Type.Object({ ok: Ok, jobs: Type.Array(Type.Ref(JobSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(404),
          },
        },
      },
      async (req) => ({
        ok: true as const,
        ...(await service.list(req.caller!, req.params.workspaceId, req.query.kind ? [req.query.kind] : undefined, pageRequest(req.query))),
      }),
    );

    app.post(
      '/api/jobs/:jobId/steps/:stepIndex/retry',
      {
        config: { scope: 'install', role: 'Contributor', workspaceOf: 'job' },
        schema: {
          operationId: 'retryJobStep',
          tags: ['jobs'],
          summary: 'Re-open a failed or remediation step of a finished job: 202 with the job running again',
          params: Type.Object({ jobId: Id('job id'), stepIndex: Type.String({ pattern: '^[0-9]{1,3}$' }) }),
          response: { 202: JobAnswer, ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply
          .status(202)
          .send({ ok: true as const, job: await service.retryStep(req.caller!, req.params.jobId, Number(req.params.stepIndex)) }),
    );

    app.get(
      '/api/jobs/:jobId/events',
      {
        config: { scope: 'read', role: 'Viewer', workspaceOf: 'job' },
        schema: {
          operationId: 'streamJobEvents',
          tags: ['jobs'],
          summary: 'Server-sent events of a job of any kind (phase, step, step-retried, done); replays after Last-Event-ID',
          params: JobParams,
          headers: LastEventIdHeaders,
          response: {
            200: eventStreamResponse('phase, step, step-retried and done'),
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
