import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { ThreadEdge } from './types';

export const useEdges = (workspaceId: string) =>
  useQuery({
    queryKey: ['edges', workspaceId],
    queryFn: async () => (await api<{ edges: ThreadEdge[] }>('GET', `/api/workspaces/${workspaceId}/thread/edges`)).edges,
  });

export const useEdgeMutations = (workspaceId: string) => {
  const qc = useQueryClient();
  const onSuccess = () => qc.invalidateQueries({ queryKey: ['edges', workspaceId] });
  return {
    add: useMutation({
      mutationFn: (body: { fromItemId: string; toItemId: string; kind: string }) =>
        api('POST', `/api/workspaces/${workspaceId}/thread/edges`, body),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (edgeId: string) => api('DELETE', `/api/workspaces/${workspaceId}/thread/edges/${edgeId}`),
      onSuccess,
    }),
  };
};
