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
  const out = execFileSync(process.execPath, [path.resolve('node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
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
      assert.ok(
        Object.keys(op.responses).some((s) => s.startsWith('4') || s.startsWith('5')),
        `${m} ${p} documents errors`,
      );
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

test('/metrics counts requests by route and reports the event-loop delay since the previous scrape', async (t) => {
  const h = await build(t);
  const scraper = (await (await h.tenant()).token2(['metrics'])).auth;
  const scrape = async () => (await h.app.inject({ method: 'GET', url: '/metrics', headers: scraper })).body;
  await h.app.inject({ method: 'GET', url: '/api/health' });
  const first = await scrape();
  assert.match(first, /^svc_http_requests_total\{method="GET",route="\/api\/health",status="200"\} 1$/m);
  assert.match(first, /^svc_http_request_duration_seconds_count\{method="GET",route="\/api\/health"\} 1$/m);
  // The loop is held up for 120 ms: the next scrape's maximum shows it, and the one after (a fresh window) does not.
  await new Promise((r) => setTimeout(r, 30)); // after a reset, the monitor's first tick only takes its baseline
  const until = Date.now() + 120;
  while (Date.now() < until) {
    /* busy */
  }
  await new Promise((r) => setTimeout(r, 30)); // the monitor's timer fires late once, and records it
  const max = (body: string) => Number(/^svc_event_loop_delay_seconds\{quantile="1"\} (\S+)$/m.exec(body)?.[1]);
  const held = max(await scrape());
  assert.ok(held >= 0.1, `max delay ${held} s after a 120 ms stall`);
  const after = max(await scrape());
  assert.ok(after < 0.1, `max delay ${after} s in the next window`);
  // A quiet window: the monitor's own 10 ms interval is not reported as delay.
  await new Promise((r) => setTimeout(r, 100));
  const median = Number(/^svc_event_loop_delay_seconds\{quantile="0.5"\} (\S+)$/m.exec(await scrape())?.[1]);
  assert.ok(median < 0.01, `median delay ${median} s while idle`);
  assert.match(first, /^svc_event_loop_delay_seconds\{quantile="0.99"\} \S+$/m);
});

type Param = { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
type Op = { operationId: string; parameters?: Param[]; responses: Record<string, unknown> };
const operations = (doc: { paths: Record<string, Record<string, Op>> }) =>
  Object.values(doc.paths).flatMap((item) => METHODS.map((m) => item[m]).filter((op): op is Op => !!op));

test('paging parameters are declared as the service reads them: limit an integer 1–200, cursor never empty', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const paged = operations(doc).filter((op) => op.parameters?.some((p) => p.in === 'query' && p.name === 'limit'));
  assert.deepEqual(paged.map((op) => op.operationId).sort(), [
    'listAuditEvents',
    'listInstallJobs',
    'listInstalledApps',
    'listItems',
    'listRoleAssignments',
    'listTenants',
    'listTokens',
    'listWorkspaceJobs',
    'listWorkspaces',
    'searchPrincipals',
  ]);
  for (const op of paged) {
    const param = (name: string) => op.parameters!.find((p) => p.in === 'query' && p.name === name)!.schema;
    assert.deepEqual(
      { ...param('limit'), description: undefined },
      { type: 'integer', minimum: 1, maximum: 200, default: 50, description: undefined },
      op.operationId,
    );
    assert.equal(param('cursor').minLength, 1, op.operationId);
  }

  const a = await h.tenant();
  for (const name of ['A', 'B', 'C']) await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name } });
  const list = (query: string) => h.app.inject({ method: 'GET', url: `/api/workspaces${query}`, headers: a.auth });
  const two = await list('?limit=2');
  assert.equal(two.statusCode, 200, two.body);
  assert.equal(two.json().workspaces.length, 2);
  assert.equal((await list(`?limit=200&cursor=${two.json().nextCursor}`)).json().workspaces.length, 1);
  for (const bad of ['abc', '1.5', '0', '201', '-1', '', '2&limit=3', '0x10']) {
    const r = await list(`?limit=${bad}`);
    assert.equal(r.statusCode, 400, `limit=${bad}: ${r.body}`);
    assert.equal(r.json().ok, false);
    assert.equal(r.json().error.field, 'limit', `limit=${bad}: ${r.body}`);
  }
  for (const bad of ['', 'zzz']) {
    const r = await list(`?cursor=${bad}`);
    assert.equal(r.statusCode, 400, `cursor=${bad}: ${r.body}`);
    assert.equal(r.json().error.field, 'cursor', `cursor=${bad}: ${r.body}`);
  }
});

