// The semantic model on the reporting service (issue 20) in a cloud without the data platform: a push dataset in the
// tenant's reporting group with the model's tables, filled from the warehouse's seed rows; a re-run finds it; the app's
// paginated report binds to it and renders its rows; plan, drift and uninstall; the reporting gate; two tenants apart.
// The KQL dashboard is stored only there, and its plan says why. (The source is a warehouse: the lakehouse's own
// backend without the data platform is built elsewhere.)
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSandbox } from '@svc/sandbox';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { chooseBackend, isLiveBackend } from '../src/item-types/backends.js';
import { callMatches } from '../src/item-types/calls.js';
import { pushDatasetOf, semanticModelReporting } from '../src/item-types/semantic-model-reporting.js';
import { StepRefused } from '../src/provisioning/context.js';
import { kqlDashboard } from '../src/item-types/kql-dashboard.js';
import { gate } from '../src/provisioning/gates.js';
import { buildWithSandbox, giveSandbox, install, OPERATOR, type Sandbox, stepOf, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { APP, MACHINE_ROWS, MODEL_CONTENT, MODEL_NAME, writeCatalog } from './native-semantic-fixture.js';

const REPORTING_AUDIENCE = 'https://analysis.windows.net/powerbi/api';

async function setup(t: TestContext) {
  const catalog = writeCatalog();
  t.after(() => fs.rmSync(catalog, { recursive: true, force: true }));
  const sb = await startSandbox({ dataPlatform: false });
  t.after(() => sb.stop());
  const { h, tenant } = await buildWithSandbox(t, { SVC_CATALOG_DIR: catalog }, sb);
  return { h, sb, tenant };
}

const datasets = async (sb: Sandbox) => (await sb.admin.state()).reporting.datasets;
const lastSeq = async (sb: Sandbox) => (await sb.admin.requests()).at(-1)?.seq ?? 0;

/** The CSV a report renders, exported through the reporting API as the service identity for an effective user. */
async function renderCsv(sb: Sandbox, group: string, reportId: string, zone: string): Promise<string> {
  const token = await sb.admin.token({ audience: REPORTING_AUDIENCE });
  const base = `${sb.urls.reporting}/v1.0/myorg/groups/${group}/reports/${reportId}`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = {
    format: 'CSV',
    paginatedReportConfiguration: {
      parameterValues: [{ name: 'Zone', value: zone }],
      identities: [{ username: 'ada@sandbox.onmicrosoft.com', reports: [reportId] }],
    },
  };
  const start = await fetch(`${base}/ExportTo`, { method: 'POST', headers, body: JSON.stringify(body) });
  assert.equal(start.status, 202, await start.clone().text());
  let job = await start.json();
  for (let i = 0; job.status !== 'Succeeded' && job.status !== 'Failed'; i++) {
    assert.ok(i < 200, 'the export finished');
    await new Promise((r) => setTimeout(r, 100));
    job = await (await fetch(`${base}/exports/${encodeURIComponent(job.id)}`, { headers })).json();
  }
  assert.equal(job.status, 'Succeeded', JSON.stringify(job));
  return (await fetch(`${base}/exports/${encodeURIComponent(job.id)}/file`, { headers })).text();
}

test(
  'semantic model on the reporting service: created, exists, the report renders its rows, plan, drift, uninstall',
  { timeout: 600_000 },
  async (t) => {
    const { h, sb, tenant } = await setup(t);
    await sb.admin.setSwitch('reporting.renderMs', 20);
    await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
    const group = sb.ids.platformWorkspaceId;
    const ws = await workspace(h, tenant);

    // The plan: the model on the reporting service with its calls; the KQL dashboard stored, with the reason.
    const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws });
    const planned = (key: string) => plan.items.find((i: any) => i.key === key);
    assert.deepEqual([planned('floor-model').action, planned('floor-model').backend], ['create', 'reporting']);
    const dash = planned('floor-kql-dashboard');
    assert.deepEqual([dash.action, dash.backend, dash.calls], ['stored', 'stored', []]);
    const storedOnly = chooseBackend(kqlDashboard, h.services.profile);
    assert.ok(!isLiveBackend(storedOnly), 'the KQL dashboard is stored only in this cloud');
    assert.equal(dash.message, storedOnly.reason);
    assert.match(dash.message, /Azure Data Explorer dashboards have no published API/);

    const since = await lastSeq(sb);
    const first = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(first.status, 'done', JSON.stringify(first.provision));
    const model = stepOf(first, 'semantic-model');
    assert.equal(model.result.status, 'created', JSON.stringify(model.result));
    assert.equal(model.result.backend, 'reporting');
    assert.equal(
      first.provision.steps.find((s: any) => s.key === 'floor-kql-dashboard'),
      undefined,
      'the stored KQL dashboard has no step',
    );
    const stored = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/items?limit=200`, 200)).items.find(
      (i: any) => i.itemType === 'kql-dashboard',
    );
    assert.ok(stored, 'the KQL dashboard is stored in the service');

    // One push dataset named after the item in the tenant's group, its tables filled with the warehouse's seed rows.
    let sets = (await datasets(sb)).filter((d) => d.name === MODEL_NAME);
    assert.equal(sets.length, 1);
    assert.equal(sets[0]!.id, model.result.resourceId);
    assert.equal(sets[0]!.groupId, group);
    assert.deepEqual(
      sets[0]!.tables.map((x) => [x.name, x.columns]),
      [
        ['Machines', ['Machine Id:String', 'Zone:String', 'Coin In:Decimal', 'Active:Boolean']],
        ['Zones', ['Zone:String', 'Manager:String']],
      ],
    );
    assert.deepEqual(
      sets[0]!.tables[0]!.rows,
      MACHINE_ROWS.map(([id, zone, coin, active]) => ({ 'Machine Id': id, Zone: zone, 'Coin In': coin, Active: active === 1 })),
    );
    assert.equal(sets[0]!.tables[1]!.rows.length, 2);
    assert.deepEqual(model.result.secondaryIds.platformWorkspaceId, group);

    // Every reporting call the model made is one its backend declares, and the published description holds it.
    const declared = semanticModelReporting.calls(MODEL_CONTENT);
    for (const r of await sb.admin.requests({ since, service: 'reporting' })) {
      if (!/\/datasets/.test(r.path)) continue;
      assert.ok(
        declared.some((c) => callMatches(c, { method: r.method, path: r.path }, { ws: group })),
        `${r.method} ${r.path} is not a declared call`,
      );
      const v = validate(r);
      assert.ok(v.kind === 'described' && !v.problems.length, `${r.method} ${r.path}: ${v.kind} ${v.problems.join('; ')}`);
    }

    // The report is bound to the dataset and renders its rows (the DAX FILTER by zone).
    const report = stepOf(first, 'report');
    assert.equal(report.result.status, 'created');
    const north = await renderCsv(sb, group, report.result.resourceId, 'North');
    assert.match(north, /M-101/);
    assert.match(north, /M-102/);
    assert.doesNotMatch(north, /M-201/);
    assert.match(await renderCsv(sb, group, report.result.resourceId, 'South'), /M-201/);

    // A re-run finds the dataset by name: exists, no second dataset, rows not pushed again.
    const again = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(stepOf(again, 'semantic-model').result.status, 'exists', JSON.stringify(stepOf(again, 'semantic-model').result));
    assert.equal(stepOf(again, 'semantic-model').result.resourceId, model.result.resourceId);
    sets = (await datasets(sb)).filter((d) => d.name === MODEL_NAME);
    assert.equal(sets.length, 1, 'no duplicate dataset');
    assert.equal(sets[0]!.tables[0]!.rows.length, MACHINE_ROWS.length, 'rows are pushed once');

    // Plan again: nothing to change; drift: in sync, then missing once another client deleted the dataset.
    const { plan: replan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws });
    assert.equal(replan.items.find((i: any) => i.key === 'floor-model').action, 'no-change');
    const drift = async () => {
      const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
      await followJob(h, tenant, started.job.id);
      return (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items.find(
        (i: any) => i.key === 'floor-model' || i.displayName === MODEL_NAME,
      );
    };
    assert.equal((await drift()).status, 'in-sync');
    const token = await sb.admin.token({ audience: REPORTING_AUDIENCE });
    const del = await fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${group}/datasets/${model.result.resourceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(del.status, 200);
    assert.equal((await drift()).status, 'missing');
    const third = await install(h, tenant, APP, { workspaceId: ws });
    const recreated = stepOf(third, 'semantic-model');
    assert.equal(recreated.result.status, 'created', 'a deleted dataset is created again');

    // Another client changed a table's schema: the re-run PUTs the model's schema back (exists; rows kept).
    const asOther = (method: string, path: string, body?: unknown) =>
      fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${group}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const liveId = recreated.result.resourceId;
    const narrowed = await asOther('PUT', `/datasets/${liveId}/tables/Machines`, {
      name: 'Machines',
      columns: [{ name: 'Machine Id', dataType: 'String' }],
    });
    assert.equal(narrowed.status, 200);
    const fourth = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(stepOf(fourth, 'semantic-model').result.status, 'exists');
    const restored = (await datasets(sb)).find((d) => d.id === liveId)!;
    assert.deepEqual(restored.tables[0]!.columns, ['Machine Id:String', 'Zone:String', 'Coin In:Decimal', 'Active:Boolean']);

    // Another client replaced it with a same-named dataset of other tables: drift says so; the re-run creates it again
    // (a push dataset's tables cannot be added by PUT).
    assert.equal((await asOther('DELETE', `/datasets/${liveId}`)).status, 200);
    const replaced = await asOther('POST', '/datasets', {
      name: MODEL_NAME,
      tables: [{ name: 'Machines', columns: [{ name: 'Machine Id', dataType: 'String' }] }],
    });
    assert.equal(replaced.status, 201);
    const drifted = await drift();
    assert.equal(drifted.status, 'drifted', JSON.stringify(drifted));
    const fifth = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(stepOf(fifth, 'semantic-model').result.status, 'created', JSON.stringify(stepOf(fifth, 'semantic-model').result));
    sets = (await datasets(sb)).filter((d) => d.name === MODEL_NAME);
    assert.deepEqual(
      sets.map((d) => [d.tables.map((x) => x.name), d.tables[0]!.rows.length]),
      [[['Machines', 'Zones'], MACHINE_ROWS.length]],
    );
    assert.equal((await drift()).status, 'in-sync');

    // Uninstall deletes the dataset (only this one).
    const other = await fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${group}/datasets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Not the app', tables: [{ name: 'T', columns: [{ name: 'a', dataType: 'String' }] }] }),
    });
    assert.equal(other.status, 201);
    const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=false`, 202);
    const job = await followJob(h, tenant, started.job.id);
    assert.equal(job.status, 'done', JSON.stringify(job.steps));
    assert.equal(job.steps.find((s: any) => s.key === 'floor-model').result.status, 'deleted');
    assert.deepEqual(
      (await datasets(sb)).map((d) => d.name),
      ['Not the app'],
    );
  },
);

