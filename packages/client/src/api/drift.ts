import { key, type Transport } from '../transport.js';
import type { components } from '../generated/openapi.js';
import type { Job } from '../types.js';

/** One live item in a workspace's last drift check: in-sync, drifted (with its diff), missing; null while unread. */
export type DriftItem = components['schemas']['DriftItem'];

/** A workspace's last drift check: its job and the verdict per live item. */
export interface DriftReport {
  job: Job;
  items: DriftItem[];
}

/** Drift: compare every live item of a workspace with its backing service (a job), and read the last result. */
export function driftApi(t: Transport) {
  return {
    /** Starts a drift check of the workspace (202): answers the drift job; follow it with `jobs.wait`. 409 nothing_to_check without live items. */
    check: (workspaceId: string) =>
      t.run(
        'checkDrift',
        (i) => t.api.POST('/api/workspaces/{workspaceId}/drift', { ...i, params: { path: { workspaceId } } }),
        key<Job>('job'),
      ),
    /** The workspace's last drift check: its job and the verdict per item (404 when none has run). */
    last: (workspaceId: string) =>
      t.run(
        'lastDrift',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/drift', { ...i, params: { path: { workspaceId } } }),
        key<DriftReport>('drift'),
      ),
  };
}
