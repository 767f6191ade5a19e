// The backing calls an install spends (issue 24): the data platform throttles per identity, so each call of one install
// is taken from every other. A job lists each (workspace, item type) once, creates an item with its definition in the
// one call, reads an existing item's definition and updates it only when it differs, and sends a KQL database's tables,
// functions and seed rows as one database script, the step log keeping a line per command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestLogEntry } from '@svc/sandbox';
import { provisionerOf } from '../src/item-types/index.js';
import type { StepResult } from '../src/install/types.js';
import { buildWithSandbox, install, type Sandbox, stepOf, workspace } from './install-helpers.js';
import { appOf, contextOf, targetOf } from './remove-helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

/** The sandbox's requests from `since` on, the identity provider's aside. */
async function requestsSince(sandbox: Sandbox, since: number): Promise<RequestLogEntry[]> {
  return (await sandbox.admin.requests({ since })).filter((r) => r.service !== 'identity');
}
const mark = async (sandbox: Sandbox) => (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
const isUpdate = (r: RequestLogEntry) => r.service === 'dataPlatform' && r.method === 'POST' && r.path.endsWith('/updateDefinition');
const isRead = (r: RequestLogEntry) => r.service === 'dataPlatform' && r.method === 'POST' && /\/getDefinition(\?|$)/.test(r.path);

/** The first page of each list of items (a continuation is the same list), by type. */
function listsByType(log: RequestLogEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of log) {
    const m = /\/workspaces\/[^/]+\/items\?(.*)$/.exec(r.path);
    if (r.service !== 'dataPlatform' || r.method !== 'GET' || !m || /continuationToken=/.test(m[1]!)) continue;
    const type = new URLSearchParams(m[1]).get('type') ?? '';
    out.set(type, (out.get(type) ?? 0) + 1);
  }
  return out;
}

/** A data-platform call as the service identity, outside any install (what a user would do in the platform's own editor). */
async function platformCall(sandbox: Sandbox, method: string, path: string, json?: unknown) {
  const token = await sandbox.admin.token({ audience: 'dataPlatform' });
  const res = await fetch(`${sandbox.env.SVC_DATA_PLATFORM_API_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.status === 200 && res.headers.get('content-type')?.includes('json') ? res.json() : undefined;
}

const notebookSource = async (sandbox: Sandbox, ws: string, id: string) => {
  const { definition } = (await platformCall(sandbox, 'POST', `/workspaces/${ws}/items/${id}/getDefinition`)) as any;
  const part = definition.parts.find((p: any) => p.path === 'notebook-content.py');
  return Buffer.from(part.payload, 'base64').toString('utf8');
};

test('a first install lists each (workspace, item type) once, creates every item with its definition, and updates none', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  for (const appId of ['app-mirror-onboard', 'app-iot-realtime']) {
    const since = await mark(sandbox);
    const job = await install(h, tenant, appId, { workspaceId: await workspace(h, tenant, appId) });
    assert.equal(job.status, 'done', JSON.stringify(job.provision.steps.map((s: any) => [s.displayName, s.result.status, s.result.error])));
    const log = await requestsSince(sandbox, since);
    for (const [type, n] of listsByType(log)) assert.equal(n, 1, `${appId}: the ${type} items were listed ${n} times in one job`);
    if (appId === 'app-mirror-onboard') {
      assert.equal(listsByType(log).get('Notebook'), 1, 'six notebooks, one list');
      assert.equal(
        log.filter((r) => r.method === 'GET' && /\/v1\/connections/.test(r.path)).length,
        1,
        'three mirrors, one connections list',
      );
    }
    assert.deepEqual(log.filter(isUpdate), [], `${appId}: a first install sends no updateDefinition`);
    const creates = log.filter(
      (r) => r.service === 'dataPlatform' && r.method === 'POST' && /\/workspaces\/[^/]+\/[A-Za-z]+$/.test(r.path),
    );
    assert.ok(creates.length >= 5, `${appId}: ${creates.length} creates`);
    for (const c of creates) {
      const parts = (c.body?.json as any)?.definition?.parts as Array<{ path: string }> | undefined;
      assert.ok(
        parts?.some((p) => p.path !== '.platform'),
        `${appId}: ${c.path} was created without its definition`,
      );
    }
  }
});

test('a re-run with unchanged content reads each definition and updates none; a definition changed outside is updated, alone', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const first = await install(h, tenant, 'app-mirror-onboard', { workspaceId: ws });
  assert.equal(first.status, 'done');
  const platformWs = first.provision.target.platformWorkspaceId;

  let since = await mark(sandbox);
  const again = await install(h, tenant, 'app-mirror-onboard', { workspaceId: ws });
  assert.deepEqual([...new Set(again.provision.steps.map((s: any) => s.result.status))], ['exists']);
  let log = await requestsSince(sandbox, since);
  assert.deepEqual(log.filter(isUpdate), [], 'nothing changed: no updateDefinition');
  assert.equal(log.filter(isRead).length, again.provision.steps.length, 'each item’s definition read once');
  assert.equal(log.filter((r) => r.method === 'POST' && /\/(notebooks|mirroredDatabases)$/.test(r.path)).length, 0, 'nothing created');
  const nb = stepOf(again, 'notebook', 'Sales Mirror Quickstart');
  assert.ok(nb.result.steps.includes('definition read (getDefinition): the same as the content, not updated'), nb.result.steps.join('\n'));

  // Someone edits the notebook in the platform: the next run finds the difference and puts the content back.
  const id = nb.result.resourceId;
  const installed = await notebookSource(sandbox, platformWs, id);
  const edited = `${installed}\n# CELL ********************\n\nprint("edited in the platform")\n`;
  await platformCall(sandbox, 'POST', `/workspaces/${platformWs}/items/${id}/updateDefinition`, {
    definition: { parts: [{ path: 'notebook-content.py', payload: Buffer.from(edited).toString('base64'), payloadType: 'InlineBase64' }] },
  });
  since = await mark(sandbox);
  const third = await install(h, tenant, 'app-mirror-onboard', { workspaceId: ws });
  log = await requestsSince(sandbox, since);
  assert.deepEqual(
    log.filter(isUpdate).map((r) => r.path.split('/').at(-2)),
    [id],
    'only the notebook edited outside is updated',
  );
  const step = stepOf(third, 'notebook', 'Sales Mirror Quickstart');
  assert.equal(step.result.status, 'exists');
  assert.ok(step.result.steps.includes('definition read (getDefinition): notebook-content.py differs'), step.result.steps.join('\n'));
  assert.equal(await notebookSource(sandbox, platformWs, id), installed, 'the installed source is back');
});

