import { key, type Transport } from '../transport.js';
import type { RequestBody, ThreadEdge } from '../types.js';

/** The thread edges between a workspace's items. */
export function threadApi(t: Transport) {
  return {
    list: (workspaceId: string) =>
      t.run(
        'listThreadEdges',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/thread/edges', { ...i, params: { path: { workspaceId } } }),
        key<ThreadEdge[]>('edges'),
      ),
    add: (workspaceId: string, body: RequestBody<'createThreadEdge'>) =>
      t.run(
        'createThreadEdge',
        (i) => t.api.POST('/api/workspaces/{workspaceId}/thread/edges', { ...i, params: { path: { workspaceId } }, body }),
        key<ThreadEdge>('edge'),
      ),
    remove: (workspaceId: string, edgeId: string) =>
      t.run(
        'deleteThreadEdge',
        (i) => t.api.DELETE('/api/workspaces/{workspaceId}/thread/edges/{edgeId}', { ...i, params: { path: { workspaceId, edgeId } } }),
        key<string>('deleted'),
      ),
  };
}
