// bench/chaos: two service processes on one fresh PostgreSQL database, the sandbox answering 429, 503, connection
// resets and delays at a set rate, N installs across workspaces, and one process killed (SIGKILL) at random moments
// and restarted. Then it checks what the service promises and exits non-zero on any violation:
//   - every job ends terminal (done, partial, failed) with a report, and every failed step carries the text of a
//     fault the sandbox injected or depends on an item that failed (nothing else failed);
//   - no job ran twice at once: one `step` event per live step, one `item-created` per item, one `done`;
//   - no backing resource is duplicated (platform items per workspace and type, KQL databases, search indexes,
//     paginated reports per group);
//   - no request was lost: the poller of each job never saw it vanish (404), answer 5xx, or go backwards.
// The app lifecycle runs through the same chaos: every fourth finished install is uninstalled at once (half of them with
// purgeData), and after the installs the catalog is rolled to a new version of one app (both processes restarted on it,
// one at a time) and every install of that app still in place is upgraded while the kills go on. Then also:
//   - every upgrade and uninstall job ended terminal, its steps each recorded once, failures only from injected faults;
//   - a done uninstall left no installed app, and none of the app's stored items but kept data stores; a done upgrade
//     left the app at the new version;
//   - nothing is orphaned: every platform item, KQL database and search index the run made is one a stored item still
//     names as its live resource.
// Settings (environment): DATABASE_URL (required), CHAOS_INSTALLS (100), CHAOS_PARALLEL installs in flight (12),
// CHAOS_FAULT_RATE per fault kind and backing call (0.03), CHAOS_KILL_MS mean time between kills (6000), CHAOS_CLOUD
// `platform` (a cloud with the data platform, the default) or `native` (without it: the Azure-native backends).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadCatalog } from '../../packages/server/src/catalog/load-catalog.js';
import { provisionedAtInstall } from '../../packages/server/src/install/install-service.js';
import { dependenciesOf, provisionedLive } from '../../packages/server/src/item-types/index.js';
import { jobEvents, sleep } from '../../packages/server/test/service-process.js';
import { CATALOG_V2_DIR } from '../../packages/server/test/catalog-v2-fixture.js';
import { Cluster, freshDatabase, withSandbox, type Sandbox } from '../lib/cluster.js';
import { PLATFORM_PROFILE } from '../../packages/server/test/platform-profile.js';
import { inventory, inventoryChanges } from '../../packages/server/test/sandbox-inventory.js';
import { selectCloud } from '../../packages/server/src/cloud/profiles.js';

const INSTALLS = Number(process.env.CHAOS_INSTALLS ?? 100);
const PARALLEL = Number(process.env.CHAOS_PARALLEL ?? 12);
const RATE = Number(process.env.CHAOS_FAULT_RATE ?? 0.03);
const KILL_MS = Number(process.env.CHAOS_KILL_MS ?? 6000);
const LEASE_MS = 4000;
const CLOUD = process.env.CHAOS_CLOUD === 'native' ? 'native' : 'platform';
/** The cloud the service process sees: the sandbox's own choice of backends in each. */
const PROFILE = CLOUD === 'native' ? selectCloud({ name: 'sandbox', overrides: {} }) : PLATFORM_PROFILE;
const FAULTED =
  CLOUD === 'native'
    ? (['arm', 'kql', 'search', 'reporting', 'synapse', 'lake'] as const)
    : (['dataPlatform', 'arm', 'kql', 'search', 'oneLake'] as const);
/** The text each injected answer carries, so a report can be matched to what was injected. */
const injectedText = (status: number, service: string) => `Chaos: injected ${status} from ${service}`;
const PHASES = ['creating-items', 'provisioning', 'finalizing', 'done'];

/** The app whose catalog version is rolled mid-run, and the catalog it rolls to (the shipped apps, that one at v2). */
const ROLLED = 'app-lakehouse-inspector';
function rolledCatalog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-chaos-catalog-'));
  const shipped = path.resolve(import.meta.dirname, '../../catalog/apps');
  for (const app of fs.readdirSync(shipped))
    fs.cpSync(path.join(app === ROLLED ? CATALOG_V2_DIR : shipped, app), path.join(dir, app), { recursive: true });
  return dir;
}

