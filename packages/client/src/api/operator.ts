import { key, page, query, rest, type Transport } from '../transport.js';
import type { PageOptions, RequestBody, ResourceAssignment, Result, Tenant } from '../types.js';

/** The deployment operator's calls (scope `operator`): tenants, and the platform workspaces and targets each may use. */
export function operatorApi(t: Transport) {
  return {
    listTenants: (o?: PageOptions) =>
      t.run('listTenants', (i) => t.api.GET('/api/operator/tenants', { ...i, params: { query: query(o) } }), page<Tenant>('tenants')),
    createTenant: (body: RequestBody<'createTenant'>) =>
      t.run('createTenant', (i) => t.api.POST('/api/operator/tenants', { ...i, body }), key<Tenant>('tenant')),
    getTenant: (tenantId: string) =>
      t.run(
        'getTenant',
        (i) => t.api.GET('/api/operator/tenants/{tenantId}', { ...i, params: { path: { tenantId } } }),
        key<Tenant>('tenant'),
      ),
    /** A token of the tenant's first admin (created when absent); `secret` is shown only in this answer. */
    createAdminToken: (tenantId: string, body: RequestBody<'createTenantAdminToken'> = {}) =>
      t.run(
        'createTenantAdminToken',
        (i) => t.api.POST('/api/operator/tenants/{tenantId}/admin-tokens', { ...i, params: { path: { tenantId } }, body }),
        rest<Result<'createTenantAdminToken'>>,
      ),
    listPlatformWorkspaces: (tenantId: string) =>
      t.run(
        'listTenantPlatformWorkspaces',
        (i) => t.api.GET('/api/operator/tenants/{tenantId}/platform-workspaces', { ...i, params: { path: { tenantId } } }),
        key<ResourceAssignment[]>('platformWorkspaces'),
      ),
    assignPlatformWorkspace: (tenantId: string, platformWorkspaceId: string) =>
      t.run(
        'assignPlatformWorkspace',
        (i) =>
          t.api.POST('/api/operator/tenants/{tenantId}/platform-workspaces', {
            ...i,
            params: { path: { tenantId } },
            body: { platformWorkspaceId },
          }),
        key<ResourceAssignment>('assignment'),
      ),
    unassignPlatformWorkspace: (tenantId: string, platformWorkspaceId: string) =>
      t.run(
        'unassignPlatformWorkspace',
        (i) =>
          t.api.DELETE('/api/operator/tenants/{tenantId}/platform-workspaces/{platformWorkspaceId}', {
            ...i,
            params: { path: { tenantId, platformWorkspaceId } },
          }),
        rest<Result<'unassignPlatformWorkspace'>>,
      ),
    listTargets: (tenantId: string) =>
      t.run(
        'listTenantTargets',
        (i) => t.api.GET('/api/operator/tenants/{tenantId}/targets', { ...i, params: { path: { tenantId } } }),
        key<ResourceAssignment[]>('targets'),
      ),
    assignTarget: (tenantId: string, body: RequestBody<'assignTarget'>) =>
      t.run(
        'assignTarget',
        (i) => t.api.POST('/api/operator/tenants/{tenantId}/targets', { ...i, params: { path: { tenantId } }, body }),
        key<ResourceAssignment>('assignment'),
      ),
    unassignTarget: (tenantId: string, targetId: string) =>
      t.run(
        'unassignTarget',
        (i) => t.api.DELETE('/api/operator/tenants/{tenantId}/targets/{targetId}', { ...i, params: { path: { tenantId, targetId } } }),
        key<string>('unassigned'),
      ),
    listApplications: (tenantId: string) =>
      t.run(
        'listTenantApplications',
        (i) => t.api.GET('/api/operator/tenants/{tenantId}/applications', { ...i, params: { path: { tenantId } } }),
        key<ResourceAssignment[]>('applications'),
      ),
    /** An app registration (and the vault secret its rotations write) the tenant's admins may rotate. */
    assignApplication: (tenantId: string, body: RequestBody<'assignApplication'>) =>
      t.run(
        'assignApplication',
        (i) => t.api.POST('/api/operator/tenants/{tenantId}/applications', { ...i, params: { path: { tenantId } }, body }),
        key<ResourceAssignment>('assignment'),
      ),
    unassignApplication: (tenantId: string, clientId: string) =>
      t.run(
        'unassignApplication',
        (i) => t.api.DELETE('/api/operator/tenants/{tenantId}/applications/{clientId}', { ...i, params: { path: { tenantId, clientId } } }),
        key<string>('unassigned'),
      ),
  };
}
