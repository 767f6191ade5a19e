import { key, page, query, type Transport } from '../transport.js';
import type { PageOptions, Principal, RequestBody, RoleAssignment } from '../types.js';

/** A workspace's role assignments, and the principals (users of the tenant, groups seen) they can name. */
export function accessApi(t: Transport) {
  return {
    list: (workspaceId: string, o?: PageOptions) =>
      t.run(
        'listRoleAssignments',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/role-assignments', { ...i, params: { path: { workspaceId }, query: query(o) } }),
        page<RoleAssignment>('roleAssignments'),
      ),
    add: (workspaceId: string, body: RequestBody<'addRoleAssignment'>) =>
      t.run(
        'addRoleAssignment',
        (i) => t.api.POST('/api/workspaces/{workspaceId}/role-assignments', { ...i, params: { path: { workspaceId } }, body }),
        key<RoleAssignment>('roleAssignment'),
      ),
    change: (workspaceId: string, assignmentId: string, role: RoleAssignment['role']) =>
      t.run(
        'changeRoleAssignment',
        (i) =>
          t.api.PATCH('/api/workspaces/{workspaceId}/role-assignments/{assignmentId}', {
            ...i,
            params: { path: { workspaceId, assignmentId } },
            body: { role },
          }),
        key<RoleAssignment>('roleAssignment'),
      ),
    remove: (workspaceId: string, assignmentId: string) =>
      t.run(
        'removeRoleAssignment',
        (i) =>
          t.api.DELETE('/api/workspaces/{workspaceId}/role-assignments/{assignmentId}', {
            ...i,
            params: { path: { workspaceId, assignmentId } },
          }),
        key<true>('deleted'),
      ),
    principals: (search?: string, o?: PageOptions) =>
      t.run(
        'searchPrincipals',
        (i) => t.api.GET('/api/principals', { ...i, params: { query: { ...query(o), ...(search ? { search } : {}) } } }),
        page<Principal>('principals'),
      ),
  };
}
