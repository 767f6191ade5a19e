import { SvcTimeoutError } from '../errors.js';
import { key, page, query, sleep, type Transport } from '../transport.js';
import type { Job, JobKind, PageOptions, WaitOptions } from '../types.js';
import { eventStream } from './installs.js';

/** Jobs of every kind (install, upgrade, uninstall, apply, drift): poll, wait, list a workspace's, retry a step, events. */
export function jobsApi(t: Transport) {
  const jobs = {
    get: (jobId: string) => t.run('getJob', (i) => t.api.GET('/api/jobs/{jobId}', { ...i, params: { path: { jobId } } }), key<Job>('job')),
    list: (workspaceId: string, o?: PageOptions & { kind?: JobKind }) =>
      t.run(
        'listWorkspaceJobs',
        (i) => t.api.GET('/api/workspaces/{workspaceId}/jobs', { ...i, params: { path: { workspaceId }, query: query(o) } }),
        page<Job>('jobs'),
      ),
    iterate: (workspaceId: string, o?: { limit?: number; kind?: JobKind }) => t.pages((cursor) => jobs.list(workspaceId, { ...o, cursor })),
    /** Re-opens a failed or remediation step of a finished job (202): answers the job, running again; follow it with `wait`. */
    retryStep: (jobId: string, stepIndex: number) =>
      t.run(
        'retryJobStep',
        (i) => t.api.POST('/api/jobs/{jobId}/steps/{stepIndex}/retry', { ...i, params: { path: { jobId, stepIndex: String(stepIndex) } } }),
        key<Job>('job'),
      ),
    /** Polls the job every `intervalMs` (default 5 s) until its status is not running; returns the final job. */
    wait: async (jobId: string, o: WaitOptions<Job> = {}): Promise<Job> => {
      const interval = o.intervalMs ?? 5000;
      const deadline = Date.now() + (o.timeoutMs ?? 600_000);
      for (;;) {
        const job = await jobs.get(jobId);
        o.onProgress?.(job);
        if (job.status !== 'running') return job;
        if (Date.now() + interval > deadline)
          throw new SvcTimeoutError(`${job.kind} job ${jobId} still running (${job.percentComplete}%)`, job);
        await sleep(interval);
      }
    },
    /** The job's server-sent events (phase, step, step-retried, done), replayed after `lastEventId`. */
    events: async function* (jobId: string, o: { lastEventId?: string } = {}) {
      yield* eventStream(
        'streamJobEvents',
        await t.api.GET('/api/jobs/{jobId}/events', {
          params: { path: { jobId }, header: o.lastEventId ? { 'last-event-id': o.lastEventId } : {} },
          headers: { accept: 'text/event-stream' },
          parseAs: 'stream',
        }),
      );
    },
    /** Pushes an item's stored content to its live resource (202): answers the apply job; follow it with `wait`. */
    apply: (workspaceId: string, itemId: string) =>
      t.run(
        'applyItem',
        (i) => t.api.POST('/api/workspaces/{workspaceId}/items/{itemId}/apply', { ...i, params: { path: { workspaceId, itemId } } }),
        key<Job>('job'),
      ),
  };
  return jobs;
}
