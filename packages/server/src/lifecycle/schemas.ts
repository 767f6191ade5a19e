import { Type } from '@sinclair/typebox';
import { Gate } from '../install/schemas.js';
import { JOB_STATUSES } from '../install/types.js';
import { JOB_KINDS, LIFECYCLE_STEP_STATUSES } from './types.js';

const Literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

/** The result of one step of a job of any kind (an install's steps answer the StepResult fields only). */
export const JobStepResultSchema = Type.Object(
  {
    status: Type.String({
      description: `what the step did: an install's StepResult status, or ${LIFECYCLE_STEP_STATUSES.join(', ')}`,
    }),
    resourceId: Type.Optional(Type.String({ description: 'the live resource in the backing service' })),
    secondaryIds: Type.Optional(Type.Record(Type.String(), Type.String())),
    diff: Type.Optional(
      Type.String({ description: 'unified diff: live against stored (drift), or what the step changed (apply, upgrade)' }),
    ),
    conflicts: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON pointer into the item’s content' }),
          base: Type.Unknown({ description: 'the installed version’s value' }),
          ours: Type.Unknown({ description: 'the stored (edited) value, kept' }),
          theirs: Type.Unknown({ description: 'the new version’s value, not applied' }),
        }),
      ),
    ),
    gate: Type.Optional(Type.Ref(Gate)),
    error: Type.Optional(Type.String({ description: 'the backing service’s error text, unmodified' })),
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String({ description: 'the service’s own words' })),
    steps: Type.Array(Type.String(), { description: 'step log' }),
    diagnosis: Type.Optional(Type.String()),
  },
  { $id: 'JobStepResult' },
);

/** A job of any kind, polled at GET /api/jobs/{jobId}. */
export const JobSchema = Type.Object(
  {
    id: Type.String(),
    kind: Literals(JOB_KINDS, 'install, upgrade, uninstall, apply or drift'),
    workspaceId: Type.String(),
    appId: Type.Union([Type.String(), Type.Null()], {
      description: 'the app of an install, upgrade or uninstall; null for a workspace job',
    }),
    status: Literals(JOB_STATUSES),
    phase: Type.String({
      description: 'install: creating-items, provisioning; others: applying, reading, removing or upgrading; then finalizing, done',
    }),
    percentComplete: Type.Integer({ minimum: 0, maximum: 100 }),
    options: Type.Object(
      {
        purgeData: Type.Optional(Type.Boolean()),
        removeDropped: Type.Optional(Type.Boolean()),
        toVersion: Type.Optional(Type.String()),
        fromVersion: Type.Optional(Type.String()),
        deleteWorkspace: Type.Optional(Type.Boolean()),
        itemId: Type.Optional(Type.String()),
      },
      { description: 'what the job was asked when it was accepted' },
    ),
    summary: Type.Record(Type.String(), Type.Integer(), { description: 'finished steps counted by status' }),
    steps: Type.Array(
      Type.Object({
        stepIndex: Type.Integer(),
        key: Type.String({ description: 'the item’s key in its app (a standalone item: its id)' }),
        itemType: Type.String(),
        displayName: Type.String(),
        itemId: Type.Union([Type.String(), Type.Null()], { description: 'the stored item (null until an upgrade creates it)' }),
        live: Type.Boolean({ description: 'whether the item has a live resource to work on' }),
        result: Type.Union([Type.Ref(JobStepResultSchema), Type.Null()], { description: 'null until the step has run' }),
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'Job' },
);

export const JOB_SCHEMAS = [JobStepResultSchema, JobSchema];

/** A yes/no query parameter: the text `true` or `false` (a query string is text; anything else is 400 naming it). */
export const BooleanQuery = (description: string) =>
  Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: `${description} (true or false; default false)` }),
  );
