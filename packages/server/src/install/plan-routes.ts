import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlannedCall } from '../catalog/routes.js';
import { errors, Id, Ok } from '../http/schemas.js';
import { InputError } from '../errors.js';
import { PLAN_ACTIONS, PLAN_BOUND_MS, type PlanService } from './plan-service.js';
import type { UpgradePlanner } from './plan-upgrade.js';
import { Gate, InstallBodySchema } from './schemas.js';

/** The plan's body: an install's, or (operation) the upgrade of the app installed in the workspace. */
const PlanBodySchema = Type.Object(
  {
    ...InstallBodySchema.properties,
    operation: Type.Optional(
      Type.Union([Type.Literal('install'), Type.Literal('upgrade'), Type.Literal('uninstall')], {
        description:
          'install (default): what installing would do; upgrade: what upgrading the installed app to the catalog’s version would do; uninstall: what uninstalling the app installed in workspaceId would delete and keep',
      }),
    ),
    removeDropped: Type.Optional(Type.Boolean({ description: 'upgrade: plan the removal of the items the new version dropped' })),
    purgeData: Type.Optional(Type.Boolean({ description: 'uninstall: plan deleting the data stores too' })),
  },
  { additionalProperties: false },
);

const PlanItemSchema = Type.Object(
  {
    key: Type.String(),
    itemType: Type.String(),
    displayName: Type.String(),
    action: Type.Union(
      PLAN_ACTIONS.map((a) => Type.Literal(a)),
      {
        description:
          'create: the live resource (an upgrade: the item) does not exist; update: it differs from what would be sent (see diff); no-change; blocked: a gate stops it (see gate); failed: reading it failed (error, or code and message); stored: kept in the service only; upgrade: conflict (see conflicts: nothing would be written), remove or keep (an item the new version dropped); uninstall: delete (its live resource and stored item), keep (a data store kept without purgeData)',
      },
    ),
    resourceId: Type.Optional(Type.String({ description: 'the live resource, when it exists' })),
    diff: Type.Optional(
      Type.String({ description: 'unified diff from the live resource (live/<part>) to what an install sends (install/<part>)' }),
    ),
    gate: Type.Optional(Type.Ref(Gate)),
    calls: Type.Optional(Type.Array(PlannedCall, { description: 'the backing calls an install makes for the item' })),
    conflicts: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON pointer into the item’s content' }),
          base: Type.Unknown({ description: 'the installed version’s value' }),
          ours: Type.Unknown({ description: 'the stored (edited) value, kept' }),
          theirs: Type.Unknown({ description: 'the new version’s value' }),
        }),
        { description: 'upgrade: the parts both the user and the new version changed' },
      ),
    ),
    error: Type.Optional(Type.String({ description: 'the backing service’s error text, unmodified' })),
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    dataLoss: Type.Optional(Type.Boolean({ description: 'uninstall with purgeData: a data store deleted, its data with it' })),
    backend: Type.Optional(
      Type.String({
        description: 'the backend the item is provisioned on in this cloud (`stored`: kept in the service only; message says why)',
      }),
    ),
  },
  { $id: 'PlanItem' },
);

const InstallPlanSchema = Type.Object(
  {
    appId: Type.String(),
    version: Type.String({ description: 'the catalog version installed (an upgrade: the version upgraded to)' }),
    fromVersion: Type.Optional(Type.String({ description: 'upgrade: the version installed now' })),
    workspaceId: Type.String(),
    mode: Type.String(),
    items: Type.Array(Type.Ref(PlanItemSchema)),
  },
  { $id: 'InstallPlan' },
);

/** The install's dry run. */
export const planRoutes =
  (service: PlanService, upgrades: UpgradePlanner): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/apps/:appId/plan',
      {
        config: { scope: 'install', role: 'Viewer' },
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
      async (req) => {
        const { operation = 'install', removeDropped, purgeData, ...install } = req.body;
        if (removeDropped !== undefined && operation !== 'upgrade')
          throw new InputError('body/removeDropped is only accepted with operation "upgrade"', 'removeDropped');
        if (purgeData !== undefined && operation !== 'uninstall')
          throw new InputError('body/purgeData is only accepted with operation "uninstall"', 'purgeData');
        if (operation === 'install') return { ok: true as const, plan: await service.plan(req.caller!, req.params.appId, install) };
        // An upgrade or an uninstall works on the installed app as it is: its mode and target are its own.
        const extra = (['deploy', 'mode', 'targetOverrides'] as const).find((f) => install[f] !== undefined);
        if (extra)
          throw new InputError(`body/${extra} is not accepted with operation "${operation}": the installed app keeps its own`, extra);
        const plan =
          operation === 'upgrade'
            ? await upgrades.plan(req.caller!, req.params.appId, { workspaceId: install.workspaceId, removeDropped })
            : await service.plan(req.caller!, req.params.appId, { workspaceId: install.workspaceId, operation, purgeData });
        return { ok: true as const, plan };
      },
    );
  };

export const PLAN_SCHEMAS = [PlanItemSchema, InstallPlanSchema];
