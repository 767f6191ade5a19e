import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';

const V = 'api-version=2024-07-01';
const index = {
  name: 'policy-chunks',
  fields: [
    { name: 'id', type: 'Edm.String', key: true, filterable: true },
    { name: 'title', type: 'Edm.String', searchable: true, analyzer: 'en.lucene' },
    { name: 'ordinal', type: 'Edm.Int32', filterable: true, sortable: true },
    { name: 'effective', type: 'Edm.DateTimeOffset', filterable: true },
    { name: 'tags', type: 'Collection(Edm.String)', filterable: true },
    { name: 'vec', type: 'Collection(Edm.Single)', searchable: true, retrievable: true, dimensions: 3, vectorSearchProfile: 'p1' },
  ],
  vectorSearch: {
    profiles: [{ name: 'p1', algorithm: 'hnsw1' }],
    algorithms: [{ name: 'hnsw1', kind: 'hnsw', hnswParameters: { m: 4, metric: 'cosine' } }],
  },
};

test('index PUT on both URL forms: 201 created, 200 with Prefer: return=representation, 204 without; the full definition echoed', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'https://search.azure.com' });
  const created = await call(`${sb.env.SVC_SEARCH_SERVICE}/indexes/policy-chunks?${V}`, {
    method: 'PUT',
    token,
    json: index,
    headers: { prefer: 'return=representation' },
  });
  assert.equal(created.status, 201, created.text);
  assert.ok(created.headers.get('etag'));
  assert.match(created.headers.get('content-type')!, /odata\.metadata=minimal/);
  assert.ok(created.headers.get('request-id'));
  const title = created.body.fields.find((f: any) => f.name === 'title');
  assert.deepEqual(
    [title.searchable, title.filterable, title.sortable, title.facetable, title.retrievable, title.key, title.analyzer],
    [true, true, true, true, true, false, 'en.lucene'],
    'omitted booleans default, every attribute echoed',
  );
  const vec = created.body.fields.find((f: any) => f.name === 'vec');
  assert.deepEqual([vec.dimensions, vec.vectorSearchProfile, vec.filterable], [3, 'p1', false]);
  const updated = await call(`${sb.urls.search}/indexes('policy-chunks')?${V}`, {
    method: 'PUT',
    token,
    json: { ...index, fields: [...index.fields, { name: 'extra', type: 'Edm.String' }] },
    headers: { prefer: 'return=representation' },
  });
  assert.equal(updated.status, 200);
  assert.equal(updated.body.fields.length, 7);
  assert.equal(
    (
      await call(`${sb.urls.search}/indexes('policy-chunks')?${V}`, {
        method: 'PUT',
        token,
        json: { ...index, fields: [...index.fields, { name: 'extra', type: 'Edm.String' }] },
      })
    ).status,
    204,
  );
  const changed = await call(`${sb.urls.search}/indexes/policy-chunks?${V}`, {
    method: 'PUT',
    token,
    json: { ...index, fields: index.fields.map((f) => (f.name === 'ordinal' ? { ...f, type: 'Edm.Int64' } : f)) },
  });
  assert.equal(changed.status, 400);
  assert.equal(changed.body.error.code, 'OperationNotAllowed');
  assert.equal(
    (await call(`${sb.urls.search}/indexes/policy-chunks?${V}`, { method: 'PUT', token, json: index, headers: { 'if-none-match': '*' } }))
      .status,
    412,
  );
  assert.equal(
    (await call(`${sb.urls.search}/indexes?${V}`, { method: 'POST', token, json: index })).body.error.code,
    'ResourceNameAlreadyInUse',
  );
});

test('index validation: exactly one Edm.String key, valid types, resolvable vector profiles, api-version required', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  const put = (json: unknown, q = V) => call(`${sb.urls.search}/indexes/bad?${q}`, { method: 'PUT', token, json });
  const cases: Array<[unknown, RegExp]> = [
    [{ name: 'bad', fields: [{ name: 'a', type: 'Edm.String' }] }, /exactly one key field/],
    [
      {
        name: 'bad',
        fields: [
          { name: 'a', type: 'Edm.String', key: true },
          { name: 'b', type: 'Edm.String', key: true },
        ],
      },
      /exactly one key field/,
    ],
    [{ name: 'bad', fields: [{ name: 'a', type: 'Edm.Int32', key: true }] }, /must be of type Edm.String/],
    [
      {
        name: 'bad',
        fields: [
          { name: 'a', type: 'Edm.String', key: true },
          { name: 'b', type: 'Edm.Text' },
        ],
      },
      /invalid type/,
    ],
    [
      {
        name: 'bad',
        fields: [
          { name: 'a', type: 'Edm.String', key: true },
          { name: 'v', type: 'Collection(Edm.Single)', dimensions: 3, vectorSearchProfile: 'nope' },
        ],
      },
      /vector search profile 'nope'/,
    ],
    [{ name: 'Bad_Name', fields: [{ name: 'a', type: 'Edm.String', key: true }] }, /does not match|is invalid/],
  ];
  for (const [json, message] of cases) {
    const r = await put(json);
    assert.equal(r.status, 400, JSON.stringify(json));
    assert.equal(r.body.error.code, '');
    assert.match(r.body.error.message, /^The request is invalid\. Details: /);
    assert.match(r.body.error.message, message);
  }
  const noVersion = await put({ name: 'bad', fields: [{ name: 'a', type: 'Edm.String', key: true }] }, '');
  assert.equal(noVersion.status, 400);
  assert.match(noVersion.body.error.message, /api-version/);
});

