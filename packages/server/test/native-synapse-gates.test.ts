// The Synapse gates (no Spark pool; no Synapse role), and two tenants' same-named items on one Synapse workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox } from '@svc/sandbox';
import type { BackingPipeline } from '../src/backends/http-pipeline.js';
import { SynapseClient } from '../src/backends/synapse.js';
import { hostAllowed, selectCloud } from '../src/cloud/profiles.js';
import { buildWithSandbox, OPERATOR, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { asAnotherClient, names, prefixOf, synapseCloud } from './native-synapse-helpers.js';

test(
  "a service identity without a Synapse role meets the synapse-auth gate; two tenants' same-named notebooks do not collide",
  { timeout: 300_000 },
  async (t) => {
    const { sb, h, tenant, prefix } = await synapseCloud(t);
    const ws = await workspace(h, tenant);
    const content = { language: 'python', cells: [{ kind: 'code', source: 'print(1)' }] };
    await sb.admin.revoke({ service: 'synapse', role: 'Synapse Artifact Publisher' });
    const denied = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items`, 201, {
      itemType: 'notebook',
      displayName: 'Scratch',
      content,
      deploy: true,
    });
    const refused = await followJob(h, tenant, denied.item.provisioning.jobId);
    const result = refused.steps[0].result;
    assert.equal(result.status, 'remediation', JSON.stringify(result));
    assert.equal(result.gate.reason, 'Synapse workspace 401/403');
    assert.match(result.gate.remediation, /Synapse Artifact Publisher/);
    assert.equal(result.gate.link, h.services.profile.synapseStudioUrl);
    assert.match(result.error, /does not have the required Synapse RBAC permission/, "the service's own words, unmodified");
    await sb.admin.grant({ service: 'synapse', role: 'Synapse Artifact Publisher' });
    const retried = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${denied.item.id}/apply`, 202)).job.id,
    );
    assert.equal(retried.status, 'done', JSON.stringify(retried.steps));

    // A second tenant with its own platform workspace, on the same Synapse workspace.
    const other = await h.tenant();
    const otherWs = randomUUID();
    await h.services.tenancy.assignPlatformWorkspace(OPERATOR, other.tenantId, otherWs);
    const port = new URL(`http://${sb.env.SVC_WAREHOUSE_SERVER}`).port;
    await h.services.tenancy.assignTarget(OPERATOR, other.tenantId, {
      kind: 'warehouse',
      address: `localhost:${port}`,
      workspace: sb.env.SVC_WAREHOUSE_WORKSPACE,
      database: sb.env.SVC_WAREHOUSE_DEDICATED_POOL,
    });
    const theirs = await workspace(h, other);
    const posted = await call(h, other, 'POST', `/api/workspaces/${theirs}/items`, 201, {
      itemType: 'notebook',
      displayName: 'Scratch',
      content,
      deploy: true,
    });
    const done = await followJob(h, other, posted.item.provisioning.jobId);
    assert.equal(done.steps[0].result.status, 'created', JSON.stringify(done.steps[0].result));
    const state = (await sb.admin.state()).synapse;
    assert.deepEqual(names(state.notebooks), [`${prefix}Scratch`, `${prefixOf(otherWs)}Scratch`].sort());
    // Deleting the other tenant's item deletes its notebook only.
    const removal = await call(h, other, 'DELETE', `/api/workspaces/${theirs}/items/${posted.item.id}?deleteLive=true`, 202);
    const removed = await followJob(h, other, removal.job.id);
    assert.equal(removed.steps[0].result.status, 'deleted', JSON.stringify(removed.steps[0].result));
    assert.deepEqual(names((await sb.admin.state()).synapse.notebooks), [`${prefix}Scratch`]);
    // A notebook deleted outside the service: the item's delete finds it gone (removed:false), not an error.
    await asAnotherClient(sb, 'DELETE', `/notebooks/${encodeURIComponent(`${prefix}Scratch`)}`);
    const late = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${denied.item.id}?deleteLive=true`, 202);
    const lateJob = await followJob(h, tenant, late.job.id);
    assert.equal(lateJob.steps[0].result.status, 'not-found', JSON.stringify(lateJob.steps[0].result));
  },
);

test('without a Spark pool a notebook meets the synapse-not-configured gate, before any Synapse write', { timeout: 120_000 }, async (t) => {
  const sb = await startSandbox({ dataPlatform: false });
  t.after(() => sb.stop());
  const { h, tenant } = await buildWithSandbox(t, { SVC_SYNAPSE_SPARK_POOL: '' }, sb);
  const ws = await workspace(h, tenant);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const content = { language: 'python', cells: [{ kind: 'code', source: 'print(1)' }] };
  const posted = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items`, 201, {
    itemType: 'notebook',
    displayName: 'Scratch',
    content,
    deploy: true,
  });
  const job = await followJob(h, tenant, posted.item.provisioning.jobId);
  const result = job.steps[0].result;
  assert.equal(result.status, 'remediation', JSON.stringify(result));
  assert.equal(result.gate.reason, 'Synapse workspace or Spark pool not configured');
  assert.match(result.gate.remediation, /SVC_SYNAPSE_SPARK_POOL/);
  // The deploy reads whether the notebook is there; nothing is written.
  assert.deepEqual(
    (await sb.admin.requests({ since })).filter((r) => r.service === 'synapse' && r.method !== 'GET'),
    [],
  );
  assert.deepEqual((await sb.admin.state()).synapse.notebooks, []);
});

