import { key, page, query, type Transport } from '../transport.js';
import type { InstalledApp, PageOptions, RequestBody, Workspace } from '../types.js';

/** Workspaces of the caller's tenant, and the apps installed in each. */
export function workspacesApi(t: Transport) {
  const workspaces = {
    list: (o?: PageOptions) =>
      t.run('listWorkspaces', (i) => t.api.GET('/api/workspaces', { ...i, params: { query: query(o) } }), page<Workspace>('workspaces')),
    iterate: (o?: Omit<PageOptions, 'cursor'>) => t.pages((cursor) => workspaces.list({ ...o, cursor })),
    create: (body: RequestBody<'createWorkspace'>) =>
      t.run('createWorkspace', (i) => t.api.POST('/api/workspaces', { ...i, body }), key<Workspace>('workspace')),
    get: (workspaceId: string) =>
      t.run(
        'getWorkspace',
        (i) => t.api.GET('/api/workspaces/{workspaceId}', { ...i, params: { path: { workspaceId } } }),
        key<Workspace>('workspace'),
      ),
    update: (workspaceId: string, body: RequestBody<'updateWorkspace'>) =>
      t.run(
        'updateWorkspace',
        (i) => t.api.PATCH('/api/workspaces/{workspaceId}', { ...i, params: { path: { workspaceId } }, body }),
        key<Workspace>('workspace'),
      ),
    // delete: api/uninstall.ts (force and purgeData start an uninstall job).
    /** A page of the apps installed in the workspace, with their status and items. */
    apps: (workspaceId: string, o?: PageOptions) =>
      t.run(
        'listInstalledApps',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/apps', { ...i, params: { path: { workspaceId }, query: query(o) } }),
        page<InstalledApp>('apps'),
      ),
    iterateApps: (workspaceId: string, o?: Omit<PageOptions, 'cursor'>) =>
      t.pages((cursor) => workspaces.apps(workspaceId, { ...o, cursor })),
    /** One installed app: its version against the catalog's current one, status and items (404 when not installed there). */
    app: (workspaceId: string, appId: string) =>
      t.run(
        'getInstalledApp',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/apps/{appId}', { ...i, params: { path: { workspaceId, appId } } }),
        key<InstalledApp>('app'),
      ),
  };
  return workspaces;
}
