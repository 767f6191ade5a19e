import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Name, Ok, PlatformWorkspaceId } from '../../http/schemas.js';
import type { IdentityService } from '../identity-service.js';
import { ChangeSchema } from '../schemas.js';

const tags = ['identity'];
const Ws = Type.Object({ workspaceId: PlatformWorkspaceId() });
const Rule = Type.Object({ id: Type.String(), name: Type.String(), startIpAddress: Type.String(), endIpAddress: Type.String() });
const Ipv4 = Type.String({ format: 'ipv4' });
const IncidentId = Type.Optional(Id('the incident this change belongs to'));
const Assignment = Type.Object({
  id: Type.String(),
  principal: Type.Object({ id: Type.String(), type: Type.String(), displayName: Type.Optional(Type.String()) }),
  role: Type.String(),
});

/** Fixes with rollback: firewall rules, role grants, the change journal. */
export const fixRoutes =
  (identity: IdentityService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { fixes, journal } = identity;
    app.get(
      '/api/admin/identity/workspaces/:workspaceId/firewall-rules',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listFirewallRules',
          tags,
          summary: 'The platform workspace’s firewall rules',
          params: Ws,
          response: { 200: Type.Object({ ok: Ok, rules: Type.Array(Rule) }), ...errors(404, 424, 502) },
        },
      },
      async (req) => ({ ok: true as const, rules: await fixes.listFirewallRules(req.params.workspaceId) }),
    );

    app.get(
      '/api/admin/identity/workspaces/:workspaceId/firewall-check',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'checkEgressAddress',
          tags,
          summary: 'Whether an egress address is inside the workspace’s firewall ranges',
          params: Ws,
          querystring: Type.Object({ ip: Ipv4 }, { additionalProperties: false }),
          response: {
            200: Type.Object({
              ok: Ok,
              ip: Type.String(),
              allowed: Type.Boolean(),
              allowingRules: Type.Array(Rule),
              ruleCount: Type.Integer(),
            }),
            ...errors(404, 424, 502),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await fixes.checkEgress(req.params.workspaceId, req.query.ip)) }),
    );

    app.post(
      '/api/admin/identity/workspaces/:workspaceId/firewall-rules',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'addFirewallRule',
          tags,
          summary: 'Add a firewall rule (journaled; rolling back deletes it)',
          params: Ws,
          body: Type.Object(
            {
              name: Name(128, 'the rule’s name; at least one visible character'),
              startIpAddress: Ipv4,
              endIpAddress: Ipv4,
              incidentId: IncidentId,
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, rule: Rule, change: Type.Ref(ChangeSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req, reply) => {
        const { incidentId, ...rule } = req.body;
        return reply
          .status(201)
          .send({ ok: true as const, ...(await fixes.addFirewallRule(req.caller!, req.params.workspaceId, rule, incidentId)) });
      },
    );

    app.delete(
      '/api/admin/identity/workspaces/:workspaceId/firewall-rules/:ruleId',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'removeFirewallRule',
          tags,
          summary: 'Remove a firewall rule (journaled; rolling back adds it again)',
          params: Type.Object({ workspaceId: PlatformWorkspaceId(), ruleId: Id('firewall rule id') }),
          querystring: Type.Object({ incidentId: IncidentId }, { additionalProperties: false }),
          response: { 200: Type.Object({ ok: Ok, change: Type.Ref(ChangeSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req) => ({
        ok: true as const,
        ...(await fixes.removeFirewallRule(req.caller!, req.params.workspaceId, req.params.ruleId, req.query.incidentId)),
      }),
    );

    app.get(
      '/api/admin/identity/workspaces/:workspaceId/role-assignments',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listWorkspaceRoleAssignments',
          tags,
          summary: 'Role assignments on the platform workspace',
          params: Ws,
          response: { 200: Type.Object({ ok: Ok, assignments: Type.Array(Assignment) }), ...errors(404, 424, 502) },
        },
      },
      async (req) => ({ ok: true as const, assignments: await fixes.listRoleAssignments(req.params.workspaceId) }),
    );

    app.post(
      '/api/admin/identity/workspaces/:workspaceId/role-assignments',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'grantWorkspaceRole',
          tags,
          summary: 'Grant a workspace role to a principal (journaled; rolling back deletes the assignment)',
          params: Ws,
          body: Type.Object(
            {
              principalId: Type.String({ pattern: '^[0-9a-fA-F-]{36}$', description: 'object id of the principal' }),
              role: Type.Union(['Admin', 'Member', 'Contributor', 'Viewer'].map((r) => Type.Literal(r))),
              principalType: Type.Optional(
                Type.Union(['ServicePrincipal', 'User', 'Group', 'ServicePrincipalProfile'].map((r) => Type.Literal(r))),
              ),
              incidentId: IncidentId,
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, assignment: Assignment, change: Type.Ref(ChangeSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req, reply) => {
        const { incidentId, ...input } = req.body;
        return reply
          .status(201)
          .send({ ok: true as const, ...(await fixes.grantRole(req.caller!, req.params.workspaceId, input, incidentId)) });
      },
    );

    app.get(
      '/api/admin/identity/changes',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listIdentityChanges',
          tags,
          summary: 'The change journal (newest first)',
          querystring: Type.Object({ incidentId: IncidentId }, { additionalProperties: false }),
          response: { 200: Type.Object({ ok: Ok, changes: Type.Array(Type.Ref(ChangeSchema)) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, changes: await journal.list(req.caller!, { incidentId: req.query.incidentId }) }),
    );

    app.get(
      '/api/admin/identity/changes/:changeId',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'getIdentityChange',
          tags,
          summary: 'One journaled change with its inverse',
          params: Type.Object({ changeId: Id('change id') }),
          response: { 200: Type.Object({ ok: Ok, change: Type.Ref(ChangeSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, change: await journal.get(req.caller!, req.params.changeId) }),
    );

    app.post(
      '/api/admin/identity/changes/:changeId/rollback',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'rollBackIdentityChange',
          tags,
          summary: 'Perform a change’s inverse (delete the added rule, delete the added role assignment, …)',
          params: Type.Object({ changeId: Id('change id') }),
          response: { 200: Type.Object({ ok: Ok, change: Type.Ref(ChangeSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req) => ({ ok: true as const, change: await fixes.rollback(req.caller!, req.params.changeId) }),
    );
  };
