import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allPages, api, ApiError } from './client';
import type { InstallJob, StepStatus, TargetOverrides } from './types';

/** The client's polling interval of install jobs (SPEC.md: every 5 s). */
const POLL_MS = 5000;

const isRunning = (job: InstallJob | undefined) => !job || job.status === 'running';

/** One install job, polled every 5 s while it runs; the query lives in the app-wide client, so it outlives any dialog. */
export const useJob = (jobId: string | undefined) =>
  useQuery({
    queryKey: ['job', jobId],
    queryFn: async () => (await api<{ job: InstallJob }>('GET', `/api/apps/install-jobs/${jobId}`)).job,
    enabled: !!jobId,
    refetchInterval: (q) => (isRunning(q.state.data) ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });

/** Install jobs of the tenant, or of one workspace; with `follow`, polled every 5 s while any of them runs. */
export const useJobs = (workspaceId?: string, follow = false) =>
  useQuery({
    queryKey: ['jobs', workspaceId ?? 'all'],
    queryFn: () => allPages<InstallJob>(`/api/apps/install-jobs${workspaceId ? `?workspaceId=${workspaceId}` : ''}`, 'jobs'),
    refetchInterval: (q) => (follow && q.state.data?.some((j) => j.status === 'running') ? POLL_MS : false),
  });

/** A provisioning step result as it landed on the event stream, before the report exists. */
export interface StepEvent {
  stepIndex: number;
  itemType: string;
  displayName: string;
  status: StepStatus;
}

/** Step results seen on a job's event stream, by step index. */
export const useStepEvents = (jobId: string | undefined) =>
  useQuery({
    queryKey: ['job-steps', jobId],
    queryFn: () => ({}) as Record<number, StepEvent>,
    enabled: false,
    initialData: {} as Record<number, StepEvent>,
    staleTime: Infinity,
  });

/** Follows a running job's event stream so progress and per-item results show as they land, between polls. */
export function useJobEvents(jobId: string | undefined, running: boolean) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!jobId || !running || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/apps/install-jobs/${jobId}/events`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.refetchQueries({ queryKey: ['job', jobId] }, { cancelRefetch: false });
      }, 300);
    };
    for (const kind of ['phase', 'item-created', 'done', 'failed']) source.addEventListener(kind, refresh);
    source.addEventListener('step', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as StepEvent;
      qc.setQueryData<Record<number, StepEvent>>(['job-steps', jobId], (old) => ({ ...old, [data.stepIndex]: data }));
      refresh();
    });
    // The service ends the stream with the job (a retried job's replay holds an earlier run's done); polling carries on.
    source.onerror = () => source.close();
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [jobId, running, qc]);
}

export interface InstallRequest {
  appId: string;
  workspaceId: string;
  deploy: boolean;
  mode: 'shared' | 'dedicated';
  targetOverrides?: TargetOverrides;
}

export const useStartInstall = () =>
  useMutation({
    mutationFn: ({ appId, ...body }: InstallRequest) =>
      api<{ jobId: string; totalItems: number }>('POST', `/api/apps/${appId}/install`, body),
  });

/**
 * Re-opens one provisioning step for the service's worker (202). The answer is the job, running again: it goes in the
 * cache, so polling and the event stream follow it to its recomputed report as they follow an install.
 */
export const useRetryStep = (jobId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (stepIndex: number) =>
      (await api<{ job: InstallJob }>('POST', `/api/apps/install-jobs/${jobId}/steps/${stepIndex}/retry`)).job,
    onSuccess: (job) => {
      qc.setQueryData(['job', jobId], job);
      void qc.invalidateQueries({ queryKey: ['jobs'] });
    },
  });
};

/** Polls a job until no worker runs it (the next retry is accepted then), for at most `ms`. */
async function settled(jobId: string, ms = 180_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    const { job } = await api<{ job: InstallJob }>('GET', `/api/apps/install-jobs/${jobId}`);
    if (job.status !== 'running') return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the install is still running after 3 minutes; retry the remaining gated steps once it has finished');
}

/**
 * "Retry all gated steps": the per-step retry route, one call per step, in order. Several steps are re-opened one
 * after another until a worker claims the job; a step refused with 409 job_running waits for that run to end and is
 * sent again. Each accepted answer goes in the cache, so the page follows the job as for one retry.
 */
export const useRetryGated = (jobId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (stepIndexes: number[]) => {
      for (const stepIndex of stepIndexes) {
        for (;;) {
          try {
            const { job } = await api<{ job: InstallJob }>('POST', `/api/apps/install-jobs/${jobId}/steps/${stepIndex}/retry`);
            qc.setQueryData(['job', jobId], job);
            break;
          } catch (err) {
            if (!(err instanceof ApiError && err.code === 'job_running')) throw err;
            await settled(jobId);
          }
        }
      }
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['job', jobId] });
      void qc.invalidateQueries({ queryKey: ['jobs'] });
    },
  });
};
