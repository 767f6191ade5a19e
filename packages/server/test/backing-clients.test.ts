// One client per backing service: the data-platform pager follows whichever continuation a page carries, and every
// OneLake call names its storage API version and builds its path one checked segment at a time.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataPlatformClient } from '../src/backends/data-platform.js';
import { UnsafePathError } from '../src/backends/http-pipeline.js';
import { ONELAKE_API_VERSION, OneLakeClient } from '../src/backends/onelake.js';
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