/** The management requests sent for one database, as their first words. */
const kqlCommands = (log: RequestLogEntry[], database: string) =>
  log
    .filter((r) => r.service === 'kql' && (r.body?.json as any)?.db === database)
    .map((r) =>
      String((r.body?.json as any).csl)
        .split(/\s+</)[0]!
        .split('\n')[0]!
        .trim(),
    );

test('a KQL database’s tables, functions and seed rows go as one database script, the step log keeping a line per command; a queryset reuses its database', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const since = await mark(sandbox);
  const job = await install(h, tenant, 'app-iot-realtime', { workspaceId: await workspace(h, tenant) });
  assert.equal(job.status, 'done');
  const log = await requestsSince(sandbox, since);
  assert.deepEqual(kqlCommands(log, 'PlantMaintenance'), ['.show tables details', '.execute database script']);
  const steps = stepOf(job, 'kql-database', 'PlantMaintenance').result.steps as string[];
  for (const line of [
    'database script: 3 commands in one request',
    '.create table WorkOrders (8 columns)',
    '.create-or-alter function OpenWorkOrders',
    '.ingest inline into table WorkOrders: 8 rows',
  ])
    assert.ok(steps.includes(line), `${line} is not in the step log:\n${steps.join('\n')}`);
  assert.deepEqual(kqlCommands(log, 'PlantTelemetry'), ['.show tables details', '.execute database script']);
  const rows = await h.services.backends.kql.query(sandbox.env.SVC_KQL_CLUSTER_URI!, 'PlantMaintenance', 'WorkOrders | count');
  assert.equal(rows[0]![0], 8, 'the script ingested the seed rows');

  // A queryset in the same job as its database: no second database PUT, its saved queries in one script.
  const app = appOf('app-iot-realtime');
  const dbItem = app.items.find((i) => i.key === 'maintenance-kql')!;
  const queryset = {
    ...dbItem,
    key: 'saved-queries',
    itemType: 'kql-queryset' as const,
    displayName: 'Saved queries',
    content: {
      database: dbItem.key,
      queries: [
        { name: 'open orders', text: 'WorkOrders | where isnull(ClosedAt)' },
        { name: 'by technician', text: 'WorkOrders | summarize count() by Technician' },
      ],
    },
  };
  const results = new Map<string, StepResult>([[dbItem.key, stepOf(job, 'kql-database', 'PlantMaintenance').result]]);
  const qsSince = await mark(sandbox);
  const lines: string[] = [];
  const target = await targetOf(h, tenant);
  const qs = await provisionerOf('kql-queryset', PLATFORM_PROFILE)!(
    contextOf(h, { ...app, items: [dbItem, queryset] }, queryset, target, results, lines),
  );
  assert.equal(qs.status, 'created');
  const qsLog = await requestsSince(sandbox, qsSince);
  assert.deepEqual(
    qsLog.map((r) => r.service),
    ['kql', 'kql'],
    'no resource-manager PUT of the database its step reported',
  );
  assert.deepEqual(kqlCommands(qsLog, 'PlantMaintenance'), ['.show functions', '.execute database script']);
  assert.deepEqual(lines, ['database script: 2 commands in one request', 'saved query open orders', 'saved query by technician']);
});

