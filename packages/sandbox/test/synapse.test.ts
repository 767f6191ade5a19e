import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox, sleep } from './helpers.js';
import { validate } from '../src/conformance/validate.js';
import type { Sandbox } from '../src/index.js';

const V = 'api-version=2020-12-01';
const notebook = (pool = 'sparkpool01') => ({
  name: 'nb one',
  properties: {
    bigDataPool: { type: 'BigDataPoolReference', referenceName: pool },
    nbformat: 4,
    nbformat_minor: 2,
    metadata: { kernelspec: { name: 'synapse_pyspark', display_name: 'Synapse PySpark' } },
    cells: [{ cell_type: 'code', metadata: {}, source: ['print(1)'] }],
  },
});

/** The body with the name the path ends with, as the SDKs send it (NotebookResource requires it). */
const named = (path: string, json: unknown) =>
  json && typeof json === 'object' ? { name: decodeURIComponent(path.split('/').pop()!), ...json } : json;

/** A PUT or DELETE followed to its end: the 202, then the operation's Location until it is no longer 202. */
async function run(sb: Sandbox, token: string, method: 'PUT' | 'DELETE', path: string, json?: unknown) {
  const first = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}${path}?${V}`, { method, token, json: named(path, json) });
  if (first.status !== 202) return { first, last: first };
  let last = first;
  for (let i = 0; i < 50 && last.status === 202; i++) {
    await sleep(50);
    last = await call(first.headers.get('location')!, { token });
  }
  return { first, last };
}

test('notebook: long-running PUT (202 + Location, InProgress, then the resource), GET, list, DELETE, 404 when gone', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'https://dev.azuresynapse.net' });
  assert.equal(sb.env.SVC_SYNAPSE_SPARK_POOL, 'sparkpool01');
  // Long enough that the reads below come before it completes even on a loaded machine.
  await sb.admin.setSwitch('synapse.lroMs', 3000);
  const put = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks/nb%20one?${V}`, { method: 'PUT', token, json: notebook() });
  assert.equal(put.status, 202, put.text);
  assert.match(put.headers.get('location')!, /\/notebookOperationResults\/[^/?]+\?api-version=2020-12-01$/);
  assert.equal(put.body.state, 'Creating');
  const running = await call(put.headers.get('location')!, { token });
  assert.equal(running.status, 202);
  assert.equal(running.body.status, 'InProgress');
  assert.equal(
    (await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks/nb%20one?${V}`, { token })).status,
    404,
    'not there before it completes',
  );
  let done = running;
  for (let i = 0; i < 100 && done.status === 202; i++) {
    await sleep(100);
    done = await call(put.headers.get('location')!, { token });
  }
  assert.equal(done.status, 200);
  assert.equal(done.body.name, 'nb one');
  const got = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks/nb%20one?${V}`, { token });
  assert.equal(got.status, 200);
  assert.equal(got.body.type, 'Microsoft.Synapse/workspaces/notebooks');
  assert.deepEqual(got.body.properties.cells[0].source, ['print(1)']);
  assert.ok(got.body.etag);
  const list = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks?${V}`, { token });
  assert.deepEqual(
    list.body.value.map((n: any) => n.name),
    ['nb one'],
  );
  // If-Match names the etag an update expects; a second write while one runs is refused.
  const url = `${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks/nb%20one?${V}`;
  const stale = await call(url, { method: 'PUT', token, json: notebook(), headers: { 'if-match': '"stale"' } });
  assert.equal(stale.status, 412, stale.text);
  const update = await call(url, { method: 'PUT', token, json: notebook(), headers: { 'if-match': got.body.etag } });
  assert.equal(update.status, 202, update.text);
  assert.equal(update.body.state, 'Updating');
  const busy = await call(url, { method: 'PUT', token, json: notebook() });
  assert.equal(busy.status, 409, busy.text);
  let updated = update;
  for (let i = 0; i < 100 && updated.status === 202; i++) {
    await sleep(100);
    updated = await call(update.headers.get('location')!, { token });
  }
  assert.equal(updated.status, 200);
  await sb.admin.setSwitch('synapse.lroMs', 100);
  assert.notEqual((await call(url, { token })).body.etag, got.body.etag, 'the update took effect with a new etag');
  const del = await run(sb, token, 'DELETE', '/notebooks/nb%20one');
  assert.equal(del.first.status, 202);
  assert.equal(del.last.status, 200);
  assert.equal((await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks/nb%20one?${V}`, { token })).status, 404);
  const again = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks/nb%20one?${V}`, { method: 'DELETE', token });
  assert.equal(again.status, 204, 'a notebook already gone: No Content');
  // Every request the test sent is described by the artifacts API (or is the documented operation Location).
  for (const r of await sb.admin.requests({ service: 'synapse' })) {
    const v = validate(r);
    assert.ok(['described', 'extension'].includes(v.kind) && !v.problems.length, `${r.method} ${r.path}: ${v.kind} ${v.problems}`);
  }
});

test('refusals: api-version, audience, Synapse role, names, body shape, Spark pool, references; CloudError bodies', async (t) => {
  const sb = await sandbox(t);
  const url = sb.env.SVC_SYNAPSE_DEV_URL;
  const token = await sb.admin.token({ audience: 'https://dev.azuresynapse.net' });
  const missing = await call(`${url}/notebooks`, { token });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.code, 'MissingApiVersionParameter');
  const old = await call(`${url}/notebooks?api-version=2018-01-01`, { token });
  assert.equal(old.status, 400);
  assert.equal(old.body.error.code, 'InvalidApiVersionParameter');
  const arm = await sb.admin.token({ audience: 'arm' });
  assert.equal((await call(`${url}/notebooks?${V}`, { token: arm })).status, 401, 'a token for another audience');
  assert.equal((await call(`${url}/notebooks?${V}`)).status, 401);
  const bad = async (path: string, json: unknown, re: RegExp) => {
    const r = await call(`${url}${path}?${V}`, { method: 'PUT', token, json: named(path, json) });
    assert.equal(r.status, 400, `${path}: ${r.text}`);
    assert.equal(typeof r.body.error.code, 'string');
    assert.match(r.body.error.message, re);
  };
  await bad('/notebooks/bad.name', { ...notebook(), name: 'bad.name' }, /name 'bad\.name' is invalid/);
  await bad(`/notebooks/${'n'.repeat(141)}`, { properties: notebook().properties }, /at most 140/);
  await bad('/notebooks/nb', { properties: { ...notebook().properties, cells: undefined } }, /cells: required/);
  await bad('/notebooks/nb', { properties: notebook('nopool').properties }, /Spark pool 'nopool' does not exist/);
  await bad('/linkedservices/has-hyphen', { properties: { type: 'AzureBlobFS', typeProperties: {} } }, /invalid/);
  const pipeline = (activity: unknown) => ({ properties: { activities: [activity] } });
  await bad(
    '/pipelines/p',
    pipeline({ name: 'run', type: 'SynapseNotebook', typeProperties: { notebook: { type: 'NotebookReference', referenceName: 'ghost' } } }),
    /invalid reference 'ghost'/,
  );
  await bad(
    '/pipelines/p',
    pipeline({
      name: 'copy',
      type: 'Copy',
      inputs: [{ type: 'DatasetReference', referenceName: 'nods' }],
      outputs: [],
      typeProperties: { source: { type: 'ParquetSource' }, sink: { type: 'ParquetSink' } },
    }),
    /invalid reference 'nods'/,
  );
  await bad(
    '/datasets/ds',
    {
      properties: {
        type: 'Parquet',
        linkedServiceName: { type: 'LinkedServiceReference', referenceName: 'nols' },
        typeProperties: { location: { type: 'AzureBlobFSLocation' } },
      },
    },
    /invalid reference 'nols'/,
  );
  // Without a Synapse role the service identity is refused with 403; reads need any artifact role.
  await sb.admin.revoke({ service: 'synapse', role: 'Synapse Artifact Publisher' });
  const denied = await call(`${url}/notebooks/nb?${V}`, { method: 'PUT', token, json: notebook() });
  assert.equal(denied.status, 403);
  assert.match(denied.body.error.message, /does not have the required Synapse RBAC permission/);
  await sb.admin.grant({ service: 'synapse', role: 'Synapse Artifact User' });
  assert.equal((await call(`${url}/notebooks?${V}`, { token })).status, 200, 'an Artifact User reads');
  assert.equal((await call(`${url}/notebooks/nb?${V}`, { method: 'PUT', token, json: notebook() })).status, 403, 'but does not write');
});

test('a pipeline naming existing notebooks, datasets and linked services is accepted; lists page with nextLink; faults answer CloudError', async (t) => {
  const sb = await sandbox(t, { pageSize: 2 });
  const token = await sb.admin.token({ audience: 'https://dev.azuresynapse.net' });
  for (const n of ['a', 'b', 'c'])
    assert.equal((await run(sb, token, 'PUT', `/notebooks/${n}`, { properties: notebook().properties })).last.status, 200);
  const ls = { properties: { type: 'AzureBlobFS', typeProperties: { url: 'https://lake.dfs.core.windows.net' } } };
  assert.equal((await run(sb, token, 'PUT', '/linkedservices/lake', ls)).last.status, 200);
  const ds = {
    properties: {
      type: 'Parquet',
      linkedServiceName: { type: 'LinkedServiceReference', referenceName: 'lake' },
      typeProperties: { location: { type: 'AzureBlobFSLocation', fileSystem: 'data', folderPath: 'x/y' } },
    },
  };
  assert.equal((await run(sb, token, 'PUT', '/datasets/out', ds)).last.status, 200);
  const pipeline = {
    properties: {
      activities: [
        { name: 'run a', type: 'SynapseNotebook', typeProperties: { notebook: { type: 'NotebookReference', referenceName: 'a' } } },
        {
          name: 'copy',
          type: 'Copy',
          inputs: [{ type: 'DatasetReference', referenceName: 'out' }],
          outputs: [{ type: 'DatasetReference', referenceName: 'out' }],
          typeProperties: { source: { type: 'ParquetSource' }, sink: { type: 'ParquetSink' } },
        },
      ],
    },
  };
  const p = await run(sb, token, 'PUT', '/pipelines/p%201', pipeline);
  assert.equal(p.first.status, 202, p.first.text);
  assert.match(p.first.headers.get('location')!, /\/operationResults\//);
  assert.equal(p.last.status, 200);
  const first = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/notebooks?${V}`, { token });
  assert.equal(first.body.value.length, 2);
  assert.ok(first.body.nextLink);
  const second = await call(first.body.nextLink, { token });
  assert.deepEqual(
    second.body.value.map((n: any) => n.name),
    ['c'],
  );
  assert.equal(second.body.nextLink, undefined);
  // What a pipeline still names is not deleted: the notebook it runs, the dataset it copies with.
  for (const path of ['/notebooks/a', '/datasets/out', '/linkedservices/lake']) {
    const refused = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}${path}?${V}`, { method: 'DELETE', token });
    assert.equal(refused.status, 400, `${path}: ${refused.text}`);
    assert.match(refused.body.error.message, /cannot be deleted since it is referenced by/);
  }
  assert.equal((await run(sb, token, 'DELETE', '/notebooks/b')).last.status, 200, 'a notebook nothing names is deleted');
  await sb.admin.addFault({ service: 'synapse', method: 'GET', path: '^/pipelines', status: 503, count: 1 });
  const faulted = await call(`${sb.env.SVC_SYNAPSE_DEV_URL}/pipelines?${V}`, { token });
  assert.equal(faulted.status, 503);
  assert.ok(faulted.body.error.code);
  const state = await sb.admin.state();
  assert.deepEqual(
    state.synapse.pipelines.map((x) => x.name),
    ['p 1'],
  );
  for (const r of await sb.admin.requests({ service: 'synapse' })) {
    if (r.status >= 400) continue;
    const v = validate(r);
    assert.ok(['described', 'extension'].includes(v.kind) && !v.problems.length, `${r.method} ${r.path}: ${v.kind} ${v.problems}`);
  }
});
