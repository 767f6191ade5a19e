// What bench/install counts of an install's backing calls: the calls themselves (every sandbox request but the identity
// provider's token requests), the ideal for an app, and the sandbox's state in a form two runs can be compared in.
import type { RequestLogEntry, Sandbox } from '@svc/sandbox';

/** The backing calls of an install: every request to a sandbox service but the identity provider's (tokens). */
export const backingCalls = (log: RequestLogEntry[]) => log.filter((r) => r.service !== 'identity');

/** Whether a call polls a long-running operation or reads its result (data platform, resource manager, Synapse). */
export const isOperationPoll = (r: RequestLogEntry) => r.method === 'GET' && /\/(notebookO|o)peration(s|Results)\//i.test(r.path);

/** A job instance call of the data platform (run, get, list, cancel): its Job Scheduler bucket. */
const isJobCall = (r: RequestLogEntry) => /\/jobs\/([^/]+\/)?instances\b/.test(r.path);

/**
 * Whether a call counts against the data platform's per-identity quota of platform API calls, as the sandbox's throttle
 * counts it: every data-platform call but the polls of long-running operations and the job instance calls, which the
 * unified quota keeps in buckets of their own (reference §5).
 */
export const countsAgainstPlatformQuota = (r: RequestLogEntry) => r.service === 'dataPlatform' && !isOperationPoll(r) && !isJobCall(r);

/**
 * The fewest calls the install could have made as it is designed: every write it sent, and each distinct read once — a
 * long-running operation polled once (it was done at the first poll) and its result read once, a resource waited for
 * read once (a lakehouse's SQL endpoint ready at the first look), a list never taken twice. Of the calls `counted` keeps
 * (all of them by default).
 */
export function idealCalls(log: RequestLogEntry[], counted: (r: RequestLogEntry) => boolean = () => true): number {
  const reads = new Set<string>();
  let writes = 0;
  for (const r of backingCalls(log).filter(counted)) {
    if (r.method === 'GET') reads.add(`${r.service} ${r.path}`);
    else writes++;
  }
  return writes + reads.size;
}

/** The kind of a call, for the breakdown BENCH_CALLS=1 prints: its service, method and path with ids and names left out. */
export function callKind(r: RequestLogEntry): string {
  const path = r.path
    .replace(/\?.*$/, (q) => (/[?&]type=/.test(q) ? `?type=${/type=([^&]+)/.exec(q)![1]}` : ''))
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/w[0-9a-f]{12}_[^/?]*/g, '{name}')
    .replace(/\/(operationResults|notebookOperationResults)\/[^/?]+/, '/$1/{op}')
    .replace(/\/(Tables|indexes|datasets|pipelines|notebooks|linkedservices|batch|imports)\/[^?]+/, '/$1/…');
  return `${r.service} ${r.method} ${path}${r.text && r.service === 'kql' ? ` ${r.text.split(/\s/).slice(0, 3).join(' ')}` : ''}`;
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?/g;
/** A sandbox service's address: its port differs from run to run. */
const LOOPBACK = /(https?:\/\/)?(127\.0\.0\.1|localhost):\d+/g;
/** Keys of the state that name a run rather than what it holds (records of calls, ids, times), left out of the comparison. */
const VOLATILE =
  /^(id|.*Id|etag|.*At|.*Time|readyAt|ready|operations?|requests?|tokens?|sessions?|switches|faults?|log|principals|identity|imports|exports|jobs)$/i;

/** A value with run-specific parts (ids, times) replaced, and arrays in a stable order. */
function normalized(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(GUID, '<id>').replace(TIME, '<time>').replace(LOOPBACK, '<sandbox>');
  if (Array.isArray(value)) return value.map(normalized).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE.test(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalized(v)]),
    );
  return value;
}

/**
 * What the sandbox holds after the installs, as lines `path = value` without run-specific ids and times: every item,
 * table, function, index, document count, artifact, file and T-SQL object, and each data-platform item's definition
 * as the platform returns it (getDefinition, made after the installs, not counted).
 */
export async function stateLines(sandbox: Sandbox): Promise<string[]> {
  const state = (await sandbox.admin.state()) as any;
  const token = await sandbox.admin.token({ audience: 'dataPlatform' });
  for (const ws of state.dataPlatform?.workspaces ?? []) {
    for (const item of ws.items) {
      const res = await fetch(`${sandbox.urls.dataPlatform}/v1/workspaces/${ws.id}/items/${item.id}/getDefinition`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) continue;
      const parts = ((await res.json()) as any).definition.parts as Array<{ path: string; payload: string }>;
      item.definition = Object.fromEntries(
        parts.filter((p) => p.path !== '.platform').map((p) => [p.path, Buffer.from(p.payload, 'base64').toString('utf8')]),
      );
    }
  }
  const lines: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) for (const x of v) walk(x, `${path}[]`);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    else lines.push(`${path} = ${JSON.stringify(v)}`);
  };
  walk(normalized(state), '');
  return lines.sort();
}

/** The lines only one of two states holds (at most `max` of each side). */
export function stateDifferences(a: string[], b: string[], max = 5): string[] {
  const count = (lines: string[]) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const [ca, cb] = [count(a), count(b)];
  const only = (x: Map<string, number>, y: Map<string, number>) => [...x].filter(([l, n]) => (y.get(l) ?? 0) < n).map(([l]) => l);
  const cut = (l: string) => (l.length > 160 ? `${l.slice(0, 157)}...` : l);
  return [
    ...only(ca, cb)
      .slice(0, max)
      .map((l) => `- ${cut(l)}`),
    ...only(cb, ca)
      .slice(0, max)
      .map((l) => `+ ${cut(l)}`),
  ];
}
