import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from './client';
import type { Schema } from './schemas';
import type { PlanItem } from './types';

/** A job of any kind (install, upgrade, uninstall, apply, drift) as GET /api/jobs/{jobId} answers it. */
export type Job = Schema<'Job'>;
export type JobStep = Job['steps'][number];
export type JobStepResult = Schema<'JobStepResult'>;
export type JobKind = Job['kind'];

/** Lifecycle jobs are short: the console polls them every second while they run. */
const POLL_MS = 1000;

/** One job of any kind, polled every second while it runs; the query lives in the app-wide client. */
export const useLifecycleJob = (jobId: string | undefined) =>
  useQuery({
    queryKey: ['lifecycle-job', jobId],
    queryFn: async () => (await api<{ job: Job }>('GET', `/api/jobs/${jobId}`)).job,
    enabled: !!jobId,
    refetchInterval: (q) => (!q.state.data || q.state.data.status === 'running' ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });

/** Pushes an item's stored content to its live resource (202): the apply job. */
export const startApply = async (workspaceId: string, itemId: string) =>
  (await api<{ job: Job }>('POST', `/api/workspaces/${workspaceId}/items/${itemId}/apply`)).job;

/** Reads every live item of the workspace from its backing service and compares it with the stored content (202). */
export const startDriftCheck = async (workspaceId: string) => (await api<{ job: Job }>('POST', `/api/workspaces/${workspaceId}/drift`)).job;

/** Moves an installed app to the catalog's version (202); `removeDropped` removes the items the new version dropped. */
export const startUpgrade = async (workspaceId: string, appId: string, removeDropped: boolean) =>
  (await api<{ job: Job }>('POST', `/api/workspaces/${workspaceId}/apps/${appId}/upgrade`, { removeDropped })).job;

/** Uninstalls an app (202): its live resources, then its stored items; data stores are kept unless `purgeData`. */
export const startUninstall = async (workspaceId: string, appId: string, purgeData: boolean) =>
  (await api<{ job: Job }>('DELETE', `/api/workspaces/${workspaceId}/apps/${appId}?purgeData=${purgeData}`)).job;

/** Deletes a live item's resource and the item (202, an uninstall of that one item). */
export const startDeleteLive = async (workspaceId: string, itemId: string) =>
  (await api<{ job: Job }>('DELETE', `/api/workspaces/${workspaceId}/items/${itemId}?deleteLive=true`)).job;

/**
 * Deletes a workspace. Without `force` a workspace with installed apps is refused (409 workspace_has_apps); with it the
 * service answers 202 with the job that uninstalls them and then deletes the workspace.
 */
export const deleteWorkspace = async (workspaceId: string, force: boolean): Promise<{ job?: Job }> =>
  api<{ job?: Job }>('DELETE', `/api/workspaces/${workspaceId}${force ? '?force=true' : ''}`);

/** One item of a drift check: in-sync, drifted (with the diff of live against stored) or missing. */
export interface DriftItem {
  itemId: string | null;
  displayName: string;
  itemType: string;
  status: string;
  diff?: string;
  error?: string;
  message?: string;
  resourceId?: string;
}

/** The last drift check of a workspace: its job, and its items. */
export interface DriftReport {
  job: Job;
  items: DriftItem[];
}

/** The items of a drift answer: its `items` when they carry a status, else the job's step results. */
function driftItems(raw: { job: Job; items?: Array<Record<string, unknown>> }): DriftItem[] {
  const listed = (raw.items ?? []).filter((i) => typeof (i.status ?? (i.result as { status?: string })?.status) === 'string');
  if (listed.length)
    return listed.map((i) => {
      const r = (i.result ?? i) as Record<string, unknown>;
      return {
        itemId: (i.itemId ?? i.id ?? null) as string | null,
        displayName: String(i.displayName ?? ''),
        itemType: String(i.itemType ?? ''),
        status: String(r.status),
        diff: r.diff as string | undefined,
        error: r.error as string | undefined,
        message: r.message as string | undefined,
        resourceId: r.resourceId as string | undefined,
      };
    });
  return raw.job.steps.flatMap((s) =>
    s.result
      ? [
          {
            itemId: s.itemId,
            displayName: s.displayName,
            itemType: s.itemType,
            status: s.result.status,
            diff: s.result.diff,
            error: s.result.error,
            message: s.result.message,
            resourceId: s.result.resourceId,
          },
        ]
      : [],
  );
}

/** The last drift check of the workspace, or null when none ran (404). */
export const useDriftReport = (workspaceId: string) =>
  useQuery({
    queryKey: ['drift', workspaceId],
    queryFn: async (): Promise<DriftReport | null> => {
      try {
        const r = await api<{ drift: { job: Job; items?: Array<Record<string, unknown>> } }>('GET', `/api/workspaces/${workspaceId}/drift`);
        return { job: r.drift.job, items: driftItems(r.drift) };
      } catch (err) {
        // 404 is "no drift check ran yet"; an unknown workspace or a missing route is an error to show.
        const noCheck =
          err instanceof ApiError && err.status === 404 && err.code !== 'route_not_found' && !/^Workspace '/.test(err.message);
        if (noCheck) return null;
        throw err;
      }
    },
  });

/** What a lifecycle operation would do to an app, per item (the plan's actions of install, upgrade and uninstall). */
export type LifecyclePlanItem = Omit<PlanItem, 'action'> & {
  action: PlanItem['action'] | 'conflict' | 'remove' | 'keep' | 'delete';
  /** A data store deleted under purgeData: its data is lost. */
  dataLoss?: boolean;
  conflicts?: JobStepResult['conflicts'];
};

export interface LifecyclePlan {
  appId: string;
  version?: string;
  fromVersion?: string;
  toVersion?: string;
  items: LifecyclePlanItem[];
}

/** The body of an upgrade or uninstall plan. */
export interface LifecyclePlanRequest {
  workspaceId: string;
  operation: 'upgrade' | 'uninstall';
  removeDropped?: boolean;
  purgeData?: boolean;
}

/** The plan of an upgrade or an uninstall, read from the service when the request changes; never retried on its own. */
export const useLifecyclePlan = (appId: string, body: LifecyclePlanRequest) =>
  useQuery({
    queryKey: ['lifecycle-plan', appId, body],
    queryFn: async () => (await api<{ plan: LifecyclePlan }>('POST', `/api/apps/${appId}/plan`, body)).plan,
    retry: false,
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