test(
  'semantic model: a reporting refusal stops at the reporting gate; two tenants keep their own datasets',
  { timeout: 600_000 },
  async (t) => {
    const { h, sb, tenant } = await setup(t);
    const ws = await workspace(h, tenant);
    await sb.admin.setSwitch('reporting.servicePrincipalsEnabled', false);
    const refused = await install(h, tenant, APP, { workspaceId: ws });
    const gated = stepOf(refused, 'semantic-model');
    assert.equal(gated.result.status, 'remediation', JSON.stringify(gated.result));
    // The same gate as every reporting call's 401/403: the tenant setting and the workspace role.
    assert.deepEqual(gated.result.gate, gate('reporting-auth', h.services.profile));
    assert.match(gated.result.gate.remediation, /Service principals can use Fabric APIs/);
    assert.equal((await datasets(sb)).length, 0);
    await sb.admin.setSwitch('reporting.servicePrincipalsEnabled', true);
    const a = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(stepOf(a, 'semantic-model').result.status, 'created', JSON.stringify(stepOf(a, 'semantic-model').result));

    // Tenant B: its own platform workspace (its reporting group), the shared targets handed over to it.
    const b = await h.tenant();
    const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.dataPlatformAudience);
    const made = await fetch(`${sb.urls.dataPlatform}/v1/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'tenant B', capacityId: sb.ids.capacityId }),
    });
    assert.equal(made.status, 201, await made.clone().text());
    const bGroup = ((await made.json()).id as string).toLowerCase();
    await h.services.tenancy.assignPlatformWorkspace(OPERATOR, b.tenantId, bGroup);
    await giveSandbox(h, b.tenantId, sb, { platformWorkspace: false });
    const bWs = await workspace(h, b);
    const bJob = await install(h, b, APP, { workspaceId: bWs });
    const bModel = stepOf(bJob, 'semantic-model');
    assert.equal(bModel.result.status, 'created', 'B does not find A’s dataset of the same name');
    const all = (await datasets(sb)).filter((d) => d.name === MODEL_NAME);
    assert.deepEqual(all.map((d) => d.groupId).sort(), [sb.ids.platformWorkspaceId, bGroup].sort());
    assert.equal(all.find((d) => d.groupId === bGroup)!.id, bModel.result.resourceId);

    // B's uninstall deletes B's dataset only.
    const started = await call(h, b, 'DELETE', `/api/workspaces/${bWs}/apps/${APP}?purgeData=false`, 202);
    assert.equal((await followJob(h, b, started.job.id)).status, 'done');
    const left = (await datasets(sb)).filter((d) => d.name === MODEL_NAME);
    assert.deepEqual(
      left.map((d) => d.groupId),
      [sb.ids.platformWorkspaceId],
    );
    assert.equal(left[0]!.tables[0]!.rows.length, MACHINE_ROWS.length, 'A’s rows are untouched');
  },
);

test(
  'a lakehouse-sourced model on the reporting service (SVC_BACKEND_SEMANTIC_MODEL=reporting; the data platform holds the lakehouse)',
  { timeout: 600_000 },
  async (t) => {
    // The lakehouse's own backend without the data platform is built elsewhere: this sandbox keeps the data platform for it.
    const sb = await startSandbox({});
    t.after(() => sb.stop());
    const { h, tenant } = await buildWithSandbox(t, { SVC_BACKEND_SEMANTIC_MODEL: 'reporting' }, sb);
    const ws = await workspace(h, tenant);
    const job = await install(h, tenant, 'app-casino-analytics', { workspaceId: ws });
    const model = stepOf(job, 'semantic-model');
    assert.deepEqual([model.result.status, model.result.backend], ['created', 'reporting'], JSON.stringify(model.result));
    assert.equal(stepOf(job, 'lakehouse').result.backend, 'data-platform');
    const set = (await datasets(sb)).find((d) => d.id === model.result.resourceId)!;
    const lakehouse = JSON.parse(
      fs.readFileSync(new URL('../../../catalog/apps/app-casino-analytics/items/floor-lakehouse.json', import.meta.url), 'utf8'),
    );
    const seeded = (name: string) => lakehouse.tables.find((x: any) => x.name === name).seedRows.length;
    assert.deepEqual(
      set.tables.map((x) => [x.name, x.rows.length]),
      [
        ['Machines', seeded('slot_machines')],
        ['Machine KPIs', seeded('daily_machine_kpis')],
        ['Players', seeded('players')],
        ['CTR Candidates', seeded('ctr_candidates')],
      ],
    );
    // The report is bound to the push dataset (its RDL names it).
    const report = stepOf(job, 'report');
    const token = await sb.admin.token({ audience: REPORTING_AUDIENCE });
    const rdl = await (
      await fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${sb.ids.platformWorkspaceId}/reports/${report.result.resourceId}/Export`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).text();
    assert.match(rdl, new RegExp(`sobe_wowvirtualserver-${model.result.resourceId}`));
  },
);

test('a model column the reporting service cannot hold (binary) is refused before any call, naming it', () => {
  const model = structuredClone(MODEL_CONTENT.model.model);
  model.tables[0]!.columns.push({ name: 'Photo', dataType: 'binary', sourceColumn: 'photo' });
  assert.throws(
    () => pushDatasetOf('x', model),
    (err: unknown) =>
      err instanceof StepRefused && err.code === 'unsupported_data_type' && /'Machines'\[Photo\] is binary/.test(err.message),
  );
  assert.deepEqual(
    pushDatasetOf('x', MODEL_CONTENT.model.model).tables[0]!.columns.map((c) => c.dataType),
    ['String', 'String', 'Decimal', 'Boolean'],
  );
});