const violations: string[] = [];
const violate = (msg: string) => {
  if (violations.length < 200) violations.push(msg);
};

async function injectFaults(sb: Sandbox) {
  for (const service of FAULTED) {
    await sb.admin.addFault({ service, status: 429, retryAfter: 1, probability: RATE, message: injectedText(429, service) });
    await sb.admin.addFault({ service, status: 503, probability: RATE, message: injectedText(503, service) });
    await sb.admin.addFault({ service, reset: true, probability: RATE });
    await sb.admin.addFault({ service, delayMs: 1500, probability: RATE });
  }
  // Every backing call takes a little while, so kills land in the middle of provisioning.
  await sb.admin.setLatency(Object.fromEntries(FAULTED.map((service) => [service, 20])));
}

/** Kills one process (never the last live one) at random moments and restarts it, until stopped. */
function killer(cluster: Cluster, stop: () => boolean) {
  let kills = 0;
  const done = (async () => {
    while (!stop()) {
      await sleep(KILL_MS / 2 + Math.random() * KILL_MS);
      if (stop()) break;
      if (cluster.alive().length < cluster.slots.length) continue;
      const victim = cluster.slots[Math.floor(Math.random() * cluster.slots.length)]!;
      await cluster.kill(victim);
      kills++;
      await sleep(200 + Math.random() * 1500);
      await cluster.start(victim);
    }
  })();
  return { done, kills: () => kills };
}

interface Tracked {
  kind: 'install' | 'uninstall' | 'upgrade';
  jobId: string;
  appId: string;
  workspaceId: string;
  polls: number;
  job?: any;
}

/** Polls one job through whichever process is alive until it is terminal, checking it never vanishes or goes back. */
async function poll(cluster: Cluster, t: Tracked, deadline: number) {
  let last: { phase: number; percent: number } | undefined;
  for (;;) {
    const r = await cluster.call('GET', t.kind === 'install' ? `/api/apps/install-jobs/${t.jobId}` : `/api/jobs/${t.jobId}`);
    t.polls++;
    if (r.status !== 200) {
      violate(`job ${t.jobId}: GET answered ${r.status} (process ${r.slot}): ${JSON.stringify(r.body)}`);
      if (r.status === 404) return;
    } else {
      const job = r.body.job;
      const phase = t.kind === 'install' ? PHASES.indexOf(job.phase) : 0;
      if (last && (phase < last.phase || job.percentComplete < last.percent)) {
        violate(`job ${t.jobId}: went back from ${PHASES[last.phase]} ${last.percent} % to ${job.phase} ${job.percentComplete} %`);
      }
      last = { phase: Math.max(phase, last?.phase ?? 0), percent: Math.max(job.percentComplete, last?.percent ?? 0) };
      if (job.status !== 'running') {
        t.job = job;
        return;
      }
    }
    if (Date.now() > deadline) {
      violate(`job ${t.jobId}: still running at the deadline`);
      return;
    }
    await sleep(250);
  }
}

