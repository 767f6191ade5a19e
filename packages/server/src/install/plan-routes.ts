import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlannedCall } from '../catalog/routes.js';
import { errors, Id, Ok } from '../http/schemas.js';
import { PLAN_ACTIONS, PLAN_BOUND_MS, type PlanService } from './plan-service.js';
import { Gate, InstallBodySchema } from './schemas.js';

const PlanItemSchema = Type.Object(
  {
    key: Type.String(),
    itemType: Type.String(),
    displayName: Type.String(),
    action: Type.Union(
      PLAN_ACTIONS.map((a) => Type.Literal(a)),
      {
        description:
          'create: the live resource does not exist; update: it differs from what would be sent (see diff); no-change; blocked: a gate stops it (see gate); failed: reading it failed (error, or code and message); stored: kept in the service only; uninstall: delete (its live resource and stored item), keep (a data store kept without purgeData)',
      },
    ),
    resourceId: Type.Optional(Type.String({ description: 'the live resource, when it exists' })),
    diff: Type.Optional(
      Type.String({ description: 'unified diff from the live resource (live/<part>) to what an install sends (install/<part>)' }),
    ),
    gate: Type.Optional(Type.Ref(Gate)),
    calls: Type.Optional(Type.Array(PlannedCall, { description: 'the backing calls an install makes for the item' })),
    error: Type.Optional(Type.String({ description: 'the backing service’s error text, unmodified' })),
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    dataLoss: Type.Optional(Type.Boolean({ description: 'uninstall with purgeData: a data store deleted, its data with it' })),
  },
  { $id: 'PlanItem' },
);

const InstallPlanSchema = Type.Object(
  {
    appId: Type.String(),
    version: Type.String(),
    workspaceId: Type.String(),
    mode: Type.String(),
    items: Type.Array(Type.Ref(PlanItemSchema)),
  },
  { $id: 'InstallPlan' },
);

/** The install body, and the operation planned. */
const PlanBodySchema = Type.Object(
  {
    ...InstallBodySchema.properties,
    operation: Type.Optional(
      Type.Union([Type.Literal('install'), Type.Literal('uninstall')], {
        description: 'install (default), or uninstall of the app installed in workspaceId',
      }),
    ),
    purgeData: Type.Optional(Type.Boolean({ description: 'uninstall: plan deleting the data stores too' })),
  },
  { additionalProperties: false },
);

/** The install's dry run. */
export const planRoutes =
  (service: PlanService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/apps/:appId/plan',
      {
        config: { scope: 'install' },
        schema: {
          operationId: 'planInstall',
          tags: ['install'],
          summary:
            'What installing the app would do, per item (create, update with a diff, no-change, blocked with the gate), changing nothing',
          description: [
            'Takes the install body and validates it as the install does. Each live item is read from its backing service with',
            'read-only calls (lists, GETs, getDefinition, KQL .show commands, the report Export, SQL SELECTs) and compared with',
            `what provisioning would send. Answered synchronously within ${PLAN_BOUND_MS / 1000} s (inside the gateway window);`,
            'a plan whose reads take longer answers 504 plan_timeout naming the items not read, and nothing is changed.',
          ].join(' '),
          params: Type.Object({ appId: Id('app id') }),
          body: PlanBodySchema,
          response: { 200: Type.Object({ ok: Ok, plan: Type.Ref(InstallPlanSchema) }), ...errors(404, 504) },
        },
      },
      async (req) => ({ ok: true as const, plan: await service.plan(req.caller!, req.params.appId, req.body) }),
    );
  };

export const PLAN_SCHEMAS = [PlanItemSchema, InstallPlanSchema];
