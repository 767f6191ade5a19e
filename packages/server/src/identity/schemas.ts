import { Type } from '@sinclair/typebox';
import { Gate } from '../install/schemas.js';
import { IDENTITY_TYPE_NAMES } from './identity-types.js';
import { ROTATION_STEPS } from './rotation.js';

const S = Type.String;
const Opt = Type.Optional;
const Time = () => Type.String({ format: 'date-time' });

export const IdentityTypeName = Type.Union(
  IDENTITY_TYPE_NAMES.map((n) => Type.Literal(n)),
  { description: 'an identity type of SPEC.md’s failure-handling table' },
);

export const DiagnosisSchema = Type.Object(
  {
    symptom: Type.Object({ id: S(), text: S() }),
    matchedOn: S({ description: 'what in the input matched: an AADSTS code, a status, expired_token, client IP not allowed' }),
    likelyCauses: Type.Array(S()),
    identityType: IdentityTypeName,
    identityTypeInferred: Type.Boolean({ description: 'true when the caller named no identity type and the symptom suggested it' }),
    firstChecks: Type.Array(S()),
    actions: Type.Array(
      Type.Object({
        action: S(),
        command: S({
          description:
            'the command line that does it: svc, or the service’s own for a role svc cannot grant (search, KQL, warehouse, Synapse)',
        }),
      }),
    ),
    requiredGrant: Opt(S({ description: 'the grant the backing service needs (401/403 with a named service)' })),
  },
  { $id: 'IdentityDiagnosis' },
);

export const SignalSchema = Type.Object(
  {
    id: S(),
    principal: S(),
    service: S(),
    status: Type.Integer({ description: '0 when the identity provider refused before any HTTP answer' }),
    code: Opt(S()),
    path: S(),
    at: Time(),
  },
  { $id: 'IdentitySignal' },
);

export const ClaimCheckSchema = Type.Object(
  {
    claim: S(),
    status: Type.Union([Type.Literal('ok'), Type.Literal('wrong'), Type.Literal('missing'), Type.Literal('unchecked')]),
    actual: Opt(Type.Unknown()),
    expected: Opt(Type.Unknown()),
  },
  { $id: 'IdentityClaimCheck' },
);

export const ProbeResultSchema = Type.Object(
  {
    check: Type.Union(['token', 'workspace-read', 'lakehouse-count', 'pipeline-run', 'sign-ins'].map((c) => Type.Literal(c))),
    ok: Type.Boolean(),
    skipped: Opt(Type.Boolean()),
    at: Time(),
    ms: Type.Integer(),
    detail: S(),
    status: Opt(Type.Integer()),
    code: Opt(S()),
    diagnosis: Opt(S()),
    gate: Opt(
      Type.Ref(Gate, { description: 'the service identity’s own 401/403 from the data platform: the role or tenant setting it lacks' }),
    ),
  },
  { $id: 'IdentityProbeResult' },
);

export const ChangeSchema = Type.Object(
  {
    id: S(),
    kind: S(),
    summary: S(),
    target: Type.Record(S(), Type.Unknown()),
    inverse: Type.Record(S(), Type.Unknown(), { description: 'what a rollback performs' }),
    state: Type.Union([Type.Literal('applied'), Type.Literal('rolled-back')]),
    incidentId: Opt(S()),
    createdBy: S(),
    createdAt: Time(),
    rolledBackAt: Opt(Time()),
    rolledBackBy: Opt(S()),
  },
  { $id: 'IdentityChange' },
);

export const CredentialSchema = Type.Object(
  {
    id: S(),
    displayName: S(),
    clientId: S(),
    keyId: S(),
    expiresAt: Time(),
    vaultSecretName: Opt(S()),
    consumers: Type.Array(S()),
    createdAt: Time(),
    updatedAt: Time(),
  },
  { $id: 'IdentityCredential', description: 'a service-principal secret registered by metadata; the secret value is never kept' },
);

export const AlertSchema = Type.Object(
  {
    credentialId: S(),
    displayName: S(),
    clientId: S(),
    keyId: S(),
    expiresAt: Time(),
    threshold: Type.Union([Type.Literal(90), Type.Literal(30), Type.Literal(7), Type.Literal(0)]),
    level: Type.Union(['notice', 'warning', 'critical', 'expired'].map((l) => Type.Literal(l))),
    daysRemaining: Type.Integer(),
    message: S(),
  },
  { $id: 'IdentityAlert' },
);

