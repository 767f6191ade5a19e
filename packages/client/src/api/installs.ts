import { errorFromResponse, SvcProtocolError, SvcTimeoutError } from '../errors.js';
import { key, page, query, rest, sleep, type Transport } from '../transport.js';
import type { InstallEvent, InstallJob, PageOptions, RequestBody, Result, WaitOptions } from '../types.js';

/** App installs: plan one, start it, follow its job, retry a gated step. */
export function installsApi(t: Transport) {
  const installs = {
    /** Starts an install (202); poll with `get` or `wait`. */
    start: (appId: string, body: RequestBody<'installApp'>) =>
      t.run(
        'installApp',
        (i) => t.api.POST('/api/apps/{appId}/install', { ...i, params: { path: { appId } }, body }),
        rest<Result<'installApp'>>,
      ),
    /** What an install with this body would do, item by item (create, update with a diff, no-change, blocked with the gate), reading live state only. */
    plan: (appId: string, body: RequestBody<'planInstall'>) =>
      t.run(
        'planInstall',
        (i) => t.api.POST('/api/apps/{appId}/plan', { ...i, params: { path: { appId } }, body }),
        key<Result<'planInstall'>['plan']>('plan'),
      ),
    get: (jobId: string) =>
      t.run(
        'getInstallJob',
        (i) => t.api.GET('/api/apps/install-jobs/{jobId}', { ...i, params: { path: { jobId } } }),
        key<InstallJob>('job'),
      ),
    list: (o?: PageOptions & { workspaceId?: string }) =>
      t.run('listInstallJobs', (i) => t.api.GET('/api/apps/install-jobs', { ...i, params: { query: query(o) } }), page<InstallJob>('jobs')),
    iterate: (o?: { limit?: number; workspaceId?: string }) => t.pages((cursor) => installs.list({ ...o, cursor })),
    /** Re-opens one provisioning step for the service's worker (202): answers the job, running again; follow it with `wait`. */
    retryStep: (jobId: string, stepIndex: number) =>
      t.run(
        'retryInstallStep',
        (i) =>
          t.api.POST('/api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry', {
            ...i,
            params: { path: { jobId, stepIndex: String(stepIndex) } },
          }),
        key<InstallJob>('job'),
      ),
    /** Polls the job every `intervalMs` (default 5 s) until its status is not running; returns the final job. */
    wait: async (jobId: string, o: WaitOptions = {}): Promise<InstallJob> => {
      const interval = o.intervalMs ?? 5000;
      const deadline = Date.now() + (o.timeoutMs ?? 600_000);
      for (;;) {
        const job = await installs.get(jobId);
        o.onProgress?.(job);
        if (job.status !== 'running') return job;
        if (Date.now() + interval > deadline)
          throw new SvcTimeoutError(`install job ${jobId} still running (${job.percentComplete}%)`, job);
        await sleep(interval);
      }
    },
    /** The job's server-sent events (phase, item-created, step, done), replayed after `lastEventId`. */
    events: (jobId: string, o: { lastEventId?: string } = {}) => installEvents(t, jobId, o.lastEventId),
  };
  return installs;
}

/** An install job's server-sent events, parsed, replayed after `lastEventId`. */
async function* installEvents(t: Transport, jobId: string, lastEventId?: string): AsyncGenerator<InstallEvent> {
  yield* eventStream(
    'streamInstallJobEvents',
    await t.api.GET('/api/apps/install-jobs/{jobId}/events', {
      params: { path: { jobId }, header: lastEventId ? { 'last-event-id': lastEventId } : {} },
      headers: { accept: 'text/event-stream' },
      parseAs: 'stream',
    }),
  );
}

/** The server-sent events of an answered event-stream request, parsed. */
export async function* eventStream(
  operation: string,
  { response, error }: { response: Response; error?: unknown },
): AsyncGenerator<InstallEvent> {
  if (!response.ok) throw errorFromResponse(response, error);
  if (!response.body) throw new SvcProtocolError(`${operation}: no event stream`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: InstallEvent = { event: 'message', data: undefined };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'data') data.push(value);
      }
      if (!data.length) continue;
      try {
        event.data = JSON.parse(data.join('\n'));
      } catch {
        event.data = data.join('\n');
      }
      yield event;
    }
  }
}
