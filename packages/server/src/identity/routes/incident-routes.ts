import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok, PlatformWorkspaceId } from '../../http/schemas.js';
import type { IdentityService } from '../identity-service.js';
import { ChangeSchema, IdentityTypeName, IncidentSchema, ProbeIdentitySchema, SeverityFactsSchema } from '../schemas.js';

const tags = ['identity'];
const Params = Type.Object({ incidentId: Id('incident id') });
const One = { 200: Type.Object({ ok: Ok, incident: Type.Ref(IncidentSchema) }) };

/** Incidents: open with a computed severity, approvals, snapshots, changes, verification, close. */
export const incidentRoutes =
  (identity: IdentityService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { incidents } = identity;
    app.get(
      '/api/admin/identity/incidents',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listIncidents',
          tags,
          summary: 'Identity incidents, newest first',
          response: { 200: Type.Object({ ok: Ok, incidents: Type.Array(Type.Ref(IncidentSchema)) }), ...errors() },
        },
      },
      async (req) => ({ ok: true as const, incidents: await incidents.list(req.caller!) }),
    );

    app.post(
      '/api/admin/identity/incidents',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'openIncident',
          tags,
          summary: 'Open an incident; its severity follows SPEC.md’s rules over the recorded signals and the stated facts',
          body: Type.Object(
            {
              title: Type.String({ minLength: 1, maxLength: 300 }),
              identityType: Type.Optional(IdentityTypeName),
              principals: Type.Optional(
                Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000, description: 'only these principals’ signals count' }),
              ),
              facts: Type.Optional(SeverityFactsSchema),
              lookbackMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_080 })),
              startedAt: Type.Optional(
                Type.String({ format: 'date-time', description: 'when the failure began (default: the first signal)' }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 201: One[200], ...errors() },
        },
      },
      async (req, reply) => reply.status(201).send({ ok: true as const, incident: await incidents.open(req.caller!, req.body) }),
    );

    app.get(
      '/api/admin/identity/incidents/:incidentId',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'getIncident',
          tags,
          summary: 'An incident with its approvals, change requests, changes and verification',
          params: Params,
          response: { ...One, ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, incident: await incidents.get(req.caller!, req.params.incidentId) }),
    );

    app.get(
      '/api/admin/identity/incidents/:incidentId/events',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listIncidentEvents',
          tags,
          summary: 'The incident’s timeline',
          params: Params,
          response: {
            200: Type.Object({
              ok: Ok,
              events: Type.Array(
                Type.Object({ seq: Type.Integer(), kind: Type.String(), data: Type.Unknown(), at: Type.String({ format: 'date-time' }) }),
              ),
            }),
            ...errors(404),
          },
        },
      },
      async (req) => ({ ok: true as const, events: await incidents.events(req.caller!, req.params.incidentId) }),
    );

    app.post(
      '/api/admin/identity/incidents/:incidentId/approvals',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'approveIncidentChange',
          tags,
          summary: 'Record an approval (verbal only for SEV1: a retroactive change request is then due within 24 hours)',
          params: Params,
          body: Type.Object(
            {
              changeKind: Type.String({ minLength: 1, maxLength: 60 }),
              approver: Type.String({ minLength: 1, maxLength: 200 }),
              verbal: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          response: { 201: One[200], ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({ ok: true as const, incident: await incidents.approve(req.caller!, req.params.incidentId, req.body) }),
    );

    app.post(
      '/api/admin/identity/incidents/:incidentId/approvals/:approvalId/change-request',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'fileChangeRequest',
          tags,
          summary: 'File the retroactive change request of a verbal approval',
          params: Type.Object({ incidentId: Id('incident id'), approvalId: Id('approval id') }),
          body: Type.Object({ changeRequestId: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
          response: { ...One, ...errors(404, 409) },
        },
      },
      async (req) => ({
        ok: true as const,
        incident: await incidents.fileChangeRequest(req.caller!, req.params.incidentId, req.params.approvalId, req.body.changeRequestId),
      }),
    );

    app.post(
      '/api/admin/identity/incidents/:incidentId/snapshots',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'snapshotPolicy',
          tags,
          summary: 'Take a policy snapshot before an edit',
          params: Params,
          body: Type.Object(
            { policy: Type.String({ minLength: 1, maxLength: 200 }), snapshot: Type.Record(Type.String(), Type.Unknown()) },
            { additionalProperties: false },
          ),
          response: { 201: One[200], ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({ ok: true as const, incident: await incidents.snapshot(req.caller!, req.params.incidentId, req.body) }),
    );

    app.post(
      '/api/admin/identity/incidents/:incidentId/changes',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'recordIncidentChange',
          tags,
          summary: 'Record a change made for the incident (a conditional-access change needs an approval and a snapshot first)',
          params: Params,
          body: Type.Object(
            {
              kind: Type.String({ minLength: 1, maxLength: 60 }),
              summary: Type.String({ minLength: 1, maxLength: 500 }),
              policy: Type.Optional(Type.String({ maxLength: 200 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, change: Type.Ref(ChangeSchema) }), ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({ ok: true as const, change: await incidents.recordChange(req.caller!, req.params.incidentId, req.body) }),
    );

    app.post(
      '/api/admin/identity/incidents/:incidentId/verify',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'verifyIncidentFix',
          tags,
          summary:
            'Run the verification checklist: token as the failing identity, workspace read, lakehouse count, pipeline run, sign-ins since the fix',
          params: Params,
          body: Type.Object(
            {
              identity: ProbeIdentitySchema,
              workspaceId: PlatformWorkspaceId(),
              pipelineId: Id('pipeline item id'),
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
          response: { ...One, ...errors(404, 409) },
        },
      },
      async (req) => ({ ok: true as const, incident: await incidents.verify(req.caller!, req.params.incidentId, req.body) }),
    );

    app.post(
      '/api/admin/identity/incidents/:incidentId/close',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'closeIncident',
          tags,
          summary: 'Close the incident (only after monitoring for twice its duration)',
          params: Params,
          response: { ...One, ...errors(404, 409) },
        },
      },
      async (req) => ({ ok: true as const, incident: await incidents.close(req.caller!, req.params.incidentId) }),
    );
  };
