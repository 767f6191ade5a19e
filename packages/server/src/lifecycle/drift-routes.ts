import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import { Gate } from '../install/schemas.js';
import type { DriftService } from './drift-service.js';
import type { JobService } from './job-service.js';
import { JobSchema } from './schemas.js';

const DRIFT_STATUSES = ['in-sync', 'drifted', 'missing', 'remediation', 'failed'] as const;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** One live item in the workspace's last drift check. */
export const DriftItemSchema = Type.Object(
  {
    itemId: Type.String({ description: 'the stored item' }),
    key: Type.String({ description: 'the item’s key in its app (a standalone item: its id)' }),
    appId: Nullable(Type.String(), 'the installed app the item belongs to; null for a standalone item'),
    itemType: Type.String(),
    displayName: Type.String(),
    status: Type.Union([...DRIFT_STATUSES.map((s) => Type.Literal(s)), Type.Null()], {
      description:
        'in-sync: the live resource holds the stored content; drifted: it differs (see diff); missing: deleted outside the service; remediation / failed: it could not be read; null while the job has not read it yet',
    }),
    diff: Type.Optional(Type.String({ description: 'unified diff of the live resource (live/…) against the stored content (install/…)' })),
    resourceId: Type.Optional(Type.String({ description: 'the live resource in the backing service' })),
    error: Type.Optional(Type.String({ description: 'the backing service’s error text, unmodified' })),
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String({ description: 'the service’s own words' })),
    gate: Type.Optional(Type.Ref(Gate)),
  },
  { $id: 'DriftItem' },
);

/** The drift schemas the document registers. */
export const DRIFT_SCHEMAS = [DriftItemSchema];

/** Drift: compare each live item of a workspace with its backing service, as a job; and the last result. */
export const driftRoutes =
  (drift: DriftService, jobs: JobService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const params = Type.Object({ workspaceId: Id('workspace id') });
    app.post(
      '/api/workspaces/:workspaceId/drift',
      {
        config: { scope: 'install', role: 'Contributor' },
        schema: {
          operationId: 'checkDrift',
          tags: ['jobs'],
          summary: 'Check every live item of the workspace against its backing service: 202 with the drift job to poll',
          description:
            'The job reads each live item’s definition or state with read-only calls and compares it with the stored content: in-sync, drifted (with a diff) or missing (deleted outside the service). Each verdict is recorded on the item (its liveState shows drifted or missing); apply repairs it. 409 nothing_to_check when the workspace has no live item.',
          params,
          response: { 202: Type.Object({ ok: Ok, job: Type.Ref(JobSchema) }), ...errors(404, 409) },
        },
      },
      async (req, reply) => {
        const { jobId } = await drift.start(req.caller!, req.params.workspaceId);
        return reply.status(202).send({ ok: true as const, job: await jobs.get(req.caller!, jobId) });
      },
    );
    app.get(
      '/api/workspaces/:workspaceId/drift',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'lastDrift',
          tags: ['jobs'],
          summary: 'The workspace’s last drift check: its job and the verdict per live item',
          description: '404 when no drift check has run in the workspace. An item not read yet (the job still running) has status null.',
          params,
          response: {
            200: Type.Object({
              ok: Ok,
              drift: Type.Object({ job: Type.Ref(JobSchema), items: Type.Array(Type.Ref(DriftItemSchema)) }),
            }),
            ...errors(404),
          },
        },
      },
      async (req) => ({ ok: true as const, drift: await drift.last(req.caller!, req.params.workspaceId) }),
    );
  };