test('SVC_BACKEND_NOTEBOOK=synapse puts notebooks on Synapse in a cloud that has the data platform', { timeout: 120_000 }, async (t) => {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  const { h, tenant } = await buildWithSandbox(t, { SVC_BACKEND_NOTEBOOK: 'synapse' }, sb);
  const ws = await workspace(h, tenant);
  const content = { language: 'sql', cells: [{ kind: 'code', source: 'SELECT 1' }] };
  const posted = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items`, 201, {
    itemType: 'notebook',
    displayName: 'Chosen',
    content,
    deploy: true,
  });
  const job = await followJob(h, tenant, posted.item.provisioning.jobId);
  assert.equal(job.steps[0].result.status, 'created', JSON.stringify(job.steps[0].result));
  const state = await sb.admin.state();
  const [nb] = state.synapse.notebooks;
  assert.equal(nb?.name, `${prefixOf(sb.ids.platformWorkspaceId)}Chosen`);
  assert.deepEqual((nb!.properties as any).cells[0].source, ['%%sql\n', 'SELECT 1']);
  assert.ok(
    !state.dataPlatform.workspaces.flatMap((w: any) => w.items).some((i: any) => i.displayName === 'Chosen'),
    'not on the data platform',
  );
  const item = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${posted.item.id}`, 200)).item;
  assert.equal(item.liveState, 'created');
});

test("the development endpoint is the workspace under the cloud's Synapse suffix, and the service may send its token there", () => {
  for (const [cloud, host] of [
    ['commercial', 'https://analyticsws.dev.azuresynapse.net'],
    ['gcc-high', 'https://analyticsws.dev.azuresynapse.usgovcloudapi.net'],
    ['dod', 'https://analyticsws.dev.azuresynapse.usgovcloudapi.net'],
  ] as const) {
    const profile = selectCloud({ name: cloud, overrides: {} });
    const client = new SynapseClient({} as BackingPipeline, profile);
    assert.equal(client.endpoint('AnalyticsWs'), host, cloud);
    assert.ok(hostAllowed(profile, host), `${cloud}: ${host} is under an allowed suffix`);
  }
  const commercial = new SynapseClient({} as BackingPipeline, selectCloud({ name: 'commercial', overrides: {} }));
  assert.throws(() => commercial.endpoint('evil.example.com/x'), /not a Synapse workspace name/);
});
