// The lake lakehouse's gates (a missing lake, Storage Blob Data Contributor revoked, no role on the serverless pool),
// each cleared by its fix and a step retry; and two tenants sharing the lake and the pool, each under its own prefix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { GateError } from '../src/errors.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { lakehouseLake } from '../src/item-types/lakehouse-lake.js';
import { install, OPERATOR, retryStep, stepOf, workspace } from './install-helpers.js';
import { contextOf, targetOf } from './remove-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { APP, giveLake, lakePaths, lakeService, serverlessDb } from './native-lake-helpers.js';

const lakeStep = (job: any) => stepOf(job, 'lakehouse');

test('gate lake-auth: Storage Blob Data Contributor revoked is a 403 AuthorizationPermissionMismatch; granted again, the retry creates', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  await sb.admin.revoke({ service: 'lake', role: 'Storage Blob Data Contributor' });
  const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  const step = lakeStep(job);
  assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
  assert.equal(step.result.gate.reason, 'lake storage 401/403');
  assert.match(step.result.gate.remediation, /Storage Blob Data Contributor on the storage account/);
  assert.match(step.result.gate.link, /Microsoft\.Storage/);
  // The storage service's own words are passed on unmodified.
  assert.match(step.result.error, /AuthorizationPermissionMismatch/);
  await sb.admin.grant({ service: 'lake', role: 'Storage Blob Data Contributor' });
  const retried = await retryStep(h, tenant, job.id, step.stepIndex);
  assert.equal(lakeStep(retried).result.status, 'created', JSON.stringify(lakeStep(retried).result));
});

test('gate serverless-sql-auth: without the Synapse SQL Administrator role the login fails (18456); granted again, the retry creates', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  await sb.admin.revoke({ service: 'sqlServerless', role: 'Synapse SQL Administrator' });
  const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  const step = lakeStep(job);
  assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
  assert.equal(step.result.gate.reason, 'Synapse serverless SQL pool T-SQL not authorized');
  assert.match(step.result.gate.remediation, /Synapse SQL Administrator role on the Synapse workspace/);
  assert.match(step.result.error, /Login failed/);
  await sb.admin.grant({ service: 'sqlServerless', role: 'Synapse SQL Administrator' });
  const retried = await retryStep(h, tenant, job.id, step.stepIndex);
  assert.equal(lakeStep(retried).result.status, 'created', JSON.stringify(lakeStep(retried).result));
});

test('gate lake-not-configured: a tenant without a lake; assigned one, the retry creates', async (t) => {
  const { h, sandbox: sb } = await lakeService(t);
  const other = await h.tenant();
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, other.tenantId, randomUUID());
  const job = await install(h, other, APP, { workspaceId: await workspace(h, other) });
  const step = lakeStep(job);
  assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
  assert.equal(step.result.gate.reason, 'lake storage account not configured');
  assert.match(step.result.gate.remediation, /SVC_LAKE_ACCOUNT/);
  await giveLake(h, other.tenantId, sb);
  const retried = await retryStep(h, other, job.id, step.stepIndex);
  assert.equal(lakeStep(retried).result.status, 'created', JSON.stringify(lakeStep(retried).result));
});

test('two tenants on the same lake and pool: each lakehouse under its tenant prefix; one purged, the other untouched', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  const first = lakeStep(await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) })).result;
  assert.equal(first.status, 'created');
  const before = await lakePaths(sb, first.secondaryIds.lakeFolder);

  // The second tenant: its own platform workspace (its prefix), the lake assigned to it now.
  const other = await h.tenant();
  const platformWs = randomUUID();
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, other.tenantId, platformWs);
  await giveLake(h, other.tenantId, sb);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const ws = await workspace(h, other);
  const second = lakeStep(await install(h, other, APP, { workspaceId: ws })).result;
  assert.equal(second.status, 'created', 'the same display name, a new lakehouse: not the first tenant’s');
  assert.equal(second.secondaryIds.lakeFolder, `w${platformWs.replace(/-/g, '').slice(0, 12)}_PopHealthLake`);
  assert.notEqual(second.secondaryIds.lakeFolder, first.secondaryIds.lakeFolder);
  const prefix = first.secondaryIds.lakeFolder.split('_')[0];
  for (const r of await sb.admin.requests({ since }))
    if (r.service === 'lake' || r.service === 'sqlServerless')
      assert.ok(!`${r.path} ${r.text ?? ''}`.includes(prefix), `the second tenant reached the first's: ${r.method} ${r.path}`);

  // The second tenant purges its app: its folder and database go, the first tenant's stay as they were.
  const purged = await followJob(
    h,
    other,
    (await call(h, other, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=true`, 202)).job.id,
  );
  assert.equal(purged.steps.find((s: any) => s.key === 'clinical-lakehouse').result.status, 'deleted');
  assert.deepEqual(await lakePaths(sb, second.secondaryIds.lakeFolder), []);
  assert.equal(await serverlessDb(sb, second.secondaryIds.lakeFolder), undefined);
  assert.deepEqual(await lakePaths(sb, first.secondaryIds.lakeFolder), before);
  assert.ok(await serverlessDb(sb, first.secondaryIds.lakeFolder));
});

test('gate serverless-sql-not-configured: no Synapse workspace and no SVC_SYNAPSE_SERVERLESS_SERVER; the lake alone is read', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  const app = loadCatalog().apps.find((a) => a.id === APP)!;
  const item = app.items.find((i) => i.key === 'clinical-lakehouse')!;
  const target = { ...(await targetOf(h, tenant)), warehouseWorkspace: undefined, serverlessServer: undefined };
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  await assert.rejects(
    lakehouseLake.readLive(contextOf(h, app, item, target, new Map()) as never),
    (e: GateError) => e instanceof GateError && e.gate.reason === 'Synapse serverless SQL pool not configured',
  );
  assert.deepEqual(
    (await sb.admin.requests({ since })).filter((r) => r.service === 'sqlServerless'),
    [],
    'nothing was sent to a pool',
  );
});
