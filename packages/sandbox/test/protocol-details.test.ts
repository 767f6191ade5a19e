// Headers the real services send that clients rely on: a KQL dashboard's 201 names its URL, every operation poll
// carries Retry-After, and the KQL cluster always answers an x-ms-client-request-id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, part, sandbox, sleep } from './helpers.js';

test('a KQL dashboard created with 201 answers Location, the new dashboard’s URL', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  const token = await sb.admin.token({ audience: 'dataPlatform' });
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const res = await call(`${ws}/kqlDashboards`, { token, json: { displayName: 'Plant Operations' } });
  assert.equal(res.status, 201);
  assert.equal(
    res.headers.get('location'),
    `${sb.urls.dataPlatform}/v1/workspaces/${sb.ids.platformWorkspaceId}/kqlDashboards/${res.body.id}`,
  );
  const got = await call(res.headers.get('location')!, { token });
  assert.equal(got.status, 200);
  assert.equal(got.body.displayName, 'Plant Operations');
});

test('every operation poll answers Retry-After, the Succeeded one too', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('dataPlatform.lroMs', 300);
  const token = await sb.admin.token({ audience: 'dataPlatform' });
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const res = await call(`${ws}/notebooks`, {
    token,
    json: { displayName: 'Step', definition: { parts: [part('notebook-content.py', '# Fabric notebook source\n')] } },
  });
  assert.equal(res.status, 202);
  for (;;) {
    const poll = await call(res.headers.get('location')!, { token });
    assert.match(poll.headers.get('retry-after') ?? '', /^\d+$/, `Retry-After on a ${poll.body.status} poll`);
    if (poll.body.status === 'Succeeded') break;
    await sleep(100);
  }
});

test('the KQL cluster echoes x-ms-client-request-id, and makes one up (never empty) when the client sent none', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'kql' });
  const mgmt = (headers: Record<string, string>) =>
    call(`${sb.env.SVC_KQL_CLUSTER_URI}/v1/rest/mgmt`, { token, headers, json: { db: 'NoSuchDb', csl: '.show tables' } });
  const sent = await mgmt({ 'x-ms-client-request-id': 'svc;4711' });
  assert.equal(sent.headers.get('x-ms-client-request-id'), 'svc;4711');
  assert.equal(sent.body.error['@context'].clientRequestId, 'svc;4711');
  const none = await mgmt({});
  const made = none.headers.get('x-ms-client-request-id');
  assert.ok(made && made.length > 0, `made up: '${made}'`);
  assert.equal(none.body.error['@context'].clientRequestId, made, 'the body names the same id');
  assert.match(none.body.error['@context'].activityStack, new RegExp(`CRID=${made}`));
});
