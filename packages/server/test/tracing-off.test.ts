// Tracing off (no exporter configured, the default): no span is made and the SDK is never loaded, yet a trace a caller
// brings still reaches the backing services and the log lines, and without one nothing carries a trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { buildWithSandbox, follow, workspace } from './install-helpers.js';

const APP = 'app-data-steward'; // search indexes and activators: HTTP calls only

test('tracing off: nothing is recorded or loaded; a caller’s traceparent is passed on to the backing calls as it came', async (t) => {
  const lines: string[] = [];
  const { h, sandbox, tenant } = await buildWithSandbox(t, { SVC_LOG_LEVEL: 'info' }, undefined, {
    logStream: { write: (line) => void lines.push(line) },
  });
  assert.equal(h.services.tracing.on, false);
  assert.equal(trace.getTracer('probe').startSpan('probe').isRecording(), false, 'the API answers with its no-op tracer');

  const install = async (headers: Record<string, string>) => {
    await sandbox.admin.clearRequests();
    const ws = await workspace(h, tenant);
    const start = await h.app.inject({
      method: 'POST',
      url: `/api/apps/${APP}/install`,
      headers: { ...tenant.auth, ...headers },
      payload: { workspaceId: ws },
    });
    assert.equal(start.statusCode, 202, start.body);
    const job = await follow(h, tenant, start.json().jobId);
    assert.equal(job.status, 'done', JSON.stringify(job.provision));
    // The worker logs the job's end just after its last write, which the poll may see first.
    for (let wait = 0; !lines.some((l) => l.includes('"job finished"') && l.includes(job.id)) && wait < 100; wait++)
      await new Promise((r) => setTimeout(r, 100));
    const calls = (await sandbox.admin.requests()).filter((r) => r.service !== 'identity');
    assert.ok(calls.length >= 3, `the install made backing calls (${calls.length})`);
    const logs = lines.splice(0).map((l) => JSON.parse(l));
    return { job, calls, jobLines: logs.filter((l) => l.jobId === job.id) };
  };

  // A caller's trace goes on unchanged: no span of the service's own in between, so the parent is the caller's span.
  const caller = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const traced = await install({ traceparent: caller });
  for (const r of traced.calls) assert.equal(r.traceparent, caller, `${r.method} ${r.path}`);
  assert.ok(traced.jobLines.length >= 2, 'the job logs its start and end');
  for (const l of traced.jobLines)
    assert.deepEqual([l.trace_id, l.span_id], ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'], l.msg);

  // Without one, nothing carries a trace: no header to the backing services, no ids in the logs.
  const plain = await install({});
  for (const r of plain.calls) assert.equal(r.traceparent, undefined, `${r.method} ${r.path}`);
  assert.ok(!JSON.stringify(plain.calls.map((r) => r.headers)).includes('traceparent'));
  for (const l of plain.jobLines) assert.equal(l.trace_id, undefined, l.msg);

  // Neither the SDK nor an exporter was ever loaded into the process.
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  for (const name of ['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources'])
    assert.ok(!loaded.some((f) => f.includes(`/node_modules/${name}/`)), `${name} is not loaded`);
  assert.ok(
    loaded.some((f) => f.includes('/node_modules/@opentelemetry/api/')),
    'the check sees CommonJS modules the service loaded',
  );
});
