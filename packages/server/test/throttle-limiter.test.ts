// The throttle limiter (backends/adaptive-limiter.ts) against the sandbox's data platform: under its per-identity
// throttle, callers of one process that share the service's identity stop hammering it once it answered 429; and a
// 429's Retry-After (a fault rule answering as the throttle does, so the block ends exactly then) holds every other
// caller of that service in the process, whichever pipeline (request or worker) calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackingError } from '../src/backends/http-pipeline.js';
import { DataPlatformClient } from '../src/backends/data-platform.js';
import { buildWithSandbox, type Sandbox } from './install-helpers.js';
import type { TestApp } from './helpers.js';
import { sleep } from './service-process.js';

/** `callers` callers at once, each making `calls` data platform reads one after the other; answers what the sandbox saw. */
async function hammer(h: TestApp, sb: Sandbox, callers: number, calls: number) {
  const { dataPlatform } = h.services.backends;
  let failed = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (let i = 0; i < calls; i++) {
        await dataPlatform.getWorkspace(sb.ids.platformWorkspaceId).catch((e: unknown) => {
          // A 429 the retry could not absorb is the caller's failure, with the service's body as it was sent.
          assert.ok(e instanceof BackingError && e.status === 429, String(e));
          assert.equal(JSON.parse(e.body).errorCode, 'RequestBlocked');
          failed++;
        });
      }
    }),
  );
  const log = await sb.admin.requests({ service: 'dataPlatform' });
  return { calls: log.length, throttled: log.filter((r) => r.status === 429).length, failed };
}

test('under the per-identity throttle, the adaptive limiter answers far fewer calls 429 than calls made each on their own', async (t) => {
  const share: Record<string, number> = {};
  const failed: Record<string, number> = {};
  for (const limiter of ['off', 'adaptive']) {
    const { h, sandbox } = await buildWithSandbox(t, { SVC_BACKING_THROTTLE_LIMITER: limiter });
    // 20 calls per 2 s window (10 a second) for 24 callers making 192 reads, at most 16 calls in flight.
    await sandbox.admin.setLatency({ dataPlatform: 10 });
    await sandbox.admin.setSwitch('dataPlatform.throttleWindowMs', 2000);
    await sandbox.admin.setSwitch('dataPlatform.throttlePerMinute', 20);
    await sandbox.admin.clearRequests();
    const r = await hammer(h, sandbox, 24, 8);
    share[limiter] = r.throttled / r.calls;
    failed[limiter] = r.failed;
    console.log(`limiter ${limiter}: ${r.calls} calls, ${r.throttled} answered 429, ${r.failed} of 192 reads failed`);
  }
  // Without the limiter every window's refusals start over; with it, the first burst's calls in flight are about all.
  assert.ok(share.off! > 0.25, `without the limiter the throttle refused ${share.off}`);
  assert.ok(share.adaptive! < share.off! / 3, `the limiter's share of 429s ${share.adaptive} is not far below ${share.off}`);
  assert.ok(failed.adaptive! < Math.max(1, failed.off! / 5), `reads failed: ${failed.adaptive} with the limiter, ${failed.off} without`);
});

test("a 429's Retry-After holds the service's other callers in the process until it has passed; other services go on", async (t) => {
  const { h, sandbox } = await buildWithSandbox(t);
  const { profile, backends } = h.services;
  // The worker's pipeline (installs) and the request pipeline (routes) of one process.
  const worker = new DataPlatformClient(backends.pipeline.background(), profile.dataPlatformApiUrl, profile.dataPlatformAudience, profile);
  const ws = sandbox.ids.platformWorkspaceId;
  // The data platform refuses the worker's read once, as its throttle does: 429 RequestBlocked, Retry-After 2.
  await sandbox.admin.addFault({
    service: 'dataPlatform',
    method: 'GET',
    path: '/workspaces/[^/]+$',
    status: 429,
    retryAfter: 2,
    count: 1,
  });
  await sandbox.admin.clearRequests();

  const refused = worker.getWorkspace(ws);
  // Once the process counted the 429 (svc_backing_calls_total), the pipeline has seen it.
  for (let i = 0; !/^svc_backing_calls_total\{[^}]*status="429"[^}]*\} 1$/m.test(h.services.metrics.render()); i++) {
    assert.ok(i < 500, 'the read was refused');
    await sleep(10);
  }
  // While the worker's retry waits, a route's read of another data platform path and a read of the reporting service start.
  const sameService = backends.dataPlatform.listFirewallRules(ws);
  const otherService = backends.reporting.listReports(ws);
  await Promise.all([refused, sameService, otherService]);

  const log = await sandbox.admin.requests();
  const at = (r: { startedAt: string }) => Date.parse(r.startedAt);
  const platform = log.filter((r) => r.service === 'dataPlatform');
  const throttled = platform[0]!;
  assert.deepEqual(
    platform.map((r) => r.status),
    [429, 200, 200],
    'the refused read, then the route read and the retry',
  );
  const blockedUntil = at(throttled) + throttled.durationMs + 2000;
  const route = platform.find((r) => r.path.endsWith('/firewallRules'))!;
  assert.ok(at(route) >= blockedUntil - 20, `the route read went ${blockedUntil - at(route)} ms before Retry-After had passed`);
  const reporting = log.find((r) => r.service === 'reporting')!;
  assert.ok(at(reporting) < blockedUntil - 1000, `the reporting call waited ${at(reporting) - at(throttled)} ms`);
});