const RotationStepName = Type.Union(ROTATION_STEPS.map((s) => Type.Literal(s)));

export const RotationSchema = Type.Object(
  {
    id: S(),
    credentialId: S(),
    clientId: S(),
    state: Type.Union(['in-progress', 'completed', 'rolled-back'].map((s) => Type.Literal(s))),
    done: Type.Record(S(), Time(), { description: 'when each step was done' }),
    nextStep: Opt(RotationStepName),
    oldKeyId: S(),
    newKeyId: Opt(S()),
    newExpiresAt: Opt(S()),
    vaultSecretName: S(),
    vaultVersion: Opt(S()),
    previousVaultVersion: Opt(Type.Union([S(), Type.Null()])),
    consumers: Type.Array(S()),
    changeIds: Type.Array(S()),
    log: Type.Array(Type.Object({ at: Time(), step: S(), detail: S() })),
    createdAt: Time(),
    updatedAt: Time(),
  },
  { $id: 'IdentityRotation' },
);

const Approval = Type.Object({
  id: S(),
  changeKind: S(),
  approver: S(),
  verbal: Type.Boolean(),
  at: Time(),
  changeRequestDueAt: Opt(Time()),
  changeRequestId: Opt(S()),
});

export const SeverityFactsSchema = Type.Object(
  {
    productionPipelineHalted: Opt(Type.Boolean()),
    complianceReportingBlocked: Opt(Type.Boolean()),
    tenantWidePolicyMisconfiguration: Opt(Type.Boolean()),
    singleWorkspaceDown: Opt(Type.Boolean()),
    primaryCicdIdentityBroken: Opt(Type.Boolean()),
    productionPipelineAuthFailingMinutes: Opt(Type.Number({ minimum: 0 })),
    guestWithoutAccess: Opt(Type.Boolean()),
    nonProduction: Opt(Type.Boolean()),
    noProductionImpact: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const IncidentSchema = Type.Object(
  {
    id: S(),
    title: S(),
    status: Type.Union([Type.Literal('open'), Type.Literal('monitoring'), Type.Literal('closed')]),
    severity: Type.Union(['SEV1', 'SEV2', 'SEV3', 'SEV4'].map((s) => Type.Literal(s))),
    severityReasons: Type.Array(S()),
    identityType: Opt(IdentityTypeName),
    principals: Type.Array(S()),
    facts: SeverityFactsSchema,
    startedAt: Time(),
    openedAt: Time(),
    verifiedAt: Opt(Time()),
    monitoringUntil: Opt(Time()),
    closedAt: Opt(Time()),
    createdBy: S(),
    approvals: Type.Array(Approval),
    snapshots: Type.Array(Type.Object({ policy: S(), at: Time() })),
    changeRequests: Type.Array(Type.Object({ approvalId: S(), dueAt: Time(), overdue: Type.Boolean() }), {
      description: 'retroactive change requests of verbal approvals not filed yet',
    }),
    verification: Opt(Type.Object({ at: Time(), passed: Type.Boolean(), checks: Type.Array(Type.Ref(ProbeResultSchema)) })),
    changes: Type.Array(Type.Ref(ChangeSchema)),
  },
  { $id: 'IdentityIncident' },
);

export const ProbeIdentitySchema = Type.Union([
  Type.Object({ kind: Type.Literal('service') }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal('client-credentials'),
      tenantId: Opt(S()),
      clientId: S({ minLength: 1 }),
      clientSecret: S({ minLength: 1, description: 'used for this probe only; never stored or logged' }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('refresh-token'),
      tenantId: Opt(S()),
      clientId: S({ minLength: 1 }),
      refreshToken: S({ minLength: 1, description: 'used for this probe only; never stored or logged' }),
      clientSecret: Opt(S()),
    },
    { additionalProperties: false },
  ),
]);

export const IDENTITY_SCHEMAS = [
  DiagnosisSchema,
  SignalSchema,
  ClaimCheckSchema,
  ProbeResultSchema,
  ChangeSchema,
  CredentialSchema,
  AlertSchema,
  RotationSchema,
  IncidentSchema,
];
