// Identifiers that travel into backing paths: the one template encodes each as a whole segment, the pipeline refuses a
// path a URL parser would rewrite, and a provisioner's own fault is reported as the service's, not the backing's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { backingPath, BackingPipeline, UnsafePathError } from '../src/backends/http-pipeline.js';
import { DataPlatformClient } from '../src/backends/data-platform.js';
import { cloudOf } from './helpers.js';
import { runProvisioner } from '../src/install/runner.js';
import { resolveTarget } from '../src/provisioning/targets.js';
import { loadApp, DEFAULT_CATALOG_DIR } from '../src/catalog/load-catalog.js';
import type { Backends } from '../src/provisioning/context.js';
import { join } from 'node:path';

const credential = { principal: 'test', getToken: async () => 'token' };

test('backingPath encodes every value as one segment and refuses empty, . and ..', () => {
  assert.equal(backingPath`/workspaces/${'a/b?c#d'}/items/${'x y'}`, '/workspaces/a%2Fb%3Fc%23d/items/x%20y');
  assert.equal(backingPath`/workspaces/${'%2e%2e'}`, '/workspaces/%252e%252e', 'an encoded dot segment stays data');
  for (const bad of ['', '.', '..']) assert.throws(() => backingPath`/workspaces/${bad}/items`, UnsafePathError, `'${bad}'`);
});

test('the pipeline refuses a URL with a dot segment before anything is sent; an id with slashes stays one segment', async (t) => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url!);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"w","value":[]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const pipeline = new BackingPipeline(cloudOf({ SVC_CLOUD: 'sandbox' }), credential, {
    timeoutMs: 2000,
    retryDelayMs: 0,
    concurrencyPerService: 2,
  });
  for (const path of ['/workspaces/../admin', '/workspaces/%2E%2E/admin', '/a/./b', '/x/%2e']) {
    await assert.rejects(
      pipeline.send({ service: 'data-platform', method: 'GET', url: `${base}${path}`, audience: 'a' }),
      UnsafePathError,
      path,
    );
  }
  assert.deepEqual(seen, [], 'nothing reached the server');
  // Through a client: an identifier that tries to climb out of its workspace stays inside its own segment.
  const client = new DataPlatformClient(pipeline, base, 'a');
  await client.getLakehouse('x/../../roleAssignments#', 'lh');
  assert.deepEqual(seen, ['/v1/workspaces/x%2F..%2F..%2FroleAssignments%23/lakehouses/lh']);
  await assert.rejects(client.getLakehouse('ws', '..'), UnsafePathError);
  assert.equal(seen.length, 1);
});

test('a provisioner’s internal fault is the service’s failure (code internal_error, its own message), never the backing’s error text', async () => {
  const profile = cloudOf({ SVC_CLOUD: 'sandbox' });
  const app = loadApp(join(DEFAULT_CATALOG_DIR, 'app-finops-cost'));
  const item = app.items.find((i) => i.itemType === 'kql-database')!;
  const result = await runProvisioner({
    app,
    item,
    content: { database: 'finops', tables: [{ name: 'costs' }] },
    storedItemId: 'item-1',
    profile,
    // Content the provisioner does not expect (a table without columns) makes it throw a TypeError of its own.
    target: resolveTarget(
      profile,
      {
        kqlClusterUri: 'http://127.0.0.1:9',
        kqlClusterResourceId:
          '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Kusto/clusters/abcd',
      },
      'shared',
    ),
    backends: {
      kql: { putDatabase: async () => ({ id: 'db', created: true }), mgmt: async () => [], query: async () => [] },
    } as unknown as Backends,
    dependency: () => undefined,
    contentOf: () => undefined,
  });
  assert.equal(result.status, 'failed', JSON.stringify(result));
  assert.equal(result.error, undefined, 'no text is presented as the backing service’s');
  assert.equal(result.code, 'internal_error');
  assert.match(
    result.message!,
    /^The service failed while provisioning this kql-database \(an internal error, not the backing service's answer\): /,
  );
});
