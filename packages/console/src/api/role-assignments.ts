import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from './access';
import { allPages, api } from './client';
import type { Schema } from './schemas';

/** A user of the tenant or a group the service has seen, as role assignments and the principal search name it. */
export type Principal = Schema<'Principal'>;

/** One principal's role on one workspace. */
export type RoleAssignment = Schema<'RoleAssignment'>;

const path = (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/role-assignments`;

/** Every role assignment of a workspace (all pages). */
export const useRoleAssignments = (workspaceId: string, enabled = true) =>
  useQuery({
    queryKey: ['role-assignments', workspaceId],
    enabled,
    queryFn: () => allPages<RoleAssignment>(path(workspaceId), 'roleAssignments'),
  });

/** Users and groups the service knows whose name, email or id matches `search` (the first page: the search narrows it). */
export const usePrincipals = (search: string, enabled: boolean) =>
  useQuery({
    queryKey: ['principals', search],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api<{ principals: Principal[] }>('GET', `/api/principals?limit=20&search=${encodeURIComponent(search)}`)).principals,
  });

/** Add, change and remove; each refreshes the list and the workspace (the caller's own role may have changed). */
export const useRoleAssignmentMutations = (workspaceId: string) => {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['role-assignments', workspaceId] });
    void qc.invalidateQueries({ queryKey: ['workspace', workspaceId] });
    void qc.invalidateQueries({ queryKey: ['workspaces'] });
  };
  return {
    add: useMutation({
      mutationFn: async (body: { principal: { type: Principal['type']; id: string }; role: Role }) =>
        (await api<{ roleAssignment: RoleAssignment }>('POST', path(workspaceId), body)).roleAssignment,
      onSuccess: refresh,
    }),
    change: useMutation({
      mutationFn: async ({ id, role }: { id: string; role: Role }) =>
        (await api<{ roleAssignment: RoleAssignment }>('PATCH', `${path(workspaceId)}/${encodeURIComponent(id)}`, { role })).roleAssignment,
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api('DELETE', `${path(workspaceId)}/${encodeURIComponent(id)}`),
      onSuccess: refresh,
    }),
  };
};
