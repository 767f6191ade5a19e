// Tracing on: an install's request, its job, each step and each backing call are one trace, exported over OTLP/HTTP to
// a receiver on loopback; the sandbox saw that trace's traceparent on the calls it answered; log lines name the trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, follow, workspace } from './install-helpers.js';
import { build } from './helpers.js';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { call, followJob } from './lifecycle-helpers.js';

const APP = 'app-healthcare-popmgt'; // a lakehouse, a warehouse over TDS, semantic models, search indexes
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/** Waits until the receiver holds spans matching `done`, flushing the exporter meanwhile. */
async function exported(flush: () => Promise<void>, spans: ReceivedSpan[], done: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await flush();
    if (done()) return;
    if (Date.now() > deadline) throw new Error(`spans not exported in time; got: ${spans.map((s) => s.name).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('one trace holds the install request, its job, each step and each backing call; the sandbox saw its traceparent; logs name it', async (t) => {
  const receiver = await startOtlpReceiver();
  t.after(() => receiver.close());
  const lines: string[] = [];
  const { h, sandbox, tenant } = await buildWithSandbox(
    t,
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'svc-under-test', SVC_LOG_LEVEL: 'info' },
    undefined,
    { logStream: { write: (line) => void lines.push(line) } },
  );
  assert.equal(h.services.tracing.on, true);
  const ws = await workspace(h, tenant);
  await sandbox.admin.clearRequests();

  // The caller's trace is continued: its trace id, with the caller's span as the request span's parent.
  const callerTrace = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const callerSpan = '0102030405060708';
  const start = await h.app.inject({
    method: 'POST',
    url: `/api/apps/${APP}/install`,
    headers: { ...tenant.auth, traceparent: `00-${callerTrace}-${callerSpan}-01` },
    payload: { workspaceId: ws },
  });
  assert.equal(start.statusCode, 202, start.body);
  const job = await follow(h, tenant, start.json().jobId);
  assert.equal(job.status, 'done', JSON.stringify(job.provision));
  const live = job.provision.steps.length;
  assert.ok(live >= 4, `the app provisions several live items (${live})`);

  const { spans } = receiver;
  const inTrace = () => spans.filter((s) => s.traceId === callerTrace);
  await exported(
    () => h.services.tracing.flush(),
    spans,
    () => inTrace().some((s) => s.name === 'job install') && inTrace().filter((s) => s.name.startsWith('step ')).length === live,
  );
  const trace = inTrace();
  const request = trace.find((s) => s.kind === SERVER && s.attributes['http.route'] === '/api/apps/:appId/install');
  assert.ok(request, `the install request's span: ${trace.map((s) => s.name).join(', ')}`);
  assert.equal(request.parentSpanId, callerSpan, "the request span's parent is the caller's span");
  assert.equal(request.name, 'POST /api/apps/:appId/install');
  assert.equal(request.attributes['http.response.status_code'], 202);
  assert.equal(request.attributes['http.request.method'], 'POST');
  assert.equal(request.resource['service.name'], 'svc-under-test');

  const jobSpan = trace.find((s) => s.name === 'job install');
  assert.ok(jobSpan);
  assert.equal(jobSpan.kind, CONSUMER);
  assert.equal(jobSpan.parentSpanId, request.spanId, 'the job continues the request that accepted it (its stored traceparent)');
  assert.deepEqual(
    [jobSpan.attributes['svc.job.id'], jobSpan.attributes['svc.app.id'], jobSpan.attributes['svc.workspace.id']],
    [job.id, APP, ws],
  );

  const steps = trace.filter((s) => s.name.startsWith('step '));
  assert.equal(steps.length, live, 'one span per live step');
  const app = loadCatalog().get(APP)!;
  for (const step of steps) {
    assert.equal(step.parentSpanId, jobSpan.spanId, `${step.name} is the job's`);
    assert.equal(step.attributes['svc.step.outcome'], 'created', step.name);
    assert.ok(step.attributes['svc.backend'], `${step.name} names its backend`);
    assert.equal(step.name, `step ${app.items[Number(step.attributes['svc.step.index'])]!.itemType}`);
  }

  // Every backing call is a client span under a step (directly, or under another call's parent chain).
  const byId = new Map(trace.map((s) => [s.spanId, s]));
  const stepOf = (s: ReceivedSpan): ReceivedSpan | undefined => {
    for (let p = byId.get(s.parentSpanId); p; p = byId.get(p.parentSpanId)) if (p.name.startsWith('step ')) return p;
    return undefined;
  };
  const calls = trace.filter((s) => s.kind === CLIENT);
  const http = calls.filter((s) => s.attributes['http.request.method']);
  const tds = calls.filter((s) => s.attributes['db.system.name'] === 'microsoft.sql_server');
  assert.ok(http.length >= live, `HTTP calls: ${http.length}`);
  assert.ok(
    tds.some((s) => s.attributes['db.operation.name'] === 'LOGIN'),
    'the warehouse login is traced',
  );
  assert.ok(tds.filter((s) => s.attributes['db.operation.name'] !== 'LOGIN').length >= 1, 'its T-SQL batches are traced');
  for (const call of calls) {
    assert.ok(stepOf(call), `${call.name} belongs to a step`);
    if (call.attributes['http.request.method']) {
      assert.equal(typeof call.attributes['http.response.status_code'], 'number', `${call.name} has its status`);
      assert.ok(!String(call.attributes['url.full']).includes('?'), `${call.name}: no query in url.full`);
      assert.ok(call.attributes['svc.backing.service'], `${call.name} names its backing service`);
    }
  }
  for (const step of steps)
    assert.ok(
      calls.some((c) => stepOf(c) === step),
      `${step.name} made backing calls`,
    );

  // The sandbox received the trace: every HTTP call it answered for the install carried a traceparent of this trace
  // naming the client span of that call (the identity provider's token requests come from @azure/identity, not the pipeline).
  const received = (await sandbox.admin.requests()).filter((r) => r.service !== 'identity' && r.method !== 'LOGIN' && r.method !== 'BATCH');
  assert.ok(received.length >= http.length, `the sandbox answered ${received.length} calls`);
  const clientSpans = new Set(http.map((s) => s.spanId));
  for (const r of received) {
    assert.ok(r.traceparent, `${r.method} ${r.path} carried a traceparent`);
    assert.equal(r.traceparent.slice(3, 35), callerTrace, `${r.method} ${r.path} is in the trace`);
    assert.ok(clientSpans.has(r.traceparent.slice(36, 52)), `${r.method} ${r.path}: its parent is the call's own span`);
  }
  assert.equal((await sandbox.admin.requests({ traceId: callerTrace })).length, received.length, 'the request log filters by trace');

  // Log lines: the request's and the job's carry the trace and their span.
  const logs = lines.map((l) => JSON.parse(l));
  const completed = logs.find((l) => l.msg === 'request completed' && l.req === undefined && l.res?.statusCode === 202);
  assert.equal(completed?.trace_id, callerTrace, 'the install request’s "request completed" line names the trace');
  assert.equal(completed?.span_id, request.spanId);
  for (const msg of ['running a job', 'job finished']) {
    const line = logs.find((l) => l.msg === msg && l.jobId === job.id);
    assert.ok(line, `"${msg}" is logged`);
    assert.deepEqual([line.trace_id, line.span_id], [callerTrace, jobSpan.spanId], `"${msg}" names the job's span`);
  }

  // No credential left the service with the spans.
  const exportedText = receiver.bodies.join('\n');
  assert.ok(!/Bearer|eyJ[A-Za-z0-9_-]+\.|svc_pat_/.test(exportedText), 'no token in the exported spans');

  // A lifecycle job (an uninstall, run by the lifecycle runner) is traced the same way, in a trace of its own request.
  const uninstallTrace = '0af7651916cd43dd8448eb211c80319c';
  const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=true`, 202, undefined, {
    traceparent: `00-${uninstallTrace}-b7ad6b7169203331-01`,
  });
  const uninstall = await followJob(h, tenant, started.job.id);
  assert.equal(uninstall.status, 'done', JSON.stringify(uninstall.steps));
  const ofUninstall = () => spans.filter((s) => s.traceId === uninstallTrace);
  await exported(
    () => h.services.tracing.flush(),
    spans,
    () => ofUninstall().some((s) => s.name === 'job uninstall'),
  );
  const uninstallJob = ofUninstall().find((s) => s.name === 'job uninstall');
  const uninstallRequest = ofUninstall().find((s) => s.kind === SERVER);
  assert.ok(uninstallJob && uninstallRequest);
  assert.equal(uninstallRequest.parentSpanId, 'b7ad6b7169203331');
  assert.equal(uninstallJob.parentSpanId, uninstallRequest.spanId);
  for (const step of ofUninstall().filter((s) => s.name.startsWith('step ')))
    assert.equal(step.parentSpanId, uninstallJob.spanId, `${step.name} of the uninstall is its job's`);
  assert.ok(
    ofUninstall().some((s) => s.kind === CLIENT && s.attributes['http.request.method'] === 'DELETE'),
    'its backing deletes are in its trace',
  );

  // A request without a traceparent starts a trace of its own.
  const before = spans.length;
  const list = await h.app.inject({ method: 'GET', url: '/api/workspaces', headers: tenant.auth });
  assert.equal(list.statusCode, 200);
  await exported(
    () => h.services.tracing.flush(),
    spans,
    () => spans.slice(before).some((s) => s.attributes['http.route'] === '/api/workspaces'),
  );
  const own = spans.slice(before).find((s) => s.attributes['http.route'] === '/api/workspaces')!;
  assert.notEqual(own.traceId, callerTrace);
  assert.equal(own.parentSpanId, '', 'a new trace: the request span is its root');
  assert.equal(own.attributes['svc.tenant_id'], tenant.tenantId);
});

test('sampling: SVC_TRACE_SAMPLE_PERCENT=0 records no new trace, yet follows a caller that says sampled', async (t) => {
  const receiver = await startOtlpReceiver();
  t.after(() => receiver.close());
  const h = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, SVC_TRACE_SAMPLE_PERCENT: '0' });
  const tenant = await h.tenant();
  const get = (headers: Record<string, string>) =>
    h.app.inject({ method: 'GET', url: '/api/workspaces', headers: { ...tenant.auth, ...headers } });
  assert.equal((await get({})).statusCode, 200);
  assert.equal((await get({ traceparent: '00-11111111111111111111111111111111-2222222222222222-00' })).statusCode, 200);
  assert.equal((await get({ traceparent: '00-33333333333333333333333333333333-4444444444444444-01' })).statusCode, 200);
  await exported(
    () => h.services.tracing.flush(),
    receiver.spans,
    () => receiver.spans.length > 0,
  );
  await h.services.tracing.flush();
  assert.deepEqual(
    receiver.spans.map((s) => [s.traceId, s.parentSpanId]),
    [['33333333333333333333333333333333', '4444444444444444']],
    'only the request whose caller sampled it is recorded',
  );
});
