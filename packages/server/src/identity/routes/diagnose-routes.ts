import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok, PlatformWorkspaceId } from '../../http/schemas.js';
import type { IdentityService } from '../identity-service.js';
import { hasScope } from '../../auth/scopes.js';
import { ClaimCheckSchema, DiagnosisSchema, IdentityTypeName, ProbeIdentitySchema, ProbeResultSchema, SignalSchema } from '../schemas.js';

const tags = ['identity'];
const DiagnoseBody = Type.Object(
  {
    status: Type.Optional(Type.Integer({ minimum: 0, maximum: 599 })),
    code: Type.Optional(Type.String({ maxLength: 200, description: 'an AADSTS code, expired_token, or the service’s error code' })),
    body: Type.Optional(Type.String({ maxLength: 20_000, description: 'the failing answer’s body, unmodified' })),
    identityType: Type.Optional(IdentityTypeName),
    service: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

/** Signals, diagnosis, token inspection and probes. */
export const diagnoseRoutes =
  (identity: IdentityService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/admin/identity/signals',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listIdentitySignals',
          tags,
          summary:
            'Backing calls refused on authentication or authorization, of the caller’s tenant (every tenant’s for the operator); newest first, never a token',
          querystring: Type.Object(
            { since: Type.Optional(Type.String({ format: 'date-time' })), principal: Type.Optional(Type.String({ maxLength: 200 })) },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ ok: Ok, signals: Type.Array(Type.Ref(SignalSchema)) }), ...errors() },
        },
      },
      async (req) => ({
        ok: true as const,
        signals: await identity.signals.list({
          // A tenant's admin sees the tenant's signals; the deployment operator sees every tenant's and the deployment's own.
          tenantId: hasScope(req.caller!.scopes, 'operator') ? undefined : req.caller!.tenantId,
          since: req.query.since ? new Date(req.query.since) : undefined,
          principal: req.query.principal,
        }),
      }),
    );

    app.get(
      '/api/admin/identity/diagnose',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'diagnoseIdentityFailure',
          tags,
          summary: 'Likely causes, first checks and actions for a failing answer (the link of a failed or remediation install step)',
          querystring: Type.Object(
            {
              status: Type.Optional(Type.Integer({ minimum: 0, maximum: 599 })),
              code: Type.Optional(Type.String({ maxLength: 200 })),
              body: Type.Optional(Type.String({ maxLength: 4000 })),
              identityType: Type.Optional(IdentityTypeName),
              service: Type.Optional(Type.String({ maxLength: 40 })),
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ ok: Ok, diagnosis: Type.Ref(DiagnosisSchema) }), ...errors() },
        },
      },
      async (req) => ({ ok: true as const, diagnosis: identity.diagnose(req.query) }),
    );

    app.post(
      '/api/admin/identity/diagnose',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'diagnoseIdentityFailureBody',
          tags,
          summary: 'Diagnose a failing answer sent in full (status, body, code, identity type)',
          body: DiagnoseBody,
          response: { 200: Type.Object({ ok: Ok, diagnosis: Type.Ref(DiagnosisSchema) }), ...errors() },
        },
      },
      async (req) => ({ ok: true as const, diagnosis: identity.diagnose(req.body) }),
    );

    app.post(
      '/api/admin/identity/inspect-token',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'inspectIdentityToken',
          tags,
          summary: 'Decode a token (never stored or logged) and check aud, appid, oid, tid, roles, wids and exp',
          body: Type.Object(
            {
              token: Type.String({ minLength: 10, maxLength: 20_000 }),
              expectedAppId: Type.Optional(Type.String()),
              expectedObjectId: Type.Optional(Type.String()),
              expectedTenantId: Type.Optional(Type.String()),
              expectedRoles: Type.Optional(Type.Array(Type.String())),
              expectedWids: Type.Optional(Type.Array(Type.String())),
              audiences: Type.Optional(
                Type.Array(Type.String(), {
                  minItems: 1,
                  description: 'default: the data platform and reporting API resources of the selected cloud',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({
              ok: Ok,
              valid: Type.Boolean({ description: 'every checked claim is as it should be' }),
              alg: Type.Optional(Type.Unknown()),
              claims: Type.Record(Type.String(), Type.Unknown()),
              checks: Type.Array(Type.Ref(ClaimCheckSchema)),
            }),
            ...errors(),
          },
        },
      },
      async (req) => {
        const b = req.body;
        const r = identity.inspectToken(b.token, {
          appId: b.expectedAppId,
          objectId: b.expectedObjectId,
          tenantId: b.expectedTenantId,
          roles: b.expectedRoles,
          wids: b.expectedWids,
          audiences: b.audiences,
        });
        return { ok: true as const, valid: r.ok, alg: r.alg, claims: r.claims, checks: r.checks };
      },
    );

    app.post(
      '/api/admin/identity/probes',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'runIdentityProbe',
          tags,
          summary:
            'Acquire a token as an identity, read the workspace, count a lakehouse table, run a pipeline; each with its result and time',
          body: Type.Object(
            {
              identity: ProbeIdentitySchema,
              workspaceId: PlatformWorkspaceId(),
              pipelineId: Type.Optional(Id('pipeline item id')),
              lakehouse: Type.Optional(
                Type.Object(
                  { lakehouseId: Id('lakehouse item id'), table: Type.String({ pattern: '^[A-Za-z0-9_]{1,256}$' }) },
                  { additionalProperties: false },
                ),
              ),
              identityType: Type.Optional(IdentityTypeName),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({
              ok: Ok,
              passed: Type.Boolean(),
              principal: Type.String(),
              results: Type.Array(Type.Ref(ProbeResultSchema)),
            }),
            ...errors(404),
          },
        },
      },
      async (req) => {
        const r = await identity.probes.run(req.body);
        return { ok: true as const, passed: r.ok, principal: r.principal, results: r.results };
      },
    );
  };
