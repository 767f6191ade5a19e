import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok, PageQuery } from '../http/schemas.js';
import { pageRequest } from '../store/paging.js';
import type { PrincipalService } from './principal-service.js';
import type { RoleAssignmentService } from './role-assignment-service.js';
import { NewRoleAssignment, PrincipalSchema, RoleAssignmentSchema, WorkspaceRoleSchema } from './schemas.js';

const Params = Type.Object({ workspaceId: Id('workspace id') });
const AssignmentParams = Type.Object({ workspaceId: Id('workspace id'), assignmentId: Id('role assignment id') });
const One = Type.Object({ ok: Ok, roleAssignment: Type.Ref(RoleAssignmentSchema) });
const MANAGE =
  'Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed)';

/** Workspace role assignments (list, add, change, remove) and the principals they can name. */
export const accessRoutes =
  (assignments: RoleAssignmentService, principals: PrincipalService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/workspaces/:workspaceId/role-assignments',
      {
        config: { scope: 'read', role: 'Viewer' },
        schema: {
          operationId: 'listRoleAssignments',
          tags: ['access'],
          summary: 'List the workspace’s role assignments',
          params: Params,
          querystring: PageQuery,
          response: {
            200: Type.Object({
              ok: Ok,
              roleAssignments: Type.Array(Type.Ref(RoleAssignmentSchema)),
              nextCursor: Type.Optional(Type.String()),
            }),
            ...errors(404),
          },
        },
      },
      async (req) => ({
        ok: true as const,
        ...(await assignments.list(req.caller!, req.params.workspaceId, pageRequest(req.query))),
      }),
    );

    app.post(
      '/api/workspaces/:workspaceId/role-assignments',
      {
        config: { scope: 'write', role: 'Member' },
        schema: {
          operationId: 'addRoleAssignment',
          tags: ['access'],
          summary: `Give a user of the tenant or a group a role on the workspace: ${MANAGE}; 409 conflict when the principal already has one`,
          params: Params,
          body: NewRoleAssignment,
          response: { 201: One, ...errors(404, 409) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({ ok: true as const, roleAssignment: await assignments.add(req.caller!, req.params.workspaceId, req.body) }),
    );

    app.patch(
      '/api/workspaces/:workspaceId/role-assignments/:assignmentId',
      {
        config: { scope: 'write', role: 'Member' },
        schema: {
          operationId: 'changeRoleAssignment',
          tags: ['access'],
          summary: `Change an assignment’s role: ${MANAGE} (both the old and the new role); 409 last_admin for the last Admin`,
          params: AssignmentParams,
          body: Type.Object({ role: WorkspaceRoleSchema }, { additionalProperties: false }),
          response: { 200: One, ...errors(404, 409) },
        },
      },
      async (req) => ({
        ok: true as const,
        roleAssignment: await assignments.change(req.caller!, req.params.workspaceId, req.params.assignmentId, req.body.role),
      }),
    );

    app.delete(
      '/api/workspaces/:workspaceId/role-assignments/:assignmentId',
      {
        config: { scope: 'write', role: 'Member' },
        schema: {
          operationId: 'removeRoleAssignment',
          tags: ['access'],
          summary: `Remove an assignment: ${MANAGE}; 409 last_admin for the last Admin`,
          params: AssignmentParams,
          response: { 200: Type.Object({ ok: Ok, deleted: Type.Boolean({ description: 'always true' }) }), ...errors(404, 409) },
        },
      },
      async (req) => {
        await assignments.remove(req.caller!, req.params.workspaceId, req.params.assignmentId);
        return { ok: true as const, deleted: true as const };
      },
    );

    app.get(
      '/api/principals',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'searchPrincipals',
          tags: ['access'],
          summary: 'Users of the caller’s tenant and the groups the service has seen at sign-in, matching search on name, email or id',
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({ search: Type.Optional(Type.String({ maxLength: 200, description: 'part of a name, email or id' })) }),
            ],
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ ok: Ok, principals: Type.Array(Type.Ref(PrincipalSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await principals.search(req.caller!, req.query.search, pageRequest(req.query))) }),
    );
  };