test('a conditional write declares If-Match required and answers 428 with the envelope without it', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  // Every operation that documents 428 requires If-Match, and every If-Match is required and documents 428.
  const with428 = operations(doc)
    .filter((op) => '428' in op.responses)
    .map((op) => op.operationId)
    .sort();
  const withIfMatch = operations(doc)
    .filter((op) => op.parameters?.some((p) => p.in === 'header' && p.name === 'if-match' && p.required))
    .map((op) => op.operationId)
    .sort();
  const optionalIfMatch = operations(doc)
    .filter((op) => op.parameters?.some((p) => p.in === 'header' && p.name === 'if-match' && !p.required))
    .map((op) => op.operationId);
  assert.deepEqual(with428, ['putItemContent', 'putPaginatedReportDefinition']);
  assert.deepEqual(withIfMatch, with428);
  assert.deepEqual(optionalIfMatch, []);

  const a = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'W' } })).json().workspace;
  const item = (
    await h.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws.id}/items`,
      headers: a.auth,
      payload: { itemType: 'notebook', displayName: 'N' },
    })
  ).json().item;
  const url = `/api/workspaces/${ws.id}/items/${item.id}/content`;
  const missing = await h.app.inject({ method: 'PUT', url, headers: a.auth, payload: { content: { cells: [] } } });
  assert.equal(missing.statusCode, 428);
  assert.deepEqual(missing.json(), {
    ok: false,
    error: {
      code: 'precondition_required',
      message: 'This change needs an If-Match header with the ETag you read (or *)',
      field: 'If-Match',
    },
  });
  const empty = await h.app.inject({ method: 'PUT', url, headers: { ...a.auth, 'if-match': '' }, payload: { content: { cells: [] } } });
  assert.equal(empty.statusCode, 400, empty.body);
  assert.equal(empty.json().error.field, 'if-match');
  const unknown = await h.app.inject({
    method: 'PUT',
    url: `/api/workspaces/${ws.id}/items/none/content`,
    headers: { ...a.auth, 'if-match': '*' },
    payload: { content: {} },
  });
  assert.equal(unknown.statusCode, 404);
  assert.equal(
    (await h.app.inject({ method: 'PUT', url, headers: { ...a.auth, 'if-match': '*' }, payload: { content: { cells: [] } } })).statusCode,
    200,
  );
});

test('ok is declared a plain boolean: no boolean enum anywhere in the document', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const found: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${at}/${i}`);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ((Array.isArray(o.enum) && o.enum.some((x) => typeof x === 'boolean')) || typeof o.const === 'boolean') found.push(at);
      for (const [k, x] of Object.entries(o)) walk(x, `${at}/${k}`);
    }
  };
  walk(doc, '#');
  assert.deepEqual(found, []);
  assert.deepEqual(doc.components.schemas.ErrorEnvelope.properties.ok.type, 'boolean');
  assert.deepEqual(doc.paths['/api/whoami'].get.responses['200'].content['application/json'].schema.properties.ok.type, 'boolean');
});

test('a method a documented path does not take answers 405 with Allow naming the documented ones; an unknown path 404', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  for (const [p, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    const documented = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
    const expected = [...documented, ...(documented.includes('GET') ? ['HEAD'] : [])].sort().join(', ');
    const url = p.replace(/\{\w+\}/g, 'x1');
    for (const method of ['TRACE', 'QUERY', ...['PUT', 'PATCH', 'DELETE'].filter((m) => !documented.includes(m))].slice(
      0,
      3,
    ) as Array<'PUT'>) {
      const r = await h.app.inject({ method, url });
      assert.equal(r.statusCode, 405, `${method} ${p}: ${r.body}`);
      assert.equal(r.headers.allow, expected, `${method} ${p}`);
      assert.equal(r.json().error.code, 'method_not_allowed');
    }
  }
  const unknown = await h.app.inject({ method: 'TRACE', url: '/api/no-such-thing' });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().error.code, 'route_not_found');
});

test('createItem declares itemType an enum of the item type registry, and an unknown type is 400 naming it', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const body = doc.paths['/api/workspaces/{workspaceId}/items'].post.requestBody.content['application/json'].schema;
  const types = (await h.app.inject({ method: 'GET', url: '/api/item-types', headers: (await h.tenant()).auth }))
    .json()
    .itemTypes.map((x: { id: string }) => x.id);
  assert.equal(body.properties.itemType.type, 'string');
  assert.deepEqual(body.properties.itemType.enum, types);
  const a = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'W' } })).json().workspace;
  const r = await h.app.inject({
    method: 'POST',
    url: `/api/workspaces/${ws.id}/items`,
    headers: a.auth,
    payload: { itemType: '0', displayName: 'x' },
  });
  assert.equal(r.statusCode, 400);
  assert.equal(r.json().error.field, 'itemType');
});
