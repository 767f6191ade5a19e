import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandbox } from './helpers.js';
import { runSdkScript } from './sdk-helpers.js';

// The sandbox has no autocomplete route on this branch yet, so the SDK's autocomplete is not exercised here.
test('@azure/search-documents with a TokenCredential against the https sandbox: create an index, upload, search, count, look up, errors', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-search-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const sb = await sandbox(t, { tls: true, dataDir: dir });
  const principal = sb.ids.servicePrincipals[0]!.appId;
  for (const role of ['Search Service Contributor', 'Search Index Data Contributor', 'Search Index Data Reader'])
    await sb.admin.grant({ service: 'search', role, principal });
  const out = await runSdkScript(sb, 'search.ts');
  const ok = (name: string) => {
    assert.ok('ok' in out[name]!, `${name}: ${JSON.stringify(out[name])}`);
    return out[name].ok;
  };
  const failed = (name: string) => {
    assert.ok('error' in out[name]!, `${name} fails`);
    return out[name].error;
  };

  const created = ok('createIndex');
  assert.deepEqual([created.name, created.fields], ['wards', ['id', 'name', 'unit', 'beds']]);
  assert.match(created.eTag, /^"0x[0-9A-F]+"$/, 'the index carries its etag');
  const again = failed('createAgain');
  assert.deepEqual([again.name, again.statusCode, again.code], ['RestError', 409, 'ResourceNameAlreadyInUse']);
  assert.equal(again.message, "Cannot create index 'wards' because it already exists.");
  const bad = failed('badIndex');
  assert.deepEqual([bad.name, bad.statusCode], ['RestError', 400]);
  assert.match(bad.message, /exactly one key field/);

  assert.deepEqual(ok('upload'), [
    ['w1', true, 201],
    ['w2', true, 201],
    ['w3', true, 201],
  ]);
  const found = ok('search');
  assert.equal(found.count, 1);
  assert.deepEqual(found.hits, [{ score: 1, id: 'w1', name: 'North cardiology ward' }]);
  assert.equal(ok('count'), 3);
  assert.deepEqual(ok('lookup'), { id: 'w3', name: 'East oncology ward', unit: 'onco', beds: 30 });
  const missing = failed('missingIndex');
  assert.deepEqual([missing.name, missing.statusCode], ['RestError', 404]);
  assert.match(missing.message, /No index with the name 'nope' was found/);

  const state = await sb.admin.state();
  assert.deepEqual(
    state.search.indexes.map((i: { name: string; documentCount: number }) => [i.name, i.documentCount]),
    [['wards', 3]],
  );
  const log = await sb.admin.requests({ service: 'search' });
  assert.ok(
    log.every((r) => r.identity === sb.ids.servicePrincipals[0]!.objectId),
    "every call carried the service principal's bearer token",
  );
});
