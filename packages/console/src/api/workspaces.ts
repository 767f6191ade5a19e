import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allPages, api } from './client';
import type { Workspace } from './types';

/** The workspace list's query: the first page after sign-in, which the sign-in starts alongside the caller's identity. */
export const workspacesQuery = { queryKey: ['workspaces'], queryFn: () => allPages<Workspace>('/api/workspaces', 'workspaces') };

export const useWorkspaces = () => useQuery(workspacesQuery);

export const useWorkspace = (id: string) =>
  useQuery({
    queryKey: ['workspace', id],
    enabled: !!id,
    queryFn: async () => (await api<{ workspace: Workspace }>('GET', `/api/workspaces/${id}`)).workspace,
  });

/** Create, update (rename or bind) and delete, each refreshing the lists it changes. */
export const useWorkspaceMutations = () => {
  const qc = useQueryClient();
  const refresh = (id?: string) => {
    void qc.invalidateQueries({ queryKey: ['workspaces'] });
    if (id) void qc.invalidateQueries({ queryKey: ['workspace', id] });
  };
  return {
    create: useMutation({
      mutationFn: async (body: { name: string; description?: string }) =>
        (await api<{ workspace: Workspace }>('POST', '/api/workspaces', body)).workspace,
      onSuccess: (ws) => refresh(ws.id),
    }),
    update: useMutation({
      mutationFn: async ({ id, ...body }: { id: string; name?: string; description?: string; platformWorkspaceId?: string | null }) =>
        (await api<{ workspace: Workspace }>('PATCH', `/api/workspaces/${id}`, body)).workspace,
      onSuccess: (ws) => refresh(ws.id),
    }),
    remove: useMutation({
      mutationFn: (id: string) => api('DELETE', `/api/workspaces/${id}`),
      onSuccess: (_r, id) => {
        qc.removeQueries({ queryKey: ['workspace', id] });
        refresh();
      },
    }),
  };
};
