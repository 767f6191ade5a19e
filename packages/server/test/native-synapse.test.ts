// Notebooks, data pipelines and mirrored databases on Synapse (issue 20), in a sandbox started without the data platform:
// what an install creates in the Synapse workspace, under the tenant's prefix, and the calls it makes; re-runs, plan,
// drift, apply and uninstall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { type ItemTypeId, liveBackendOf } from '../src/item-types/index.js';
import { install, stepOf, workspace } from './install-helpers.js';
import { appItem, call, followJob } from './lifecycle-helpers.js';
import { asAnotherClient, checkRequests, names, synapseCloud } from './native-synapse-helpers.js';

const APP = 'app-pipeline-designer';
const catalog = loadCatalog();

test(
  'an app installs its notebooks and pipelines as Synapse artifacts under the tenant prefix; a re-run is exists with nothing duplicated',
  { timeout: 300_000 },
  async (t) => {
    const { sb, h, tenant, prefix } = await synapseCloud(t);
    const ws = await workspace(h, tenant);
    const app = catalog.get(APP)!;
    // Before the install the plan creates each Synapse item, reading only what the backends declare.
    const planned = (await sb.admin.requests()).at(-1)?.seq ?? 0;
    const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws });
    for (const i of plan.items.filter((x: any) => ['notebook', 'data-pipeline'].includes(x.itemType)))
      assert.equal(i.action, 'create', `${i.key}: ${JSON.stringify(i)}`);
    await checkRequests(
      h,
      sb,
      planned,
      app.items.flatMap((i) => liveBackendOf(i.itemType as ItemTypeId, h.services.profile)?.readCalls(i.content) ?? []),
    );
    assert.deepEqual((await sb.admin.state()).synapse.notebooks, [], 'a plan writes nothing');
    const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
    const job = await install(h, tenant, APP, { workspaceId: ws });
    const synapseSteps = job.provision.steps.filter((s: any) => ['notebook', 'data-pipeline'].includes(s.itemType));
    assert.equal(synapseSteps.length, 6);
    for (const s of synapseSteps) {
      assert.deepEqual([s.result.status, s.result.backend], ['created', 'synapse'], `${s.displayName}: ${JSON.stringify(s.result)}`);
      assert.ok(s.result.resourceId.startsWith(prefix), s.result.resourceId);
    }
    const state = (await sb.admin.state()).synapse;
    assert.deepEqual(
      names(state.notebooks),
      ['Build Daily Sales', 'Cleanse Orders', 'Data Quality Checks'].map((n) => prefix + n),
    );
    assert.deepEqual(
      names(state.pipelines),
      ['Backfill Daily Sales', 'Ingest Raw Orders', 'Nightly Orders Refresh'].map((n) => prefix + n),
    );
    for (const a of [...state.notebooks, ...state.pipelines, ...state.datasets, ...state.linkedServices])
      assert.ok(a.name.startsWith(prefix), a.name);

    // The notebook on the Spark pool, its cells as the content has them.
    const cleanse = state.notebooks.find((n) => n.name === `${prefix}Cleanse Orders`)!.properties as any;
    assert.equal(cleanse.bigDataPool.referenceName, sb.env.SVC_SYNAPSE_SPARK_POOL);
    assert.equal(cleanse.cells.length, 4);
    assert.equal(cleanse.cells[1].source.join(''), 'run_date = "2025-01-01"  # parameter, set by the pipeline');
    // The nightly pipeline runs the notebooks by their Synapse names and invokes the copy pipeline.
    const nightly = state.pipelines.find((p) => p.name === `${prefix}Nightly Orders Refresh`)!.properties as any;
    const byName = Object.fromEntries(nightly.activities.map((a: any) => [a.name, a]));
    assert.equal(byName['Ingest raw files'].type, 'ExecutePipeline');
    assert.equal(
      byName['Ingest raw files'].typeProperties.pipeline.referenceName,
      stepOf(job, 'data-pipeline', 'Ingest Raw Orders').result.resourceId,
    );
    assert.equal(byName['Cleanse orders'].type, 'SynapseNotebook');
    assert.equal(
      byName['Cleanse orders'].typeProperties.notebook.referenceName,
      stepOf(job, 'notebook', 'Cleanse Orders').result.resourceId,
    );
    assert.deepEqual(byName['Cleanse orders'].dependsOn, [{ activity: 'Ingest raw files', dependencyConditions: ['Succeeded'] }]);
    // The copy pipeline copies into the tenant's lake folder through its own linked service and datasets.
    const copy = state.pipelines.find((p) => p.name === `${prefix}Ingest Raw Orders`)!.properties as any;
    assert.deepEqual(
      copy.activities.map((a: any) => [a.type, a.typeProperties.sink.type]),
      [
        ['Copy', 'ParquetSink'],
        ['Copy', 'ParquetSink'],
        ['Copy', 'ParquetSink'],
      ],
    );
    assert.equal(state.linkedServices.length, 1);
    assert.equal((state.linkedServices[0]!.properties as any).type, 'AzureBlobFS');
    assert.equal(state.datasets.length, 6);
    const sink = state.datasets.find((d) => d.name === copy.activities[0].outputs[0].referenceName)!.properties as any;
    assert.deepEqual(sink.typeProperties.location, {
      type: 'AzureBlobFSLocation',
      fileSystem: sb.env.SVC_LAKE_CONTAINER,
      folderPath: `${prefix.slice(0, -1)}/OrdersBronze/Tables/orders_raw`,
    });
    // Every call is described and declared by the backends that made it.
    const declared = app.items.flatMap((i) => liveBackendOf(i.itemType as ItemTypeId, h.services.profile)?.calls(i.content) ?? []);
    await checkRequests(h, sb, since, declared);

    const again = await install(h, tenant, APP, { workspaceId: ws });
    for (const s of again.provision.steps.filter((x: any) => ['notebook', 'data-pipeline'].includes(x.itemType)))
      assert.equal(s.result.status, 'exists', `${s.displayName}: ${JSON.stringify(s.result)}`);
    const after = (await sb.admin.state()).synapse;
    for (const k of ['notebooks', 'pipelines', 'datasets', 'linkedServices'] as const)
      assert.deepEqual(names(after[k]), names(state[k]), `${k}: nothing duplicated`);
  },
);

