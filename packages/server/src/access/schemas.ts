import { Type } from '@sinclair/typebox';
import { Id } from '../http/schemas.js';
import { PRINCIPAL_TYPES, WORKSPACE_ROLES } from './roles.js';

export const WorkspaceRoleSchema = Type.Union(
  [...WORKSPACE_ROLES].reverse().map((r) => Type.Literal(r)),
  { description: 'Admin > Member > Contributor > Viewer' },
);

export const RoleSourceSchema = Type.Union([Type.Literal('user'), Type.Literal('group'), Type.Literal('tenant-admin')], {
  description: 'user: a direct assignment; group: through a group of the session; tenant-admin: the admin scope',
});

const PrincipalType = Type.Union(PRINCIPAL_TYPES.map((t) => Type.Literal(t)));

export const PrincipalSchema = Type.Object(
  {
    id: Type.String(),
    type: PrincipalType,
    displayName: Type.String({ description: 'a user’s name; a group’s object id (id tokens carry group ids only)' }),
    email: Type.Optional(Type.String()),
  },
  { $id: 'Principal' },
);

export const RoleAssignmentSchema = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    principal: Type.Ref(PrincipalSchema),
    role: WorkspaceRoleSchema,
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String({ description: 'the user id that added it' }),
  },
  { $id: 'RoleAssignment' },
);

export const NewRoleAssignment = Type.Object(
  {
    principal: Type.Object(
      {
        type: PrincipalType,
        id: Id('a user id of the tenant, or a group’s object id (a GUID)'),
      },
      { additionalProperties: false },
    ),
    role: WorkspaceRoleSchema,
  },
  { additionalProperties: false },
);

export const ACCESS_SCHEMAS = [PrincipalSchema, RoleAssignmentSchema];
