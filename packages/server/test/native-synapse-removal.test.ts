// Removal of Synapse artifacts where more than one thing uses them (issue 20, found by bench/chaos): a step that failed
// after its create went through is found by name at uninstall and deleted (no orphan); an artifact another one still
// names is kept for it, the uninstall saying why, rather than failing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { asAnotherClient, names, synapseCloud } from './native-synapse-helpers.js';

test(
  'a notebook whose step failed after its create went through is found by name and deleted at uninstall',
  { timeout: 300_000 },
  async (t) => {
    const { sb, h, tenant, prefix } = await synapseCloud(t);
    const ws = await workspace(h, tenant);
    // The first notebook's long-running PUT is accepted (the notebook is made), then following its operation is refused.
    await sb.admin.addFault({
      service: 'synapse',
      method: 'GET',
      path: '^/notebookOperationResults/',
      status: 400,
      errorCode: 'BadRequest',
      message: 'Test: the operation could not be read',
      count: 1,
    });
    const job = await install(h, tenant, 'app-pipeline-designer', { workspaceId: ws });
    const failed = job.provision.steps.filter((s: any) => s.itemType === 'notebook' && s.result.status === 'failed');
    assert.equal(failed.length, 1, JSON.stringify(job.provision.steps.map((s: any) => [s.displayName, s.result.status])));
    const orphan = `${prefix}${failed[0].displayName}`;
    assert.equal(failed[0].result.resourceId, undefined, 'the failed step recorded no resource');
    assert.ok(names((await sb.admin.state()).synapse.notebooks).includes(orphan), 'the create went through');

    // The uninstall plan says it looks the artifact up by name.
    const { plan } = await call(h, tenant, 'POST', '/api/apps/app-pipeline-designer/plan', 200, {
      workspaceId: ws,
      operation: 'uninstall',
      purgeData: true,
    });
    const planned = plan.items.find((i: any) => i.displayName === failed[0].displayName);
    assert.match(planned.message, /looked up by name/);
    assert.ok(planned.calls.some((c: any) => c.method === 'GET') && planned.calls.some((c: any) => c.method === 'DELETE'));

    const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/app-pipeline-designer?purgeData=true`, 202);
    const gone = await followJob(h, tenant, started.job.id);
    assert.equal(gone.status, 'done', JSON.stringify(gone.steps));
    const step = gone.steps.find((s: any) => s.displayName === failed[0].displayName);
    assert.equal(step.result.status, 'deleted', JSON.stringify(step.result));
    assert.ok(
      step.result.steps.some((l: string) => l.includes(`found what it made: ${orphan}`)),
      JSON.stringify(step.result.steps),
    );
    const left = (await sb.admin.state()).synapse;
    assert.deepEqual([left.notebooks, left.pipelines, left.datasets, left.linkedServices].map(names), [[], [], [], []]);
  },
);

test(
  'a linked service another dataset still names is kept for it; the uninstall says why and ends done',
  { timeout: 300_000 },
  async (t) => {
    const { sb, h, tenant, prefix } = await synapseCloud(t);
    const ws = await workspace(h, tenant);
    const job = await install(h, tenant, 'app-mirror-onboard', { workspaceId: ws });
    const mirror = job.provision.steps.find((s: any) => s.itemType === 'mirrored-database');
    assert.equal(mirror.result.status, 'created', JSON.stringify(mirror.result));
    const linked = `${mirror.result.resourceId.replace(/[^A-Za-z0-9_]/g, '_')}_source`;
    // Another client's dataset reads through the mirror's source linked service.
    const other = `${prefix}other_reader`;
    await asAnotherClient(sb, 'PUT', `/datasets/${other}`, {
      name: other,
      properties: {
        type: 'AzureSqlTable',
        linkedServiceName: { type: 'LinkedServiceReference', referenceName: linked },
        typeProperties: { schema: 'dbo', table: 'elsewhere' },
      },
    });
    const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/app-mirror-onboard?purgeData=true`, 202);
    const gone = await followJob(h, tenant, started.job.id);
    assert.equal(gone.status, 'done', JSON.stringify(gone.steps));
    const step = gone.steps.find((s: any) => s.displayName === mirror.displayName);
    // The pipeline (the item's resource) went; the part another dataset names stayed, and the step says which and why.
    assert.equal(step.result.status, 'deleted', JSON.stringify(step.result));
    assert.match(step.result.message, new RegExp(`part of it is kept: linkedservices '${linked}' .*referenced by dataset '${other}'`));
    const left = (await sb.admin.state()).synapse;
    assert.ok(!names(left.pipelines).includes(mirror.result.resourceId), 'the pipeline went');
    assert.ok(names(left.linkedServices).includes(linked), 'the linked service another dataset names stayed');
    assert.ok(names(left.datasets).includes(other), "the other client's dataset is untouched");
    // The stored item went with the app.
    const items = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/items?limit=200`, 200)).items as any[];
    assert.ok(!items.some((i) => i.displayName === mirror.displayName && i.itemType === 'mirrored-database'));
  },
);