test('plan, drift, apply and uninstall reach the Synapse artifacts', { timeout: 300_000 }, async (t) => {
  const { sb, h, tenant, prefix } = await synapseCloud(t);
  const ws = await workspace(h, tenant);
  const job = await install(h, tenant, APP, { workspaceId: ws });
  assert.ok(job.provision.steps.some((s: any) => s.result.backend === 'synapse'));

  const isSynapse = (i: any) => ['notebook', 'data-pipeline'].includes(i.itemType);
  const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws });
  for (const i of plan.items.filter(isSynapse)) assert.equal(i.action, 'no-change', `${i.key}: ${i.diff ?? JSON.stringify(i)}`);

  // Another client rewrites a notebook's cells and deletes a pipeline.
  const gold = await appItem(h, tenant, ws, APP, 'gold-notebook');
  const backfill = await appItem(h, tenant, ws, APP, 'backfill-pipeline');
  const live = (await sb.admin.state()).synapse.notebooks.find((n) => n.name === gold.resourceId)!;
  const edited = { ...live.properties, cells: [{ cell_type: 'code', metadata: {}, source: ['print("edited elsewhere")'] }] };
  await asAnotherClient(sb, 'PUT', `/notebooks/${encodeURIComponent(gold.resourceId)}`, { name: gold.resourceId, properties: edited });
  await asAnotherClient(sb, 'DELETE', `/pipelines/${encodeURIComponent(backfill.resourceId)}`);

  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const drift = await followJob(h, tenant, (await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202)).job.id);
  assert.equal(drift.status, 'done', JSON.stringify(drift.steps));
  const items = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items as any[];
  const byKey = (k: string) => items.find((i) => i.key === k)!;
  assert.equal(byKey('gold-notebook').status, 'drifted', JSON.stringify(byKey('gold-notebook')));
  assert.match(byKey('gold-notebook').diff, /edited elsewhere/);
  assert.equal(byKey('backfill-pipeline').status, 'missing');
  for (const k of ['silver-notebook', 'dq-notebook', 'copy-pipeline', 'nightly-pipeline']) assert.equal(byKey(k).status, 'in-sync', k);
  const app = catalog.get(APP)!;
  const backend = (i: (typeof app.items)[number]) => liveBackendOf(i.itemType as ItemTypeId, h.services.profile);
  await checkRequests(
    h,
    sb,
    since,
    app.items.flatMap((i) => backend(i)?.readCalls(i.content) ?? []),
  );
  for (const r of (await sb.admin.requests({ since })).filter((x) => x.service === 'synapse'))
    assert.equal(r.method, 'GET', `drift reads only: ${r.method} ${r.path}`);

  // Apply puts the stored content back: the notebook updated in place, the pipeline created again under the same name.
  for (const item of [gold, backfill]) {
    const applied = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${item.itemId}/apply`, 202)).job.id,
    );
    assert.equal(applied.status, 'done', JSON.stringify(applied.steps));
  }
  const repaired = (await sb.admin.state()).synapse;
  const cells = (repaired.notebooks.find((n) => n.name === gold.resourceId)!.properties as any).cells;
  assert.equal(cells.length, 3);
  assert.ok(repaired.pipelines.some((p) => p.name === backfill.resourceId));

  // Uninstall deletes every artifact the app created, and nothing else of the workspace.
  const bystander = `${prefix.replace(/^w/, 'x')}keep`;
  await asAnotherClient(sb, 'PUT', `/notebooks/${bystander}`, { name: bystander, properties: edited });
  const removing = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=true`, 202);
  const gone = await followJob(h, tenant, started.job.id);
  await checkRequests(
    h,
    sb,
    removing,
    app.items.flatMap((i) => backend(i)?.removeCalls(i.content) ?? []),
  );
  assert.equal(gone.status, 'done', JSON.stringify(gone.steps));
  for (const s of gone.steps.filter((x: any) => isSynapse(x)))
    assert.equal(s.result.status, 'deleted', `${s.key}: ${JSON.stringify(s.result)}`);
  const left = (await sb.admin.state()).synapse;
  assert.deepEqual(names(left.notebooks), [bystander]);
  assert.deepEqual(
    [left.pipelines, left.datasets, left.linkedServices].map((l) => l.length),
    [0, 0, 0],
  );
});

