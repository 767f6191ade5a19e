import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Ok, PageQuery, PlatformWorkspaceId } from '../http/schemas.js';
import { pageRequest } from '../store/paging.js';
import { MAX_EXPIRY_DAYS } from '../auth/token-service.js';
import { ApiTokenSchema } from '../auth/routes.js';
import type { TenancyService } from './tenancy-service.js';
import {
  AssignmentAnswer,
  AssignmentSchema,
  NewApplication,
  NewPlatformWorkspace,
  NewTarget,
  NewTenant,
  TenantParams,
  TenantSchema,
} from './schemas.js';
import { GUID_PATTERN } from '../values.js';

const tags = ['operator'];
const config = { scope: 'operator' as const };
const BASE = '/api/operator/tenants';

/** The deployment operator's routes: tenants, and the platform workspaces and install targets each tenant may use. */
export const operatorRoutes =
  (tenancy: TenancyService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      BASE,
      {
        config,
        schema: {
          operationId: 'listTenants',
          tags,
          summary: 'Every tenant of the deployment, with how many platform workspaces and targets each is assigned',
          querystring: PageQuery,
          response: {
            200: Type.Object({ ok: Ok, tenants: Type.Array(Type.Ref(TenantSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await tenancy.listTenants(pageRequest(req.query))) }),
    );

    app.post(
      BASE,
      {
        config,
        schema: {
          operationId: 'createTenant',
          tags,
          summary: 'Create a tenant (it sees nothing of the others; assign it platform workspaces and targets next)',
          body: NewTenant,
          response: { 201: Type.Object({ ok: Ok, tenant: Type.Ref(TenantSchema) }), ...errors(409) },
        },
      },
      async (req, reply) => reply.status(201).send({ ok: true as const, tenant: await tenancy.createTenant(req.body) }),
    );

    app.get(
      `${BASE}/:tenantId`,
      {
        config,
        schema: {
          operationId: 'getTenant',
          tags,
          summary: 'A tenant',
          params: TenantParams,
          response: { 200: Type.Object({ ok: Ok, tenant: Type.Ref(TenantSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, tenant: await tenancy.getTenant(req.params.tenantId) }),
    );

    app.post(
      `${BASE}/:tenantId/admin-tokens`,
      {
        config,
        schema: {
          operationId: 'createTenantAdminToken',
          tags,
          summary:
            'An admin token of the tenant’s first admin (created when absent), for automation before anyone signs in; the secret is shown once',
          params: TenantParams,
          body: Type.Optional(
            Type.Object(
              { expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXPIRY_DAYS })) },
              { additionalProperties: false },
            ),
          ),
          response: { 201: Type.Object({ ok: Ok, token: Type.Ref(ApiTokenSchema), secret: Type.String() }), ...errors(404) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({ ok: true as const, ...(await tenancy.mintAdminToken(req.params.tenantId, req.body?.expiresInDays)) }),
    );

    app.get(
      `${BASE}/:tenantId/platform-workspaces`,
      {
        config,
        schema: {
          operationId: 'listTenantPlatformWorkspaces',
          tags,
          summary: 'The platform workspaces (and their reporting groups) assigned to the tenant; the default serves its unbound workspaces',
          params: TenantParams,
          response: { 200: Type.Object({ ok: Ok, platformWorkspaces: Type.Array(Type.Ref(AssignmentSchema)) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, platformWorkspaces: await tenancy.assignments(req.params.tenantId, ['platform-workspace']) }),
    );

    app.post(
      `${BASE}/:tenantId/platform-workspaces`,
      {
        config,
        schema: {
          operationId: 'assignPlatformWorkspace',
          tags,
          summary: 'Assign a platform workspace to the tenant (201; 200 when it already is; 409 when another tenant holds it)',
          params: TenantParams,
          body: NewPlatformWorkspace,
          response: { 200: AssignmentAnswer, 201: AssignmentAnswer, ...errors(404, 409) },
        },
      },
      async (req, reply) => {
        const r = await tenancy.assignPlatformWorkspace(req.caller!, req.params.tenantId, req.body.platformWorkspaceId);
        return reply.status(r.created ? 201 : 200).send({ ok: true as const, assignment: r.assignment });
      },
    );

    app.delete(
      `${BASE}/:tenantId/platform-workspaces/:platformWorkspaceId`,
      {
        config,
        schema: {
          operationId: 'unassignPlatformWorkspace',
          tags,
          summary: 'Take a platform workspace from the tenant; its workspaces bound to it are unbound (nothing in the platform is deleted)',
          params: Type.Object({ tenantId: TenantParams.properties.tenantId, platformWorkspaceId: PlatformWorkspaceId() }),
          response: { 200: Type.Object({ ok: Ok, unassigned: Type.String(), unboundWorkspaces: Type.Integer() }), ...errors(404) },
        },
      },
      async (req) => ({
        ok: true as const,
        unassigned: req.params.platformWorkspaceId,
        ...(await tenancy.unassign(req.params.tenantId, 'platform-workspace', req.params.platformWorkspaceId.toLowerCase())),
      }),
    );

    app.get(
      `${BASE}/:tenantId/targets`,
      {
        config,
        schema: {
          operationId: 'listTenantTargets',
          tags,
          summary:
            'The install targets assigned to the tenant: KQL clusters, search services, warehouses, lakes (the first of each kind is its shared set)',
          params: TenantParams,
          response: { 200: Type.Object({ ok: Ok, targets: Type.Array(Type.Ref(AssignmentSchema)) }), ...errors(404) },
        },
      },
      async (req) => ({
        ok: true as const,
        targets: await tenancy.assignments(req.params.tenantId, ['kql-cluster', 'search-service', 'warehouse', 'lake']),
      }),
    );

    app.post(
      `${BASE}/:tenantId/targets`,
      {
        config,
        schema: {
          operationId: 'assignTarget',
          tags,
          summary: 'Assign an install target to the tenant (201; 200 when it already is; 409 when another tenant holds it)',
          params: TenantParams,
          body: NewTarget,
          response: { 200: AssignmentAnswer, 201: AssignmentAnswer, ...errors(404, 409) },
        },
      },
      async (req, reply) => {
        const r = await tenancy.assignTarget(req.caller!, req.params.tenantId, req.body);
        return reply.status(r.created ? 201 : 200).send({ ok: true as const, assignment: r.assignment });
      },
    );

    app.delete(
      `${BASE}/:tenantId/targets/:targetId`,
      {
        config,
        schema: {
          operationId: 'unassignTarget',
          tags,
          summary: 'Take an install target from the tenant (nothing in the target is deleted)',
          params: Type.Object({
            tenantId: TenantParams.properties.tenantId,
            targetId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'the assignment id' }),
          }),
          response: { 200: Type.Object({ ok: Ok, unassigned: Type.String() }), ...errors(404) },
        },
      },
      async (req) => {
        await tenancy.unassignTarget(req.params.tenantId, req.params.targetId);
        return { ok: true as const, unassigned: req.params.targetId };
      },
    );

    app.get(
      `${BASE}/:tenantId/applications`,
      {
        config,
        schema: {
          operationId: 'listTenantApplications',
          tags,
          summary: 'The app registrations whose secrets the tenant’s admins may register and rotate, each with its vault secret',
          params: TenantParams,
          response: { 200: Type.Object({ ok: Ok, applications: Type.Array(Type.Ref(AssignmentSchema)) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, applications: await tenancy.assignments(req.params.tenantId, ['application']) }),
    );

    app.post(
      `${BASE}/:tenantId/applications`,
      {
        config,
        schema: {
          operationId: 'assignApplication',
          tags,
          summary:
            'Assign an app registration (and the vault secret its rotations write) to the tenant (201; 200 when it already is; 409 when another tenant holds either)',
          params: TenantParams,
          body: NewApplication,
          response: { 200: AssignmentAnswer, 201: AssignmentAnswer, ...errors(404, 409) },
        },
      },
      async (req, reply) => {
        const r = await tenancy.assignApplication(req.caller!, req.params.tenantId, req.body);
        return reply.status(r.created ? 201 : 200).send({ ok: true as const, assignment: r.assignment });
      },
    );

    app.delete(
      `${BASE}/:tenantId/applications/:clientId`,
      {
        config,
        schema: {
          operationId: 'unassignApplication',
          tags,
          summary:
            'Take an app registration (and its vault secret) from the tenant; its registered credentials can no longer be rotated there',
          params: Type.Object({
            tenantId: TenantParams.properties.tenantId,
            clientId: Type.String({ pattern: GUID_PATTERN, description: 'the client id' }),
          }),
          response: { 200: Type.Object({ ok: Ok, unassigned: Type.String() }), ...errors(404) },
        },
      },
      async (req) => {
        await tenancy.unassignApplication(req.params.tenantId, req.params.clientId);
        return { ok: true as const, unassigned: req.params.clientId };
      },
    );
  };
