// What the Event Hubs eventstream tests share: a catalog folder with a fixture app (two KQL databases, eventstreams into
// their tables and to custom endpoints), the service on a sandbox, and the request log held to the declared calls.
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { callMatches } from '../src/item-types/calls.js';
import { buildWithSandbox, install, workspace, type Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';

export const APP = 'app-eventhubs-fixture';
const TABLE = [
  { name: 'Timestamp', type: 'datetime' },
  { name: 'DeviceId', type: 'string' },
  { name: 'Temperature', type: 'real' },
];
export const READINGS = {
  source: { type: 'CustomEndpoint', name: 'gateway' },
  eventSchema: TABLE,
  destination: { database: 'plant-kql', table: 'Readings' },
  retentionDays: 30,
};
const ALERTS = { source: { type: 'CustomEndpoint', name: 'alerts' }, destination: { database: 'ops-kql', table: 'Alerts' } };
const endpoint = (name: string) => ({ source: { type: 'CustomEndpoint', name }, destination: { customEndpoint: name } });
/** The eventstreams to a custom endpoint (the event hub alone), by display name. */
export const ENDPOINTS = ['Partner Feed', 'Vendor Feed', 'Audit Feed (EU, West)', 'Metrics Feed'];
/** A display name longer than a data connection's name may be (40): the name keeps a hash of the whole. */
export const ALERTS_NAME = 'Ops Alerts Stream from the Plant Floor Gateways';
export const ALERTS_HUB = 'Ops-Alerts-Stream-from-the-Plant-Floor-Gateways';
/** Every eventstream's hub name after the tenant's prefix, sorted as the sandbox lists them (by creation). */
export const HUBS = ['Plant-Readings-Stream', ALERTS_HUB, 'Partner-Feed', 'Vendor-Feed', 'Audit-Feed-EU-West', 'Metrics-Feed'];

/** A catalog folder with one app: two KQL databases, an eventstream into a table of each and four to custom endpoints. */
function fixtureCatalog(t: TestContext): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-eventhubs-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, APP);
  mkdirSync(join(dir, 'items'), { recursive: true });
  const kql = (database: string, table: string) => ({ database, tables: [{ name: table, columns: TABLE }] });
  const items = [
    { key: 'plant-kql', itemType: 'kql-database', displayName: 'PlantReadings', content: kql('PlantReadings', 'Readings') },
    { key: 'ops-kql', itemType: 'kql-database', displayName: 'PlantOps', content: kql('PlantOps', 'Alerts') },
    { key: 'readings-stream', itemType: 'eventstream', displayName: 'Plant Readings Stream', content: READINGS },
    { key: 'alerts-stream', itemType: 'eventstream', displayName: ALERTS_NAME, content: ALERTS },
    ...ENDPOINTS.map((n) => ({
      key: n.toLowerCase().split(' (')[0]!.replace(' ', '-'),
      itemType: 'eventstream',
      displayName: n,
      content: endpoint(n.toLowerCase().replace(' ', '-')),
    })),
  ];
  for (const i of items) writeFileSync(join(dir, 'items', `${i.key}.json`), JSON.stringify(i.content));
  const app = {
    id: APP,
    displayName: 'Event Hubs fixture',
    summary: 'Gateway readings landing in KQL tables through event hubs.',
    description: 'Two KQL databases fed by eventstreams, and eventstreams that are custom endpoints alone.',
    version: '1.0.0',
    items: items.map(({ content: _c, ...i }) => ({ ...i, description: i.displayName, content: `items/${i.key}.json` })),
    edges: [
      { from: 'readings-stream', to: 'plant-kql', kind: 'feeds' },
      { from: 'alerts-stream', to: 'ops-kql', kind: 'feeds' },
    ],
  };
  writeFileSync(join(dir, 'app.json'), JSON.stringify(app, null, 2));
  return root;
}

/** The service on a sandbox without the data platform, serving the fixture catalog. */
export async function setup(t: TestContext, env: Record<string, string> = {}, dataPlatform = false) {
  const sb = await startSandbox({ dataPlatform });
  t.after(() => sb.stop());
  const { h, tenant } = await buildWithSandbox(t, { SVC_CATALOG_DIR: fixtureCatalog(t), ...env }, sb);
  return { h, sb, tenant };
}

/** The step of an install job by display name. */
export const stepOf = (job: any, name: string) => job.provision.steps.find((s: any) => s.displayName === name);
/** The tenant prefix of a platform workspace, with the separator event hub names take. */
export const prefixOf = (ws: string) => `w${ws.replace(/-/g, '').slice(0, 12)}-`;

/** The backing requests since `since`, each conforming to its published description and named by the eventstream's declared calls. */
export async function checkRequests(sb: Sandbox, since: number, declared: (content: any) => readonly any[]) {
  const requests = (await sb.admin.requests({ since, service: 'arm' })).filter((r) =>
    /Microsoft\.EventHub|dataConnections|operationResults/.test(r.path),
  );
  for (const r of requests) {
    const v = validate(r);
    assert.ok(v.kind === 'described' && !v.problems.length, `${r.method} ${r.path}: ${v.kind} ${v.problems.join('; ')}`);
    const named = [READINGS, endpoint('x')].some((c) => declared(c).some((d) => callMatches(d, { method: r.method, path: r.path })));
    assert.ok(named, `${r.method} ${r.path} is not a call the eventstream declares`);
  }
  return requests;
}

/** A new workspace of the tenant with the fixture app installed (done). */
export async function installed(h: TestApp, tenant: TestTenant, name?: string) {
  const ws = await workspace(h, tenant, name);
  const job = await install(h, tenant, APP, { workspaceId: ws });
  assert.equal(job.status, 'done', JSON.stringify(job.provision.steps.map((s: any) => s.result)));
  return { ws, job };
}
