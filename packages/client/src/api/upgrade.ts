import { key, type Transport } from '../transport.js';
import type { Job } from '../types.js';

/** Installed apps' lifecycle: upgrade to the catalog's current version (follow the job with `client.jobs.wait`). */
export function upgradeApi(t: Transport) {
  return {
    /**
     * Upgrades the app installed in the workspace to the catalog's version (202): answers the upgrade job. Items the new
     * version dropped are kept unless `removeDropped` is true; a conflicting edit is a `conflict` step, never overwritten.
     */
    upgrade: (workspaceId: string, appId: string, o: { removeDropped?: boolean } = {}) =>
      t.run(
        'upgradeApp',
        (i) =>
          t.api.POST('/api/workspaces/{workspaceId}/apps/{appId}/upgrade', {
            ...i,
            params: { path: { workspaceId, appId } },
            body: o.removeDropped === undefined ? {} : { removeDropped: o.removeDropped },
          }),
        key<Job>('job'),
      ),
  };
}