test('a command the database script reports failed fails the step with the engine’s reason, the commands before it logged', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  // The database and a table of the same name with another schema exist already: `.create table` leaves it as it is,
  // and the function over the content's columns is refused by the engine.
  const arm = await sandbox.admin.token({ audience: 'arm' });
  const put = await fetch(
    `${sandbox.env.SVC_ARM_URL}${sandbox.env.SVC_KQL_CLUSTER_NAME}/databases/PlantMaintenance?api-version=2024-04-13`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${arm}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'ReadWrite', location: sandbox.env.SVC_KQL_LOCATION, properties: {} }),
    },
  );
  assert.ok(put.status < 300, await put.text());
  await new Promise((r) => setTimeout(r, 600));
  await h.services.backends.kql.mgmt(sandbox.env.SVC_KQL_CLUSTER_URI!, 'PlantMaintenance', '.create table WorkOrders (WorkOrderId:string)');
  const job = await install(h, tenant, 'app-iot-realtime', { workspaceId: await workspace(h, tenant) });
  const step = stepOf(job, 'kql-database', 'PlantMaintenance').result;
  assert.equal(step.status, 'failed', JSON.stringify(step));
  assert.match(step.error, /^Semantic error: .*ClosedAt/, step.error);
  assert.ok(step.steps.includes('.create table WorkOrders (8 columns): exists'), step.steps.join('\n'));
  assert.ok(!step.steps.some((l: string) => l.startsWith('.ingest inline')), 'the ingest after the failed command did not run');
  const rows = await h.services.backends.kql.query(sandbox.env.SVC_KQL_CLUSTER_URI!, 'PlantMaintenance', 'WorkOrders | count');
  assert.equal(rows[0]![0], 0);
});

test('where the identity is only a Database User, the refused database script is sent command by command and the step is created', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const arm = await sandbox.admin.token({ audience: 'arm' });
  const put = await fetch(
    `${sandbox.env.SVC_ARM_URL}${sandbox.env.SVC_KQL_CLUSTER_NAME}/databases/PlantMaintenance?api-version=2024-04-13&callerRole=None`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${arm}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'ReadWrite', location: sandbox.env.SVC_KQL_LOCATION, properties: {} }),
    },
  );
  assert.ok(put.status < 300, await put.text());
  await new Promise((r) => setTimeout(r, 600));
  await sandbox.admin.grant({ service: 'kql', role: 'User', database: 'PlantMaintenance' });
  await sandbox.admin.revoke({ service: 'kql', role: 'AllDatabasesAdmin' });
  const since = await mark(sandbox);
  const job = await install(h, tenant, 'app-iot-realtime', { workspaceId: await workspace(h, tenant) });
  const step = stepOf(job, 'kql-database', 'PlantMaintenance').result;
  assert.equal(step.status, 'created', JSON.stringify(step));
  assert.ok(step.steps.includes('the database script was refused (403: it needs Database Admin): the commands one by one'));
  assert.ok(step.steps.includes('.ingest inline into table WorkOrders: 8 rows'), step.steps.join('\n'));
  const log = await requestsSince(sandbox, since);
  const sent = kqlCommands(log, 'PlantMaintenance');
  const expected = [
    '.show tables details',
    '.execute database script',
    '.create table WorkOrders',
    '.create-or-alter function',
    '.ingest inline',
  ];
  assert.equal(sent.length, expected.length, sent.join('\n'));
  for (const [i, start] of expected.entries()) assert.ok(sent[i]!.startsWith(start), `${sent[i]} is not ${start}`);
});
