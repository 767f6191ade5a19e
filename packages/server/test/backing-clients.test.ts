// One client per backing service: the data-platform pager follows whichever continuation a page carries, and every
// OneLake call names its storage API version and builds its path one checked segment at a time.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataPlatformClient } from '../src/backends/data-platform.js';
import { UnsafePathError } from '../src/backends/http-pipeline.js';
import { ONELAKE_API_VERSION, OneLakeClient } from '../src/backends/onelake.js';
import { withSharedAccess } from '../src/backends/shared-access.js';
import { JobLists } from '../src/provisioning/job-lists.js';
import { ensurePlatformItem } from '../src/provisioning/platform-item.js';
import type { StepContext } from '../src/provisioning/context.js';
import { testPipeline } from './backing-helpers.js';

/** A local backing service answering `answer(url)`, recording each request's URL and headers. */
async function recording(t: TestContext, answer: (url: string) => { status?: number; body?: unknown; headers?: Record<string, string> }) {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const a = answer(req.url!);
    res
      .writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers })
      .end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

test('the data-platform pager follows a continuationUri page and a continuationToken page (the token as the service sent it)', async (t) => {
  const { base, seen } = await recording(t, (url) => {
    if (url === '/v1/workspaces/w%201/roleAssignments')
      return { body: { value: [{ id: 'a' }], continuationUri: `${base}/v1/workspaces/w%201/roleAssignments?page=2` } };
    if (url.endsWith('?page=2')) return { body: { value: [{ id: 'b' }], continuationToken: 'LDEsMTAwMDAwLDA%3D' } };
    if (url.endsWith('?continuationToken=LDEsMTAwMDAwLDA%3D')) return { body: { value: [{ id: 'c' }] } };
    if (url === '/v1/workspaces/w/items?type=Lakehouse') return { body: { value: [{ id: 'd' }], continuationToken: 'b+/=' } };
    if (url === '/v1/workspaces/w/items?type=Lakehouse&continuationToken=b%2B%2F%3D') return { body: { value: [{ id: 'e' }] } };
    return { status: 400, body: { errorCode: 'InvalidContinuationToken', message: url } };
  });
  const client = new DataPlatformClient(testPipeline(2), `${base}/v1`, 'https://api.fabric.microsoft.com');
  const all = await client.listRoleAssignments('w 1');
  assert.deepEqual(
    all.map((r) => r.id),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(
    seen.map((s) => s.url),
    [
      '/v1/workspaces/w%201/roleAssignments',
      '/v1/workspaces/w%201/roleAssignments?page=2',
      '/v1/workspaces/w%201/roleAssignments?continuationToken=LDEsMTAwMDAwLDA%3D',
    ],
  );
  // A filtered list keeps its filter on the next page; a token sent unencoded is encoded once.
  seen.length = 0;
  assert.deepEqual(
    (await client.listItems('w', 'Lakehouse')).map((i) => i.id),
    ['d', 'e'],
  );
  assert.deepEqual(
    seen.map((s) => s.url),
    ['/v1/workspaces/w/items?type=Lakehouse', '/v1/workspaces/w/items?type=Lakehouse&continuationToken=b%2B%2F%3D'],
  );
});

test('every OneLake call carries x-ms-version; each path segment is encoded, and an empty, . or .. segment is refused unsent', async (t) => {
  const { base, seen } = await recording(t, (url) => {
    if (url.startsWith('/ws?resource=filesystem')) {
      return url.includes('continuation=')
        ? { body: { paths: [{ name: 'lh/Tables/t/b.csv' }] } }
        : { body: { paths: [{ name: 'lh/Tables/t', isDirectory: 'true' }] }, headers: { 'x-ms-continuation': 'next page' } };
    }
    return { status: url.includes('resource=directory') ? 201 : 200 };
  });
  const lake = new OneLakeClient(testPipeline(2), base, 'https://storage.azure.com');
  await lake.createDirectory('ws', 'lh', 'Tables/floor sessions');
  const paths = await lake.listPaths('ws', 'lh/Tables/t', true);
  assert.deepEqual(
    paths.map((p) => p.name),
    ['lh/Tables/t', 'lh/Tables/t/b.csv'],
  );
  await lake.readText('ws', 'lh/Tables/t/b.csv');
  assert.deepEqual(
    seen.map((s) => `${s.method} ${s.url}`),
    [
      'PUT /ws/lh/Tables/floor%20sessions?resource=directory',
      'GET /ws?resource=filesystem&recursive=true&directory=lh%2FTables%2Ft',
      'GET /ws?resource=filesystem&recursive=true&directory=lh%2FTables%2Ft&continuation=next%20page',
      'GET /ws/lh/Tables/t/b.csv',
    ],
  );
  for (const s of seen) {
    assert.equal(s.headers['x-ms-version'], ONELAKE_API_VERSION, s.url);
    assert.equal(s.headers.authorization, 'Bearer token-for-https://storage.azure.com');
  }
  seen.length = 0;
  for (const bad of ['Tables/../../other', 'Tables//x', 'Tables/.'])
    await assert.rejects(lake.createDirectory('ws', 'lh', bad), UnsafePathError, bad);
  await assert.rejects(lake.readText('ws', '../ws2/lh/secret.csv'), UnsafePathError);
  await assert.rejects(lake.listPaths('ws', 'lh/../x', true), UnsafePathError);
  assert.deepEqual(seen, [], 'nothing was sent');
});

test("the pipeline's transport: headers read by any case, a repeated one joined; a POST without a body says so; a refused connection and a silent service are status 0 with their codes", async (t) => {
  const { base, seen } = await recording(t, () => ({ body: { ok: true }, headers: { 'Retry-After': '2', 'x-ms-request-id': 'r1' } }));
  const pipeline = testPipeline(4);
  const got = await pipeline.send({
    service: 'data-platform',
    method: 'POST',
    url: `${base}/v1/workspaces/w/items/i/getDefinition`,
    audience: 'dp',
  });
  assert.equal(got.status, 200);
  assert.deepEqual(got.json(), { ok: true });
  assert.equal(got.headers.get('retry-after'), '2');
  assert.equal(got.headers.get('X-MS-Request-Id'), 'r1');
  assert.equal(got.headers.get('location'), null);
  assert.equal(seen[0]!.headers['content-length'], '0');
  assert.equal(seen[0]!.headers.authorization, 'Bearer token-for-dp');

  // A header the service sent twice reads as Headers reads it: the values joined.
  const twice = http.createServer((_req, res) => {
    res.setHeader('x-ms-warning', ['one', 'two']);
    res.end('{}');
  });
  await new Promise<void>((r) => twice.listen(0, '127.0.0.1', r));
  t.after(() => twice.close());
  const joined = await pipeline.send({ service: 'arm', method: 'GET', url: `http://127.0.0.1:${(twice.address() as AddressInfo).port}/x` });
  assert.equal(joined.headers.get('x-ms-warning'), 'one, two');

  // Nobody listening: the connection's own code, not a generic one.
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await assert.rejects(pipeline.send({ service: 'search', method: 'GET', url: `http://127.0.0.1:${port}/indexes` }), (err: any) => {
    assert.equal(err.status, 0);
    assert.equal(err.code, 'ECONNREFUSED');
    assert.match(err.message, /GET 127\.0\.0\.1:\d+: ECONNREFUSED/);
    return true;
  });

  // A service that never answers: 'timeout' after the request's own limit.
  const silent = http.createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.after(() => {
    silent.closeAllConnections();
    silent.close();
  });
  await assert.rejects(
    pipeline.send({
      service: 'kql',
      method: 'GET',
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/rest/mgmt`,
      timeoutMs: 100,
    }),
    (err: any) => {
      assert.equal(err.status, 0);
      assert.equal(err.code, 'timeout');
      assert.match(err.message, /no answer within 100 ms/);
      return true;
    },
  );
});

test("beside other installs, an item missing from the job's list is looked for in a fresh list before a create (which shared access refuses)", async (t) => {
  // The platform workspace: the pipeline is not there when the job lists the type, and is there once another install made it.
  const definition = {
    parts: [
      { path: 'pipeline-content.json', payload: Buffer.from('{"properties":{}}').toString('base64'), payloadType: 'InlineBase64' as const },
    ],
  };
  let made = false;
  const { base, seen } = await recording(t, (url) => {
    if (url.startsWith('/v1/workspaces/ws-1/items?type=DataPipeline'))
      return {
        body: { value: made ? [{ id: 'p-1', displayName: 'Backfill Daily Sales', type: 'DataPipeline', workspaceId: 'ws-1' }] : [] },
      };
    if (url === '/v1/workspaces/ws-1/items/p-1/getDefinition') return { body: { definition } };
    return { status: 500, body: { errorCode: 'Unexpected', message: url } };
  });
  const pipeline = testPipeline(4);
  const lines: string[] = [];
  const ctx = {
    item: { itemType: 'data-pipeline', displayName: 'Backfill Daily Sales', description: 'Rebuilds daily sales.' },
    target: { platformWorkspaceId: 'ws-1' },
    profile: { name: 'commercial' },
    backends: { dataPlatform: new DataPlatformClient(pipeline, `${base}/v1`, 'dp') },
    lists: new JobLists(new DataPlatformClient(pipeline, `${base}/v1`, 'dp')),
    log: (line: string) => lines.push(line),
  } as unknown as StepContext;
  await ctx.lists!.list('ws-1', 'DataPipeline'); // an earlier step of the job listed the type
  made = true; // then another install made the pipeline

  const beside = await withSharedAccess(() => ensurePlatformItem(ctx, { type: 'DataPipeline', collection: 'dataPipelines', definition }));
  assert.equal(beside.refused, undefined, 'nothing refused: the step stays beside the others');
  assert.equal(beside.value.item.id, 'p-1');
  assert.equal(beside.value.created, false);
  assert.ok(beside.value.unchanged, 'the definition read and found the same');
  assert.deepEqual(
    seen.map((r) => `${r.method} ${r.url.replace(/\?.*/, '')}`),
    ['GET /v1/workspaces/ws-1/items', 'GET /v1/workspaces/ws-1/items', 'POST /v1/workspaces/ws-1/items/p-1/getDefinition'],
  );

  // Outside shared access (a step alone), the job's list is trusted: a missing item is created at once.
  const alone = new JobLists(new DataPlatformClient(pipeline, `${base}/v1`, 'dp'));
  made = false;
  await alone.list('ws-1', 'DataPipeline');
  made = true;
  seen.length = 0;
  await assert.rejects(ensurePlatformItem({ ...ctx, lists: alone }, { type: 'DataPipeline', collection: 'dataPipelines', definition }));
  assert.deepEqual(
    seen.map((r) => `${r.method} ${r.url}`),
    ['POST /v1/workspaces/ws-1/dataPipelines'],
  );
});
