import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { validate } from '@readme/openapi-parser';
import { build } from './helpers.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

test('the OpenAPI document is valid 3.1, lints with zero errors, and names this deployment', async (t) => {
  const h = await build(t, { SVC_PUBLIC_URL: 'https://analytics.agency.example.gov' });
  const r = await h.app.inject({ method: 'GET', url: '/api/openapi.json' });
  assert.equal(r.statusCode, 200);
  const doc = r.json();
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.servers[0].url, 'https://analytics.agency.example.gov');
  assert.ok(doc.components.securitySchemes.bearerAuth);
  assert.ok(doc.components.securitySchemes.cookieAuth);
  assert.ok(doc.components.schemas.ErrorEnvelope);

  const result = await validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result, null, 1));

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oas-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const out = execFileSync(process.execPath, [path.resolve('node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'], { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
  const lint = JSON.parse(out.slice(out.indexOf('{')));
  const errors = lint.problems.filter((p: { severity: string }) => p.severity === 'error');
  assert.deepEqual(errors, [], 'redocly lint errors');

  // Every operation has a stable id and documents the error envelope.
  const ids = new Set<string>();
  for (const [p, ops] of Object.entries<Record<string, { operationId?: string; responses: Record<string, unknown> }>>(doc.paths)) {
    for (const m of METHODS) {
      const op = ops[m];
      if (!op) continue;
      assert.ok(op.operationId, `${m} ${p} has an operationId`);
      assert.ok(!ids.has(op.operationId!), `operationId ${op.operationId} is unique`);
      ids.add(op.operationId!);
      assert.ok(Object.keys(op.responses).some((s) => s.startsWith('4') || s.startsWith('5')), `${m} ${p} documents errors`);
    }
  }
  for (const id of ['whoami', 'createWorkspace', 'createItem']) assert.ok(ids.has(id), `SPEC operation ${id}`);
});

test('without SVC_PUBLIC_URL the server URL is the request’s own scheme and host', async (t) => {
  const h = await build(t);
  const r = await h.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: 'svc.local:9999' } });
  assert.equal(r.json().servers[0].url, 'http://svc.local:9999');
});

test('registered routes and documented operations agree in both directions', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const documented = new Set<string>();
  for (const [p, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const m of METHODS) if (ops[m]) documented.add(`${m.toUpperCase()} ${p}`);
  }
  const registered = new Set(h.routes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`));
  const undocumented = [...registered].filter((r) => !documented.has(r));
  const unregistered = [...documented].filter((d) => !registered.has(d));
  assert.deepEqual(undocumented, [], 'routes missing from the document');
  assert.deepEqual(unregistered, [], 'documented operations with no route');
  assert.ok(registered.size >= 15);
});