/** Starts one install; a connection lost during the POST is resolved by listing the workspace's jobs first. */
async function startInstall(cluster: Cluster, appId: string, i: number): Promise<Tracked[]> {
  const ws = await cluster.call('POST', '/api/workspaces', { name: `chaos-${i}-${Math.random().toString(36).slice(2, 7)}` });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${JSON.stringify(ws.body)}`);
  const workspaceId = ws.body.workspace.id;
  for (;;) {
    const r = await cluster.call('POST', `/api/apps/${appId}/install`, { workspaceId }).catch(() => undefined);
    if (r && r.status === 202 && r.failovers === 0) return [{ kind: 'install', jobId: r.body.jobId, appId, workspaceId, polls: 0 }];
    if (r && r.status !== 202) throw new Error(`install: ${r.status} ${JSON.stringify(r.body)}`);
    // The answer may have been lost after the job was written: whatever the workspace holds is ours to follow.
    const list = await cluster.call('GET', `/api/apps/install-jobs?workspaceId=${workspaceId}`);
    const jobs: Tracked[] = (list.body.jobs as Array<{ id: string }>).map((j) => ({
      kind: 'install',
      jobId: j.id,
      appId,
      workspaceId,
      polls: 0,
    }));
    if (r)
      for (const j of [r.body.jobId])
        if (!jobs.some((x) => x.jobId === j)) jobs.push({ kind: 'install', jobId: j, appId, workspaceId, polls: 0 });
    if (jobs.length) return jobs;
  }
}

/**
 * Starts an upgrade or an uninstall of an installed app; an answer lost with its connection is resolved by listing the
 * workspace's jobs of that kind. A 409 (a job of the app is running, or the app is current) starts nothing.
 */
async function startLifecycle(cluster: Cluster, kind: 'uninstall' | 'upgrade', t: Tracked, purgeData: boolean): Promise<Tracked[]> {
  const url =
    kind === 'upgrade'
      ? `/api/workspaces/${t.workspaceId}/apps/${t.appId}/upgrade`
      : `/api/workspaces/${t.workspaceId}/apps/${t.appId}?purgeData=${purgeData}`;
  const r = await cluster.call(kind === 'upgrade' ? 'POST' : 'DELETE', url, kind === 'upgrade' ? {} : undefined).catch(() => undefined);
  const mine = (id: string): Tracked => ({ kind, jobId: id, appId: t.appId, workspaceId: t.workspaceId, polls: 0 });
  if (r && r.status === 202 && r.failovers === 0) return [mine(r.body.job.id)];
  if (r && r.status !== 202) {
    if (r.status !== 409) violate(`${kind} of ${t.appId} in ${t.workspaceId}: ${r.status} ${JSON.stringify(r.body)}`);
    return [];
  }
  const list = await cluster.call('GET', `/api/workspaces/${t.workspaceId}/jobs?kind=${kind}`);
  return (list.body.jobs as Array<{ id: string }>).map((j) => mine(j.id));
}

/**
 * What the sweep holds to the state before the run: each item's own Azure-native resource. Data stores (lake folders,
 * serverless and KQL databases, warehouse objects) are left out, since an uninstall without purgeData keeps them by
 * design; so are a pipeline's linked services and datasets, which a step failed by an injected fault before it
 * answered leaves for a re-run to find by name (as a platform item is on the data platform).
 */
const SWEPT = ['.synapse.notebooks', '.synapse.pipelines', '.arm.eventHubs', '.arm.dataConnections', '.arm.monitor', '.reporting.datasets'];

/**
 * Nothing orphaned in the Azure-native services: with the faults cleared, every app still installed is uninstalled with
 * purgeData, and then the sandbox holds what it held before the run: no notebook, pipeline, event hub, data connection,
 * rule, action group or push dataset any job made is left.
 */
async function sweep(cluster: Cluster, sb: Sandbox, tracked: Tracked[], baseline: Map<string, number>) {
  await sb.admin.clearFaults();
  const deadline = Date.now() + 180_000;
  for (const workspaceId of new Set(tracked.filter((t) => t.kind === 'install').map((t) => t.workspaceId))) {
    const apps = await cluster.call('GET', `/api/workspaces/${workspaceId}/apps`);
    for (const app of (apps.body?.apps ?? []) as Array<{ appId: string }>) {
      const r = await cluster.call('DELETE', `/api/workspaces/${workspaceId}/apps/${app.appId}?purgeData=true`);
      if (r.status !== 202) {
        violate(`sweep: uninstall of ${app.appId} in ${workspaceId}: ${r.status} ${JSON.stringify(r.body)}`);
        continue;
      }
      const t: Tracked = { kind: 'uninstall', jobId: r.body.job.id, appId: app.appId, workspaceId, polls: 0 };
      await poll(cluster, t, deadline);
      if (t.job?.status !== 'done') {
        // The steps that did not end well, with their backing text: what tells a bug from a refusal.
        const failed = ((t.job?.steps ?? []) as Array<{ stepIndex: number; itemType: string; result?: any }>)
          .filter((s) => s.result?.status !== 'deleted' && s.result?.status !== 'kept')
          .map((s) => `step ${s.stepIndex} ${s.itemType} ${s.result ? resultText(s.result) : 'no result'}`);
        violate(`sweep: uninstall of ${app.appId} in ${workspaceId} ended ${t.job?.status}: ${failed.join('; ').slice(0, 1500)}`);
      }
    }
  }
  for (const change of inventoryChanges(baseline, inventory(await sb.admin.state())).filter((c) => SWEPT.some((p) => c.startsWith(p))))
    violate(`orphan: after every app was uninstalled with purgeData the sandbox still differs at ${change}`);
}

async function checkEvents(cluster: Cluster, t: Tracked, liveSteps: number[]) {
  // The stream ends once the job is terminal (server-sent events, read whole).
  const alive = cluster.alive()[0]!;
  const events = await jobEvents(
    alive.base,
    t.jobId,
    { authorization: `Bearer ${cluster.token}` },
    t.kind === 'install' ? 'install' : 'any',
  );
  const count = (kind: string, key: (d: any) => unknown) => {
    const m = new Map<unknown, number>();
    for (const e of events.filter((x) => x.kind === kind)) m.set(key(e.data), (m.get(key(e.data)) ?? 0) + 1);
    return m;
  };
  for (const [step, n] of count('step', (d) => d.stepIndex))
    if (n > 1) violate(`job ${t.jobId}: step ${step} recorded ${n} times (ran twice)`);
  for (const [step, n] of count('item-created', (d) => d.stepIndex))
    if (n > 1) violate(`job ${t.jobId}: item of step ${step} stored ${n} times`);
  const done = events.filter((e) => e.kind === 'done').length;
  if (t.kind !== 'install') {
    if (done !== 1) violate(`${t.kind} job ${t.jobId}: ${done} done events`);
    return;
  }
  const steps = [...count('step', (d) => d.stepIndex).keys()].sort((a: any, b: any) => a - b);
  if (t.job?.deploy !== false && JSON.stringify(steps) !== JSON.stringify(liveSteps))
    violate(`job ${t.jobId}: step events ${JSON.stringify(steps)}, live steps ${JSON.stringify(liveSteps)}`);
  if (done !== 1) violate(`job ${t.jobId}: ${done} done events`);
}

/** A failed step must carry an injected fault: its text, its status, or the reset of the connection. */
/** A failed step's error first, then the tail of its log: the part that says why. */
function resultText(result: { error?: string; message?: string; steps?: string[] }): string {
  const log = result.steps ?? [];
  return JSON.stringify({ error: result.error, message: result.message, lastSteps: log.slice(-4), ofSteps: log.length }).slice(0, 1500);
}

function failureMatchesInjected(result: { error?: string; message?: string; steps?: string[] }): boolean {
  const text = `${result.error ?? ''}\n${result.message ?? ''}\n${(result.steps ?? []).join('\n')}`;
  if (/Chaos: injected (429|503) from /.test(text)) return true;
  return /ECONNRESET|UND_ERR_SOCKET|other side closed|socket hang up/.test(text);
}

async function main() {
  const db = await freshDatabase('svc_chaos');
  const catalog = loadCatalog();
  const apps = [...catalog.apps];
  const started = Date.now();
  let kills = 0;
  const tracked: Tracked[] = [];
  // The rolled catalog stays until the processes are stopped: the killer may restart one on it up to the end.
  let catalogDir: string | undefined;
  try {
    await withSandbox(
      async (sb) => {
        const cluster = await Cluster.create(sb, db.url, 2, { SVC_INSTALL_LEASE_MS: String(LEASE_MS), SVC_WORKER_POLL_MS: '200' });
        try {
          // What the sandbox holds before any install: in the cloud without the data platform, a final sweep must return to it.
          const baseline = inventory(await sb.admin.state());
          await injectFaults(sb);
          console.log(
            `bench/chaos: ${INSTALLS} installs (${PARALLEL} in flight) on 2 processes sharing ${db.url.replace(/\/\/[^@]*@/, '//')}`,
          );
          console.log(
            `cloud: ${CLOUD}; faults: 429, 503, connection reset and 1.5 s delay, each at ${(RATE * 100).toFixed(1)} % of calls to ${FAULTED.join(', ')}; a kill every ~${KILL_MS} ms`,
          );
          let stopping = false;
          const k = killer(cluster, () => stopping);
          const deadline = Date.now() + Number(process.env.CHAOS_DEADLINE_MS ?? 15 * 60_000);
          let next = 0;
          const uninstalled = new Set<string>();
          const worker = async () => {
            while (next < INSTALLS) {
              const i = next++;
              const app = apps[i % apps.length]!;
              const jobs = await startInstall(cluster, app.id, i);
              tracked.push(...jobs);
              await Promise.all(jobs.map((j) => poll(cluster, j, deadline)));
              // Every fourth install is uninstalled at once (every eighth with purgeData), under the same faults and kills.
              if (i % 4 === 1 && jobs[0]) {
                const removal = await startLifecycle(cluster, 'uninstall', jobs[0], i % 8 === 1);
                tracked.push(...removal);
                uninstalled.add(jobs[0].workspaceId);
                await Promise.all(removal.map((j) => poll(cluster, j, deadline)));
              }
            }
          };
          await Promise.all(Array.from({ length: PARALLEL }, worker));

          // A catalog release: both processes restarted on it, one at a time, then every install of the rolled app upgraded.
          catalogDir = rolledCatalog();
          cluster.settings.SVC_CATALOG_DIR = catalogDir;
          for (const slot of cluster.slots) {
            while (!slot.healthy) await sleep(200); // the killer restarts it
            await cluster.kill(slot);
            await cluster.start(slot);
          }
          const toUpgrade = tracked.filter((t) => t.kind === 'install' && t.appId === ROLLED && !uninstalled.has(t.workspaceId));
          let u = 0;
          const upgrader = async () => {
            while (u < toUpgrade.length) {
              const jobs = await startLifecycle(cluster, 'upgrade', toUpgrade[u++]!, false);
              tracked.push(...jobs);
              await Promise.all(jobs.map((j) => poll(cluster, j, deadline)));
            }
          };
          await Promise.all(Array.from({ length: Math.min(PARALLEL, 4) }, upgrader));
          stopping = true;
          await k.done;
          kills = k.kills();
          for (const s of cluster.slots) if (!s.healthy) await cluster.start(s);

          // Every job the store holds, not only those this run knows of, ended terminal.
          const client = new pg.Client({ connectionString: db.url });
          await client.connect();
          const rows = (await client.query(`SELECT id, status, attempts FROM install_jobs`)).rows as Array<{
            id: string;
            status: string;
            attempts: number;
          }>;
          await client.end();
          for (const r of rows) if (!['done', 'partial', 'failed'].includes(r.status)) violate(`job ${r.id}: ended ${r.status}`);
          if (rows.length !== tracked.length) violate(`the store holds ${rows.length} jobs, the run followed ${tracked.length}`);
          const attempts = rows.reduce((n, r) => n + (r.attempts > 1 ? 1 : 0), 0);

          // Reports: terminal, complete, and failures only where a fault was injected.
          let failedSteps = 0;
          const byStatus: Record<string, number> = {};
          const stepStatus: Record<string, number> = {};
          const lifecycle: Record<string, number> = {};
          for (const t of tracked.filter((x) => x.kind !== 'install')) {
            if (!t.job) continue;
            lifecycle[`${t.kind} ${t.job.status}`] = (lifecycle[`${t.kind} ${t.job.status}`] ?? 0) + 1;
            for (const s of t.job.steps) {
              stepStatus[`${t.kind}:${s.result?.status}`] = (stepStatus[`${t.kind}:${s.result?.status}`] ?? 0) + 1;
              if (!s.result) violate(`${t.kind} job ${t.jobId}: step ${s.stepIndex} has no result`);
              else if ((s.result.status === 'failed' || s.result.status === 'remediation') && !failureMatchesInjected(s.result))
                violate(
                  `${t.kind} job ${t.jobId} step ${s.stepIndex} ${s.itemType} failed without an injected fault: ${resultText(s.result)}`,
                );
            }
            const app = await cluster.call('GET', `/api/workspaces/${t.workspaceId}/apps/${t.appId}`);
            if (t.kind === 'uninstall' && t.job.status === 'done') {
              if (app.status !== 404) violate(`uninstall ${t.jobId}: the app is still installed (${app.status})`);
              const items = await cluster.call('GET', `/api/workspaces/${t.workspaceId}/items?limit=200`);
              for (const item of items.body.items ?? [])
                if (item.appId === t.appId) violate(`uninstall ${t.jobId}: item ${item.displayName} of the app is still stored`);
            }
            if (t.kind === 'upgrade' && t.job.status === 'done' && app.body?.app?.version !== t.job.options.toVersion)
              violate(`upgrade ${t.jobId}: the app is at ${app.body?.app?.version}, not ${t.job.options.toVersion}`);
            await checkEvents(cluster, t, []);
          }
          for (const t of tracked.filter((x) => x.kind === 'install')) {
            const app = catalog.get(t.appId)!;
            const liveSteps = app.items
              .map((i, n) => (provisionedLive(i.itemType, i.content, app, PROFILE) ? n : -1))
              .filter((n) => n >= 0);
            if (!t.job) continue;
            byStatus[t.job.status] = (byStatus[t.job.status] ?? 0) + 1;
            if (!['done', 'partial', 'failed'].includes(t.job.status)) violate(`job ${t.jobId}: ${t.job.status}`);
            if (!t.job.provision) {
              violate(`job ${t.jobId}: no report`);
              continue;
            }
            const reported = t.job.provision.steps.map((s: any) => s.stepIndex).sort((a: number, b: number) => a - b);
            if (JSON.stringify(reported) !== JSON.stringify(liveSteps))
              violate(`job ${t.jobId}: report steps ${JSON.stringify(reported)}, live ${JSON.stringify(liveSteps)}`);
            const failedKeys = new Set(
              t.job.provision.steps.filter((s: any) => s.result.status === 'failed').map((s: any) => app.items[s.stepIndex]!.key),
            );
            for (const s of t.job.provision.steps) {
              stepStatus[s.result.status] = (stepStatus[s.result.status] ?? 0) + 1;
              if (s.result.status === 'failed') {
                failedSteps++;
                // A step that ran after an item it depends on failed may fail on that instead (a view over a missing table).
                const item = app.items[s.stepIndex]!;
                const afterDependency = dependenciesOf(item.itemType, item.content, PROFILE).some((k) => failedKeys.has(k));
                if (!failureMatchesInjected(s.result) && !afterDependency)
                  violate(
                    `job ${t.jobId} (${t.appId}) step ${s.stepIndex} ${s.itemType} '${s.displayName}' failed without an injected fault: ${resultText(s.result)}`,
                  );
              } else if (!['created', 'exists'].includes(s.result.status)) {
                violate(`job ${t.jobId} step ${s.stepIndex} ${s.itemType}: ${s.result.status} ${JSON.stringify(s.result).slice(0, 300)}`);
              }
            }
            await checkEvents(cluster, t, liveSteps);
          }

          // The sandbox holds every backing resource once.
          const state = await sb.admin.state();
          for (const ws of state.dataPlatform.workspaces as any[]) {
            const seen = new Map<string, number>();
            for (const item of ws.items)
              seen.set(
                `${item.type}/${item.displayName.toLowerCase()}`,
                (seen.get(`${item.type}/${item.displayName.toLowerCase()}`) ?? 0) + 1,
              );
            for (const [k2, n] of seen) if (n > 1) violate(`platform workspace ${ws.id}: ${n} items ${k2}`);
          }
          const dup = (names: string[], what: string) => {
            const seen = new Set<string>();
            for (const n of names) {
              if (seen.has(n.toLowerCase())) violate(`${what} ${n} exists twice`);
              seen.add(n.toLowerCase());
            }
          };
          dup(
            state.kql.databases.map((d: any) => d.name),
            'KQL database',
          );
          dup(
            state.search.indexes.map((i: any) => i.name),
            'search index',
          );
          for (const group of new Set(state.reporting.reports.map((r: any) => r.groupId))) {
            dup(
              state.reporting.reports.filter((r: any) => r.groupId === group && r.reportType === 'PaginatedReport').map((r: any) => r.name),
              `paginated report (group ${group})`,
            );
          }
          // Nothing orphaned: every platform item a job reported as its live resource, and still there, is one a stored item
          // names (the sandbox's own items, such as a KQL cluster's eventhouse, are no job's).
          const reported = new Set<string>();
          for (const t of tracked)
            for (const s of t.job?.provision?.steps ?? t.job?.steps ?? []) if (s.result?.resourceId) reported.add(s.result.resourceId);
          const store = new pg.Client({ connectionString: db.url });
          await store.connect();
          const named = new Set(
            (
              await store.query(
                `SELECT provisioning->>'resourceId' AS id FROM items WHERE provisioning->>'resourceId' IS NOT NULL AND coalesce((provisioning->>'deleted')::boolean, false) = false`,
              )
            ).rows.map((r: { id: string }) => r.id),
          );
          // A step that failed after its create answered leaves the item unnamed, but a stored item of its name finds it again.
          const names = new Set((await store.query(`SELECT lower(display_name) AS n FROM items`)).rows.map((r: { n: string }) => r.n));
          await store.end();
          for (const ws of state.dataPlatform.workspaces as any[])
            for (const item of ws.items)
              if (reported.has(item.id) && !named.has(item.id) && !names.has(item.displayName.toLowerCase()))
                violate(`orphan: platform item ${item.type} '${item.displayName}' (${item.id}) is named by no stored item`);
          if (CLOUD === 'native') await sweep(cluster, sb, tracked, baseline);
          const requests = await sb.admin.requests();
          const faulted = requests.filter((r) => r.fault).length;

          const polls = tracked.reduce((n, t) => n + t.polls, 0);
          const seconds = (Date.now() - started) / 1000;
          console.log(
            `jobs: ${tracked.length} (${Object.entries(byStatus)
              .map(([s, n]) => `${s} ${n}`)
              .join(', ')}); resumed after a kill: ${attempts}`,
          );
          console.log(
            `lifecycle jobs: ${Object.entries(lifecycle)
              .map(([s, n]) => `${s} ${n}`)
              .join(', ')}`,
          );
          console.log(
            `steps: ${Object.entries(stepStatus)
              .map(([s, n]) => `${s} ${n}`)
              .join(', ')}; failed steps: ${failedSteps}, each carrying an injected fault or after a dependency failed`,
          );
          console.log(
            `backing calls: ${requests.length}, faulted: ${faulted}; kills: ${kills}; restarts: ${cluster.slots.map((s) => `${s.name} ${s.starts - 1}`).join(', ')}; polls: ${polls}; ${seconds.toFixed(0)} s`,
          );
          if (violations.length) console.log(cluster.errors().slice(-4000));
        } finally {
          await cluster.stop();
        }
      },
      { dataPlatform: CLOUD === 'platform' },
    );
  } finally {
    if (catalogDir) fs.rmSync(catalogDir, { recursive: true, force: true });
    await db.drop();
  }
  if (violations.length) {
    console.log(`\n${violations.length} violation(s):`);
    for (const v of violations) console.log(`  - ${v}`);
    process.exit(1);
  }
  console.log('no violations');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
