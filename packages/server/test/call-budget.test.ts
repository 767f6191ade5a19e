// The backing-call budget: the data platform throttles each identity (429 RequestBlocked with Retry-After); installs
// still finish, a 429 is absorbed by the one retry after its Retry-After (within SVC_BACKING_RETRY_AFTER_MAX_MS, the
// throttle limiter holding the service's other callers meanwhile) or reported unmodified, and no backing service ever
// sees more than SVC_BACKING_CONCURRENCY calls at once. throttle-limiter.test.ts compares the limiter on and off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { dependenciesOf } from '../src/item-types/index.js';
import { buildWithSandbox, install, workspace } from './install-helpers.js';
import { slowBacking, testPipeline } from './backing-helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

const catalog = loadCatalog();
const CONCURRENCY = 3;
const HTTP_SERVICES = ['dataPlatform', 'arm', 'kql', 'search', 'oneLake', 'reporting'] as const;

test(
  'with the data platform throttling, 20 concurrent installs finish; 429s are absorbed or reported unmodified; never more than SVC_BACKING_CONCURRENCY calls in flight per service',
  { timeout: 600_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t, {
      SVC_BACKING_CONCURRENCY: String(CONCURRENCY),
      SVC_WORKER_JOBS: '20',
      SVC_BACKING_RETRY_AFTER_MAX_MS: '3000',
      SVC_RATE_LIMIT_PER_MINUTE: '1000000', // 20 pollers
    });
    // Every call takes a while, so calls pile up behind the limit; the budget is 15 calls per 2 s window, which the
    // 20 installs' first calls pass even on a loaded machine.
    await sandbox.admin.setLatency({ dataPlatform: 25, arm: 25, kql: 25, search: 25, oneLake: 25, reporting: 25 });
    await sandbox.admin.setSwitch('dataPlatform.throttleWindowMs', 2000);
    await sandbox.admin.setSwitch('dataPlatform.throttlePerMinute', 15);
    await sandbox.admin.clearRequests();

    const apps = catalog.apps;
    const jobs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const app = apps[i % apps.length]!;
        const ws = await workspace(h, tenant, `budget-${i}`);
        return { app, job: await install(h, tenant, app.id, { workspaceId: ws }, 480_000) };
      }),
    );

    // Every install finished with a complete report; a step either worked or carries the sandbox's 429 as it was sent.
    const requests = await sandbox.admin.requests();
    const throttled = requests.filter((r) => r.service === 'dataPlatform' && r.status === 429);
    let reported429 = 0;
    let consequential = 0;
    for (const { app, job } of jobs) {
      assert.ok(['done', 'partial', 'failed'].includes(job.status), `${app.id}: ${job.status}`);
      const failedKeys = new Set(
        job.provision.steps.filter((s: any) => s.result.status === 'failed').map((s: any) => app.items[s.stepIndex]!.key),
      );
      for (const s of job.provision.steps) {
        if (['created', 'exists'].includes(s.result.status)) continue;
        assert.equal(s.result.status, 'failed', `${app.id} ${s.displayName}: ${JSON.stringify(s.result)}`);
        // A step that ran after an item it depends on failed may fail on that (a warehouse view over a lakehouse table).
        const item = app.items[s.stepIndex]!;
        if (
          !/"errorCode":"RequestBlocked"/.test(s.result.error) &&
          dependenciesOf(item.itemType, item.content, PLATFORM_PROFILE).some((k) => failedKeys.has(k))
        ) {
          consequential++;
          continue;
        }
        assert.match(
          s.result.error,
          /"errorCode":"RequestBlocked"/,
          `${app.id} ${s.displayName} failed for another reason: ${JSON.stringify(s.result)}`,
        );
        const body = JSON.parse(s.result.error);
        assert.match(body.message, /^Request is blocked by the upstream service until: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)$/);
        assert.equal(body.isRetriable, true);
        assert.ok(
          s.result.steps.some((l: string) => l.includes('answered 429 (RequestBlocked)')),
          s.result.steps.join(' | '),
        );
        reported429++;
      }
    }
    // A 429 was absorbed when the retry of the same call (the next request of that method and path) was answered. Steps
    // that share a list (one per workspace and type per job) all report that list's refusal, so steps are not calls.
    const platform = requests.filter((r) => r.service === 'dataPlatform');
    const absorbed = throttled.filter((r) => {
      const retry = platform.find((x) => x.seq > r.seq && x.method === r.method && x.path === r.path);
      return retry !== undefined && retry.status !== 429;
    }).length;
    // Polls of long-running operations are a bucket of their own (its budget unset here): the platform's budget never refuses one.
    const polls = platform.filter((r) => r.method === 'GET' && /\/operations\//.test(r.path));
    console.log(
      `20 installs: ${platform.length} data platform calls (${polls.length} of them polls of operations), ${throttled.length} answered 429, ${absorbed} absorbed by the retry, ${reported429} steps report a 429, ${consequential} failed after a dependency failed`,
    );
    assert.ok(throttled.length > 0, 'the throttle refused some calls');
    assert.ok(absorbed > 0, 'some 429s were absorbed by the retry');
    assert.ok(polls.length > 0, 'the installs polled operations');
    assert.deepEqual(
      polls.filter((r) => r.status === 429),
      [],
      'no poll was refused: polls count against the LRO bucket, not the platform APIs one',
    );

    // The sandbox counted the calls it was answering at once: never more than the limit, and the limit was reached.
    const inFlight = await sandbox.admin.inFlight();
    for (const service of HTTP_SERVICES) {
      const c = inFlight[service];
      if (c) assert.ok(c.peak <= CONCURRENCY, `${service}: ${c.peak} calls in flight at once, limit ${CONCURRENCY}`);
    }
    assert.equal(inFlight.dataPlatform?.peak, CONCURRENCY, 'the data platform saw the limit reached');
  },
);

