// OneLake's DFS endpoint refuses what storage refuses: a request without x-ms-version (a required header of every
// operation in specs/storage-dfs) is 400 MissingRequiredHeader in the storage JSON error shape, and nothing changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, DFS_VERSION, sandbox } from './helpers.js';

async function lakehouse(t: Parameters<typeof sandbox>[0]) {
  const sb = await sandbox(t);
  const fabric = await sb.admin.token({ audience: 'https://api.fabric.microsoft.com' });
  const lh = (
    await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/lakehouses`, {
      token: fabric,
      json: { displayName: 'VersionLake' },
    })
  ).body;
  const storage = await sb.admin.token({ audience: 'storage' });
  const fs = `${sb.env.SVC_ONELAKE_URL}/${sb.ids.platformWorkspaceId}`;
  return { sb, lh, storage, fs };
}

test('a OneLake request without x-ms-version is 400 MissingRequiredHeader naming the header; nothing is created', async (t) => {
  const { lh, storage, fs } = await lakehouse(t);
  const listing = `${fs}?resource=filesystem&recursive=true&directory=${lh.id}/Tables`;
  const refused = await call(`${fs}/${lh.id}/Tables/orders?resource=directory`, { method: 'PUT', token: storage });
  assert.equal(refused.status, 400);
  assert.equal(refused.headers.get('x-ms-error-code'), 'MissingRequiredHeader');
  assert.equal(refused.body.error.code, 'MissingRequiredHeader');
  assert.match(
    refused.body.error.message,
    /^An HTTP header that's mandatory for this request is not specified\. \(x-ms-version\)\nRequestId:[\w-]+\nTime:/,
  );
  assert.ok(refused.headers.get('x-ms-request-id'));
  // Every operation requires it: listing, reading, the HEAD of a path, delete.
  for (const [method, url] of [
    ['GET', listing],
    ['GET', `${fs}/${lh.id}/Tables`],
    ['HEAD', `${fs}/${lh.id}/Tables`],
    ['DELETE', `${fs}/${lh.id}/Tables/orders`],
  ] as const) {
    const r = await call(url, { method, token: storage });
    assert.deepEqual([r.status, r.headers.get('x-ms-error-code')], [400, 'MissingRequiredHeader'], `${method} ${url}`);
  }
  const paths = await call(listing, { token: storage, headers: DFS_VERSION });
  assert.equal(paths.status, 200, paths.text);
  assert.deepEqual(paths.body.paths, [], 'the refused PUT created nothing');

  // The same request with the version is served; a value that is not a version is refused as storage does.
  const made = await call(`${fs}/${lh.id}/Tables/orders?resource=directory`, { method: 'PUT', token: storage, headers: DFS_VERSION });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.headers.get('x-ms-version'), DFS_VERSION['x-ms-version']);
  const bad = await call(`${fs}/${lh.id}/Tables/orders?resource=directory`, {
    method: 'PUT',
    token: storage,
    headers: { 'x-ms-version': 'latest' },
  });
  assert.deepEqual([bad.status, bad.body.error.code], [400, 'InvalidHeaderValue']);
  assert.match(bad.body.error.message, /x-ms-version/);
  assert.deepEqual(
    (await call(listing, { token: storage, headers: DFS_VERSION })).body.paths.map((p: { name: string }) => p.name),
    [`${lh.id}/Tables/orders`],
  );
});
