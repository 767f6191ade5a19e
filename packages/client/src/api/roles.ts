import { key, page, query, type Transport } from '../transport.js';
import type { PageOptions, Principal, RequestBody, RoleAssignment, WorkspaceRole } from '../types.js';

/**
 * A workspace's role assignments: Viewer lists them, Member adds, changes and removes Contributors and Viewers, Admin
 * every role. A workspace the caller has no role in answers SvcNotFoundError; a role too low, SvcForbiddenError with
 * code `workspace_role_required`.
 */
export function rolesApi(t: Transport) {
  const roles = {
    list: (workspaceId: string, o?: PageOptions) =>
      t.run(
        'listRoleAssignments',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/role-assignments', { ...i, params: { path: { workspaceId }, query: query(o) } }),
        page<RoleAssignment>('roleAssignments'),
      ),
    iterate: (workspaceId: string, o?: Omit<PageOptions, 'cursor'>) => t.pages((cursor) => roles.list(workspaceId, { ...o, cursor })),
    /** Gives a user of the tenant or a group a role on the workspace (201); SvcConflictError when it already holds one. */
    add: (workspaceId: string, body: RequestBody<'addRoleAssignment'>) =>
      t.run(
        'addRoleAssignment',
        (i) => t.api.POST('/api/workspaces/{workspaceId}/role-assignments', { ...i, params: { path: { workspaceId } }, body }),
        key<RoleAssignment>('roleAssignment'),
      ),
    /** Changes an assignment's role; demoting the last Admin is SvcConflictError `last_admin`. */
    update: (workspaceId: string, assignmentId: string, role: WorkspaceRole) =>
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
    /** Removes an assignment; removing the last Admin is SvcConflictError `last_admin`. */
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
  };
  return roles;
}

/** The principals an assignment can name: users of the caller's tenant and the groups the service has seen at sign-in. */
export function principalsApi(t: Transport) {
  return {
    /** Users and groups whose name, email or id matches `search` (all of them without one), one page. */
    search: (search?: string, o?: PageOptions) =>
      t.run(
        'searchPrincipals',
        (i) => t.api.GET('/api/principals', { ...i, params: { query: { ...query(o), ...(search ? { search } : {}) } } }),
        page<Principal>('principals'),
      ),
  };
}