test(
  "the one retry waits for a 429's Retry-After, cut to SVC_BACKING_RETRY_AFTER_MAX_MS; a 429 on the retry too is reported unmodified",
  { timeout: 180_000 },
  async (t) => {
    // One step at a time, so the refusals below land on known calls; the throttle limiter's pause of the data platform's
    // other callers is cut like the retry's wait (the retry waits for both).
    const { h, sandbox, tenant } = await buildWithSandbox(t, {
      SVC_BACKING_RETRY_AFTER_MAX_MS: '2500',
      SVC_BACKING_THROTTLE_PAUSE_MAX_MS: '2500',
      PROVISION_CONCURRENCY: '1',
    });
    const app = catalog.get('app-lakehouse-inspector')!;
    // The first lakehouse create is refused once with Retry-After 2 (waited for); the first notebook create is refused on
    // the try and the retry with Retry-After 60 (cut to 2.5 s).
    const once = await sandbox.admin.addFault({
      service: 'dataPlatform',
      method: 'POST',
      path: '/lakehouses$',
      status: 429,
      retryAfter: 2,
      count: 1,
      message: 'Budget: wait 2 s',
    });
    const twice = await sandbox.admin.addFault({
      service: 'dataPlatform',
      method: 'POST',
      path: '/notebooks$',
      status: 429,
      retryAfter: 60,
      count: 2,
      message: 'Budget: wait a minute',
    });
    await sandbox.admin.clearRequests();
    const ws = await workspace(h, tenant);
    const job = await install(h, tenant, app.id, { workspaceId: ws });

    const log = await sandbox.admin.requests({ service: 'dataPlatform' });
    const gapAfter = (faultId: string) => {
      const i = log.findIndex((r) => r.fault === faultId);
      assert.ok(i >= 0, `fault ${faultId} hit`);
      const refused = log[i]!;
      const retry = log.slice(i + 1).find((r) => r.method === refused.method && r.path === refused.path)!;
      assert.ok(retry, 'the call was retried');
      return Date.parse(retry.startedAt) - (Date.parse(refused.startedAt) + refused.durationMs);
    };
    const waited = gapAfter(once.id);
    assert.ok(waited >= 1950 && waited < 2500 + 1500, `waited ${waited} ms for Retry-After 2`);
    const cut = gapAfter(twice.id);
    assert.ok(cut >= 2450 && cut < 2500 + 1500, `waited ${cut} ms for Retry-After 60, bound 2500`);

    const failed = job.provision.steps.filter((s: any) => s.result.status === 'failed');
    assert.equal(failed.length, 1, JSON.stringify(job.provision.steps.map((s: any) => [s.displayName, s.result.status])));
    const body = JSON.parse(failed[0].result.error);
    assert.equal(body.errorCode, 'RequestBlocked');
    assert.equal(body.message, 'Budget: wait a minute', "the backing service's text, unmodified");
    assert.equal(failed[0].itemType, 'notebook');
    assert.ok(
      job.provision.steps.filter((s: any) => s.itemType === 'lakehouse').every((s: any) => s.result.status === 'created'),
      'the lakehouse refused once was created by the retry',
    );
    assert.equal(
      job.provision.steps.filter((s: any) => s.itemType === 'notebook' && s.result.status === 'created').length,
      3,
      'the other notebooks were created',
    );
    assert.equal(job.status, 'partial');
  },
);

test('a redirected call gives its slot back before following: with one slot per service, redirects do not deadlock', async (t) => {
  const { base, peak } = await slowBacking(t, (req, res) => {
    if (req.url!.startsWith('/start')) res.writeHead(307, { location: `/final${req.url!.slice('/start'.length)}` }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  const pipeline = testPipeline(1);
  const calls = Array.from({ length: 4 }, (_, i) =>
    pipeline.send({ service: 'kql', method: 'GET', url: `${base}/start/${i}`, audience: 'https://kusto.kusto.windows.net' }),
  );
  let timer: NodeJS.Timeout | undefined;
  const answers = await Promise.race([
    Promise.all(calls),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the redirected calls never finished (deadlock)')), 5000);
    }),
  ]);
  clearTimeout(timer);
  assert.deepEqual(
    answers.map((a) => a.json()),
    Array(4).fill({ ok: true }),
  );
  assert.equal(peak(), 1, 'never more than the one slot in flight');
});
