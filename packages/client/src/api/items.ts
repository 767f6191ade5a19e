import { key, page, query, rest, type Transport } from '../transport.js';
import type { Item, ItemType, PageOptions, RequestBody, Result } from '../types.js';

/** Items of a workspace, and their stored content. */
export function itemsApi(t: Transport) {
  const items = {
    /** Every item type, and whether an install provisions it live. */
    types: () => t.run('listItemTypes', (i) => t.api.GET('/api/item-types', i), key<ItemType[]>('itemTypes')),
    list: (workspaceId: string, o?: PageOptions & { itemType?: string }) =>
      t.run(
        'listItems',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/items', { ...i, params: { path: { workspaceId }, query: query(o) } }),
        page<Item>('items'),
      ),
    iterate: (workspaceId: string, o?: { limit?: number; itemType?: string }) =>
      t.pages((cursor) => items.list(workspaceId, { ...o, cursor })),
    create: (workspaceId: string, body: RequestBody<'createItem'>) =>
      t.run(
        'createItem',
        (i) => t.api.POST('/api/workspaces/{workspaceId}/items', { ...i, params: { path: { workspaceId } }, body }),
        key<Item>('item'),
      ),
    get: (workspaceId: string, itemId: string) =>
      t.run(
        'getItem',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/items/{itemId}', { ...i, params: { path: { workspaceId, itemId } } }),
        key<Item>('item'),
      ),
    update: (workspaceId: string, itemId: string, body: RequestBody<'updateItem'>) =>
      t.run(
        'updateItem',
        (i) => t.api.PATCH('/api/workspaces/{workspaceId}/items/{itemId}', { ...i, params: { path: { workspaceId, itemId } }, body }),
        key<Item>('item'),
      ),
    delete: (workspaceId: string, itemId: string) =>
      t.run(
        'deleteItem',
        (i) => t.api.DELETE('/api/workspaces/{workspaceId}/items/{itemId}', { ...i, params: { path: { workspaceId, itemId } } }),
        key<string>('deleted'),
      ),
    /** The stored content and its ETag. */
    getContent: (workspaceId: string, itemId: string) =>
      t.run(
        'getItemContent',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/items/{itemId}/content', { ...i, params: { path: { workspaceId, itemId } } }),
        rest<Result<'getItemContent'>>,
      ),
    /** Saves content; `ifMatch` is the ETag read (or '*'); answers the new ETag. */
    putContent: (workspaceId: string, itemId: string, content: unknown, ifMatch: string) =>
      t.run(
        'putItemContent',
        (i) =>
          t.api.PUT('/api/workspaces/{workspaceId}/items/{itemId}/content', {
            ...i,
            params: { path: { workspaceId, itemId }, header: { 'if-match': ifMatch } },
            body: { content },
          }),
        key<string>('etag'),
      ),
  };
  return items;
}
