import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allPages, api } from './client';
import type { Body } from './schemas';
import type { Item, ItemType } from './types';

export const useItemTypes = () =>
  useQuery({
    queryKey: ['item-types'],
    queryFn: async () => (await api<{ itemTypes: ItemType[] }>('GET', '/api/item-types')).itemTypes,
    staleTime: Infinity,
  });

export const useItems = (workspaceId: string) =>
  useQuery({ queryKey: ['items', workspaceId], queryFn: () => allPages<Item>(`/api/workspaces/${workspaceId}/items`, 'items') });

export const useItem = (workspaceId: string, itemId: string) =>
  useQuery({
    queryKey: ['item', workspaceId, itemId],
    queryFn: async () => (await api<{ item: Item }>('GET', `/api/workspaces/${workspaceId}/items/${itemId}`)).item,
  });

/** The stored content and the ETag that versions it; not refetched behind the editor's back. */
export const useItemContent = (workspaceId: string, itemId: string) =>
  useQuery({
    queryKey: ['content', workspaceId, itemId],
    queryFn: () => api<{ content: unknown; etag: string }>('GET', `/api/workspaces/${workspaceId}/items/${itemId}/content`),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });

/** Saves content with If-Match; a stale ETag rejects with ApiError code etag_mismatch (412). */
export const saveContent = (workspaceId: string, itemId: string, content: unknown, etag: string) =>
  api<{ etag: string }>('PUT', `/api/workspaces/${workspaceId}/items/${itemId}/content`, { content }, { 'if-match': etag });

export const useCreateItem = (workspaceId: string) => {
  const qc = useQueryClient();
  return useMutation({
    // With deploy true the answer names the apply job that provisions the new item.
    mutationFn: async (body: Body<'createItem'>) => (await api<{ item: Item }>('POST', `/api/workspaces/${workspaceId}/items`, body)).item,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['items', workspaceId] }),
  });
};
