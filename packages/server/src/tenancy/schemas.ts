import { Type } from '@sinclair/typebox';
import { Ok, PlatformWorkspaceId } from '../http/schemas.js';
import { GUID_PATTERN } from '../values.js';
import { NAME_PATTERNS, RESOURCE_KINDS, TARGET_KINDS } from './resources.js';

const TenantId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'service tenant id' });

export const TenantSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    platformWorkspaces: Type.Integer({ description: 'platform workspaces assigned' }),
    targets: Type.Integer({ description: 'install targets assigned (KQL clusters, search services, warehouses, lakes)' }),
  },
  { $id: 'Tenant' },
);

const Settings = Type.Object({
  address: Type.Optional(Type.String()),
  resourceId: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  workspace: Type.Optional(Type.String()),
  database: Type.Optional(Type.String()),
  container: Type.Optional(Type.String()),
  vaultSecretName: Type.Optional(Type.String({ description: 'application: the vault secret its rotations write' })),
});

export const AssignmentSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union(RESOURCE_KINDS.map((k) => Type.Literal(k))),
    resource: Type.String({ description: 'the platform workspace id, or the target’s host[:port]' }),
    tenantId: Type.String(),
    settings: Settings,
    isDefault: Type.Boolean({ description: 'what shared-mode installs and unbound workspaces of the tenant use for this kind' }),
    assignedBy: Type.Union([Type.String(), Type.Null()]),
    assignedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ResourceAssignment' },
);

export const NewTenant = Type.Object(
  {
    id: TenantId,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  },
  { additionalProperties: false },
);

export const NewPlatformWorkspace = Type.Object({ platformWorkspaceId: PlatformWorkspaceId() }, { additionalProperties: false });

export const NewTarget = Type.Object(
  {
    kind: Type.Union(TARGET_KINDS.map((k) => Type.Literal(k))),
    address: Type.String({
      minLength: 1,
      maxLength: 300,
      description:
        'https://host or host[:port] under the cloud’s DNS suffixes (kql-cluster: its URI; search-service: its URI; warehouse: its T-SQL server; lake: the account’s host)',
    }),
    resourceId: Type.Optional(
      Type.String({
        pattern: NAME_PATTERNS.kqlClusterResourceId,
        description: 'kql-cluster: ARM id of the cluster (needed to create databases)',
      }),
    ),
    location: Type.Optional(Type.String({ pattern: NAME_PATTERNS.location, description: 'kql-cluster: region of new databases' })),
    workspace: Type.Optional(
      Type.String({ pattern: NAME_PATTERNS.warehouseWorkspace, description: 'warehouse: the Synapse workspace name (required)' }),
    ),
    database: Type.Optional(
      Type.String({ pattern: NAME_PATTERNS.warehouseDatabase, description: 'warehouse: the dedicated pool (required)' }),
    ),
    container: Type.Optional(Type.String({ pattern: NAME_PATTERNS.lakeContainer, description: 'lake: the container' })),
  },
  { additionalProperties: false },
);

export const NewApplication = Type.Object(
  {
    clientId: Type.String({ pattern: GUID_PATTERN, description: 'the app registration’s client (application) id' }),
    vaultSecretName: Type.Optional(
      Type.String({
        pattern: '^[0-9A-Za-z-]{1,127}$',
        description: 'the vault secret its rotations write the new secret to (assigned with it)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TenantParams = Type.Object({ tenantId: TenantId });
export const AssignmentAnswer = Type.Object({ ok: Ok, assignment: Type.Ref(AssignmentSchema) });
export const TENANCY_SCHEMAS = [TenantSchema, AssignmentSchema];