test('document batches: 200 when every action succeeds, 207 with per-document results otherwise; counts and lookups', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  await call(`${sb.urls.search}/indexes/policy-chunks?${V}`, { method: 'PUT', token, json: index });
  const batch = (value: unknown[], form = 'indexes/policy-chunks/docs/index') =>
    call(`${sb.urls.search}/${form}?${V}`, { token, json: { value } });
  const ok = await batch([
    {
      '@search.action': 'upload',
      id: 'a1',
      title: 'Telework policy',
      ordinal: 1,
      effective: '2024-01-01T00:00:00Z',
      tags: ['hr'],
      vec: [0.1, 0.2, 0.3],
    },
    { '@search.action': 'mergeOrUpload', id: 'a2', title: 'Travel policy', ordinal: 2 },
  ]);
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body.value, [
    { key: 'a1', status: true, errorMessage: null, statusCode: 201 },
    { key: 'a2', status: true, errorMessage: null, statusCode: 201 },
  ]);
  const mixed = await batch(
    [
      { '@search.action': 'mergeOrUpload', id: 'a1', title: 'Telework policy (2025)' },
      { '@search.action': 'merge', id: 'missing', title: 'x' },
      { '@search.action': 'upload', id: 'bad key!', title: 'x' },
    ],
    "indexes('policy-chunks')/docs/search.index",
  );
  assert.equal(mixed.status, 207);
  assert.deepEqual(
    mixed.body.value.map((r: any) => [r.key, r.status, r.statusCode]),
    [
      ['a1', true, 200],
      ['missing', false, 404],
      ['bad key!', false, 400],
    ],
  );
  assert.match(mixed.body.value[2].errorMessage, /Invalid document key/);
  const wrongType = await batch([{ id: 'a3', ordinal: 'three' }]);
  assert.equal(wrongType.status, 400, 'a value of the wrong type fails the whole batch');
  assert.match(wrongType.body.error.message, /Edm.Int32/);
  assert.equal((await batch([{ id: 'a3', nope: 1 }])).status, 400);
  const count = await fetch(`${sb.urls.search}/indexes/policy-chunks/docs/$count?${V}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(await count.text(), '2');
  const doc = await call(`${sb.urls.search}/indexes('policy-chunks')/docs('a1')?${V}`, { token });
  assert.equal(doc.body.title, 'Telework policy (2025)');
  assert.equal(doc.body.ordinal, 1, 'mergeOrUpload keeps the other fields');
  const found = await call(`${sb.urls.search}/indexes/policy-chunks/docs?${V}&search=travel&$count=true`, { token });
  assert.equal(found.body['@odata.count'], 1);
  const state = await sb.admin.state();
  assert.deepEqual(
    state.search.indexes.map((i) => [i.name, i.documentCount]),
    [['policy-chunks', 2]],
  );
});

test('api-key or bearer: a wrong key 403, a query key reads only, a wrong audience 401, missing Search roles 403 with the real body', async (t) => {
  const sb = await sandbox(t);
  const url = `${sb.urls.search}/indexes/keyed?${V}`;
  const def = { name: 'keyed', fields: [{ name: 'id', type: 'Edm.String', key: true }] };
  assert.equal((await call(url, { method: 'PUT', json: def, headers: { 'api-key': sb.ids.searchAdminKey } })).status, 201);
  assert.equal((await call(url, { method: 'PUT', json: def, headers: { 'api-key': 'WRONG' } })).status, 403);
  assert.equal((await call(url, { method: 'PUT', json: def, headers: { 'api-key': sb.ids.searchQueryKey } })).status, 403);
  assert.equal(
    (await call(`${sb.urls.search}/indexes/keyed/docs?${V}&search=*`, { headers: { 'api-key': sb.ids.searchQueryKey } })).status,
    200,
  );
  const wrongAud = await call(url, { token: await sb.admin.token({ audience: 'arm' }) });
  assert.equal(wrongAud.status, 401);
  assert.ok(wrongAud.headers.get('www-authenticate'));
  const token = await sb.admin.token({ audience: 'search' });
  await sb.admin.revoke({ service: 'search', role: 'Search Service Contributor' });
  const denied = await call(url, { method: 'PUT', token, json: def });
  assert.equal(denied.status, 403);
  assert.deepEqual(denied.body, { error: { code: '', message: 'Authorization failed.' } });
  assert.equal(
    (await call(`${sb.urls.search}/indexes/keyed/docs/index?${V}`, { token, json: { value: [{ id: 'x' }] } })).status,
    200,
    'documents still need only Index Data Contributor',
  );
  await sb.admin.revoke({ service: 'search', role: 'Search Index Data Contributor' });
  assert.equal((await call(`${sb.urls.search}/indexes/keyed/docs/index?${V}`, { token, json: { value: [{ id: 'y' }] } })).status, 403);
  await sb.admin.setSwitch('search.authMode', 'apiKeyOnly');
  assert.equal((await call(url, { token })).status, 401, 'bearer tokens need RBAC enabled on the service');
});
