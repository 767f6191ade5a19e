import { Type } from '@sinclair/typebox';
import { Id, PlatformWorkspaceId } from '../http/schemas.js';
import { NAME_PATTERNS } from '../tenancy/resources.js';
import { JOB_STATUSES, MODES, OUTCOMES, PHASES, STEP_STATUSES } from './types.js';

/** A remediation gate (errors.ts RemediationGate), registered once and referenced by step results and probe results. */
export const Gate = Type.Object({ reason: Type.String(), remediation: Type.String(), link: Type.String() }, { $id: 'RemediationGate' });

const StepResultSchema = Type.Object(
  {
    status: Type.Union(STEP_STATUSES.map((s) => Type.Literal(s))),
    resourceId: Type.Optional(Type.String({ description: 'the live resource in the backing service' })),
    secondaryIds: Type.Optional(Type.Record(Type.String(), Type.String())),
    gate: Type.Optional(Type.Ref(Gate)),
    error: Type.Optional(Type.String({ description: 'the backing service’s error text, unmodified (only ever its own words)' })),
    code: Type.Optional(
      Type.String({
        description:
          'the failure’s code: the backing service’s error code when it answered one, else the service’s own (timeout, network_error, host_not_allowed, redirect_refused, internal_error, …)',
      }),
    ),
    message: Type.Optional(
      Type.String({ description: 'the service’s own description of a failure that is not a backing service’s answer' }),
    ),
    steps: Type.Array(Type.String(), { description: 'step log' }),
    diagnosis: Type.Optional(Type.String({ description: 'where to diagnose an identity failure' })),
    backend: Type.Optional(
      Type.String({
        description:
          'the backend the step ran on: data-platform, or an Azure-native service (synapse, lake, event-hubs, monitor, reporting)',
      }),
    ),
  },
  { $id: 'StepResult' },
);

const ProvisionReportSchema = Type.Object(
  {
    outcome: Type.Union(OUTCOMES.map((s) => Type.Literal(s))),
    mode: Type.Union(MODES.map((m) => Type.Literal(m))),
    target: Type.Record(Type.String(), Type.String(), { description: 'the resolved target settings' }),
    backends: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: "each live item type's backend in this install's cloud (`stored`: kept in the service only, for want of an API)",
      }),
    ),
    steps: Type.Array(
      Type.Object({
        stepIndex: Type.Integer(),
        itemType: Type.String(),
        displayName: Type.String(),
        cosmosItemId: Type.String({ description: 'the stored item' }),
        result: Type.Ref(StepResultSchema),
      }),
    ),
  },
  { $id: 'ProvisionReport' },
);

export const InstallJobSchema = Type.Object(
  {
    id: Type.String(),
    appId: Type.String(),
    workspaceId: Type.String(),
    status: Type.Union(JOB_STATUSES.map((s) => Type.Literal(s))),
    phase: Type.Union(PHASES.map((s) => Type.Literal(s))),
    percentComplete: Type.Integer({ minimum: 0, maximum: 100 }),
    totalItems: Type.Integer(),
    createdItems: Type.Integer(),
    installed: Type.Array(
      Type.Object({ itemType: Type.String(), id: Type.String(), displayName: Type.String(), status: Type.Literal('created') }),
    ),
    provision: Type.Optional(Type.Ref(ProvisionReportSchema, { description: 'present once provisioning completes' })),
    deploy: Type.Boolean(),
    mode: Type.Union(MODES.map((m) => Type.Literal(m))),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'InstallJob' },
);

const Address = (what: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 300,
      pattern: '^\\S+$',
      description: `${what}: https://host or host[:port], under the cloud’s DNS suffixes and assigned to the tenant`,
    }),
  );
const Named = (pattern: string, description: string) => Type.Optional(Type.String({ pattern, description }));

export const TargetOverridesSchema = Type.Object(
  {
    platformWorkspaceId: Type.Optional(PlatformWorkspaceId('a platform workspace assigned to the tenant (a GUID)')),
    kqlClusterUri: Address('the KQL cluster’s URI'),
    kqlDatabase: Named(NAME_PATTERNS.kqlDatabase, 'the KQL database name (default: each item’s own)'),
    warehouseWorkspace: Named(NAME_PATTERNS.warehouseWorkspace, 'the Synapse workspace name'),
    warehouseServer: Address('the warehouse’s T-SQL server'),
    warehouseDatabase: Named(NAME_PATTERNS.warehouseDatabase, 'the dedicated pool'),
    searchService: Address('the search service’s URI'),
    lakeAccount: Address('the lake account’s host'),
    lakeContainer: Named(NAME_PATTERNS.lakeContainer, 'the lake container'),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'dedicated mode only (and required there): every platform workspace and address must be assigned to the tenant by the deployment operator, and under the cloud’s allowed DNS suffixes',
  },
);

/** The body of an install, and of its plan. */
export const InstallBodySchema = Type.Object(
  {
    workspaceId: Id('target workspace'),
    deploy: Type.Optional(Type.Boolean({ description: 'true (default): also provision live; false: store items only' })),
    mode: Type.Optional(
      Type.Union(
        MODES.map((m) => Type.Literal(m)),
        { description: 'default shared' },
      ),
    ),
    targetOverrides: Type.Optional(TargetOverridesSchema),
  },
  { additionalProperties: false },
);

export const INSTALL_SCHEMAS = [Gate, StepResultSchema, ProvisionReportSchema, InstallJobSchema];
