import { key, query, type Transport } from '../transport.js';
import type { Job } from '../types.js';

/** Uninstalling an installed app, as a job (follow it with `jobs.wait`). */
export function appsApi(t: Transport) {
  return {
    /**
     * Uninstalls the app from the workspace (202): answers the uninstall job. Data stores are kept (detached from the
     * app, still stored) unless `purgeData`; 409 job_running while a job of the app runs.
     */
    uninstall: (workspaceId: string, appId: string, o: { purgeData?: boolean } = {}) =>
      t.run(
        'uninstallApp',
        (i) =>
          t.api.DELETE('/api/workspaces/{workspaceId}/apps/{appId}', {
            ...i,
            params: { path: { workspaceId, appId }, query: query(o) as { purgeData?: 'true' | 'false' } },
          }),
        key<Job>('job'),
      ),
  };
}

/** Deleting an item's live resource too: an uninstall job of the one item (a data store too). */
export function itemsUninstallApi(t: Transport) {
  return {
    /** Deletes the item and its live resource (202): answers the uninstall job; follow it with `jobs.wait`. */
    deleteLive: (workspaceId: string, itemId: string) =>
      t.run(
        'deleteItem',
        (i) =>
          t.api.DELETE('/api/workspaces/{workspaceId}/items/{itemId}', {
            ...i,
            params: { path: { workspaceId, itemId }, query: { deleteLive: 'true' } },
          }),
        key<Job>('job'),
      ),
  };
}

/** Deleting a workspace: at once without installed apps; with them 409 workspace_has_apps unless `force`. */
export function workspacesUninstallApi(t: Transport) {
  return {
    /**
     * Deletes the workspace. Answers its id when it was deleted at once; with installed apps and `force`, the uninstall
     * job of every app (202) whose end deletes the workspace (follow it with `jobs.wait`). Data stores are kept unless
     * `purgeData`. Without `force`, installed apps make it throw 409 workspace_has_apps naming them.
     */
    delete: (workspaceId: string, o: { force?: boolean; purgeData?: boolean } = {}): Promise<string | Job> =>
      t.run(
        'deleteWorkspace',
        (i) =>
          t.api.DELETE('/api/workspaces/{workspaceId}', {
            ...i,
            params: { path: { workspaceId }, query: query(o) as { force?: 'true' | 'false'; purgeData?: 'true' | 'false' } },
          }),
        (body) => (body.job ? (body.job as Job) : key<string>('deleted')(body)),
      ),
  };
}