test(
  'mirrored databases become copy pipelines from the source into the lake; the schedule is left to a trigger',
  { timeout: 300_000 },
  async (t) => {
    const { sb, h, tenant, prefix } = await synapseCloud(t);
    const ws = await workspace(h, tenant);
    const job = await install(h, tenant, 'app-mirror-onboard', { workspaceId: ws });
    const mirrors = job.provision.steps.filter((s: any) => s.itemType === 'mirrored-database');
    assert.ok(mirrors.length >= 2);
    for (const s of mirrors) {
      assert.deepEqual([s.result.status, s.result.backend], ['created', 'synapse'], JSON.stringify(s.result));
      assert.ok(
        s.result.steps.some((l: string) => /schedule trigger/.test(l)),
        'the step log says who schedules it',
      );
    }
    const state = (await sb.admin.state()).synapse;
    const hr = mirrors.find((s: any) => /hr/i.test(s.displayName)) ?? mirrors[0];
    const pipeline = state.pipelines.find((p) => p.name === hr.result.resourceId)!.properties as any;
    assert.ok(pipeline.activities.every((a: any) => a.type === 'Copy' && a.typeProperties.source.type === 'AzureSqlSource'));
    const sources = state.linkedServices.filter((l) => (l.properties as any).type === 'AzureSqlDatabase');
    assert.equal(sources.length, mirrors.length, 'one source linked service per mirror');
    assert.equal((sources[0]!.properties as any).typeProperties.authenticationType, 'SystemAssignedManagedIdentity');
    for (const d of state.datasets) assert.ok(d.name.startsWith(prefix));
    const again = await install(h, tenant, 'app-mirror-onboard', { workspaceId: ws });
    for (const s of again.provision.steps.filter((x: any) => x.itemType === 'mirrored-database')) assert.equal(s.result.status, 'exists');
    assert.equal((await sb.admin.state()).synapse.datasets.length, state.datasets.length);
  },
);
