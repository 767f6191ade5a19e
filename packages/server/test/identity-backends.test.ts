// Identity operations call the installs' own backing clients: the same per-service concurrency limit (a probe as
// another identity waits its turn behind an install’s calls), the one pager, and the one OneLake client. A page that
// carries only one of the two continuation fields is in backing-clients.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ONELAKE_API_VERSION } from '../src/backends/onelake.js';
import { buildWithSandbox, install, workspace } from './install-helpers.js';

const until = async (what: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

test(
  'with one data-platform call in flight per process, identity calls made during an install wait for its slot',
  { timeout: 300_000 },
  async (t) => {
    const { h, sandbox: sb, tenant } = await buildWithSandbox(t, { SVC_BACKING_CONCURRENCY: '1' });
    const ws = sb.ids.platformWorkspaceId;
    const ci = sb.ids.servicePrincipals.find((s) => s.name === 'ci-deployer')!;
    await sb.admin.grant({ service: 'dataPlatform', role: 'Contributor', principal: ci.appId });
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      h.app.inject({ method, url, headers: tenant.auth, ...(payload ? { payload } : {}) });
    const target = await workspace(h, tenant, 'shared-limit');
    await sb.admin.setLatency({ dataPlatform: 60 });
    await sb.admin.clearRequests();

    const installing = install(h, tenant, 'app-lakehouse-inspector', { workspaceId: target }, 240_000);
    await until(async () => (await sb.admin.requests({ service: 'dataPlatform' })).length >= 3);
    // Probes as another identity (its own token, the service's limits), the firewall and role lists as the service.
    const probe = { identity: { kind: 'client-credentials', clientId: ci.appId, clientSecret: ci.secret }, workspaceId: ws };
    const answers = await Promise.all([
      call('POST', '/api/admin/identity/probes', probe),
      call('POST', '/api/admin/identity/probes', probe),
      call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`),
      call('GET', `/api/admin/identity/workspaces/${ws}/role-assignments`),
    ]);
    for (const a of answers) assert.equal(a.statusCode, 200, a.body);
    assert.equal(answers[0]!.json().passed, true, answers[0]!.body);
    const job = await installing;
    assert.equal(job.status, 'done', JSON.stringify(job.provision?.steps?.map((s: { result: unknown }) => s.result)));

    const log = await sb.admin.requests({ service: 'dataPlatform' });
    const probeCalls = log.filter((r) => r.identity === ci.objectId).map((r) => r.seq);
    const serviceCalls = log.filter((r) => r.identity === sb.ids.serviceIdentity.objectId).map((r) => r.seq);
    assert.ok(probeCalls.length >= 2, `${probeCalls.length} probe calls`);
    assert.ok(
      serviceCalls.some((s) => s > Math.max(...probeCalls)),
      'the install still called the data platform after the probes',
    );
    assert.equal((await sb.admin.inFlight()).dataPlatform?.peak, 1, 'never more than one data-platform call at once, the probes’ included');
  },
);

test(
  'identity lists read every page (the sandbox pages by continuationToken and continuationUri); a lakehouse-count probe reads OneLake through the one client',
  { timeout: 120_000 },
  async (t) => {
    const { h, sandbox: sb, tenant } = await buildWithSandbox(t);
    const ws = sb.ids.platformWorkspaceId;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      h.app.inject({ method, url, headers: tenant.auth, ...(payload ? { payload } : {}) });
    await sb.admin.setSwitch('dataPlatform.pageSize', 1);
    for (const n of [1, 2, 3]) {
      const add = await call('POST', `/api/admin/identity/workspaces/${ws}/firewall-rules`, {
        name: `egress-${n}`,
        startIpAddress: `198.51.100.${n}`,
        endIpAddress: `198.51.100.${n}`,
      });
      assert.equal(add.statusCode, 201, add.body);
    }
    await sb.admin.clearRequests();
    const rules = (await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`)).json().rules;
    assert.deepEqual(rules.map((r: { name: string }) => r.name).sort(), ['egress-1', 'egress-2', 'egress-3']);
    const roles = await call('GET', `/api/admin/identity/workspaces/${ws}/role-assignments`);
    const expected = (await sb.admin.state()).dataPlatform.workspaces.find((w: { id: string }) => w.id === ws)!.roleAssignments.length;
    assert.ok(expected >= 2);
    assert.equal(roles.json().assignments.length, expected, roles.body);
    const asked = (await sb.admin.requests({ service: 'dataPlatform' })).map((r) => r.path);
    assert.equal(asked.filter((p) => /\/firewallRules\?continuationToken=[^&]+$/.test(p)).length, 2, asked.join('\n'));
    assert.equal(asked.filter((p) => /\/roleAssignments\?continuationToken=[^&]+$/.test(p)).length, expected - 1, asked.join('\n'));

    // A lakehouse with a CSV of two rows under Tables/visits, written the way a loader writes it.
    const { dataPlatform, oneLake } = h.services.backends;
    const lh = await dataPlatform.createItem(ws, 'lakehouses', { displayName: 'ProbeLake', type: 'Lakehouse' });
    await oneLake.createDirectory(ws, lh.id, 'Tables/visits');
    const storage = await sb.admin.token({ audience: 'storage' });
    const file = `${sb.env.SVC_ONELAKE_URL}/${ws}/${lh.id}/Tables/visits/part-0.csv`;
    const csv = 'id,site\n1,north\n2,south\n';
    const headers = { authorization: `Bearer ${storage}`, 'x-ms-version': ONELAKE_API_VERSION };
    assert.equal((await fetch(`${file}?resource=file`, { method: 'PUT', headers })).status, 201);
    assert.equal((await fetch(`${file}?action=append&position=0`, { method: 'PATCH', headers, body: csv })).status, 202);
    assert.equal((await fetch(`${file}?action=flush&position=${csv.length}`, { method: 'PATCH', headers })).status, 200);
    const probe = await call('POST', '/api/admin/identity/probes', {
      identity: { kind: 'service' },
      workspaceId: ws,
      lakehouse: { lakehouseId: lh.id, table: 'visits' },
    });
    const count = probe.json().results.find((r: { check: string }) => r.check === 'lakehouse-count');
    assert.deepEqual([count.ok, count.detail], [true, 'SELECT COUNT(*) FROM visits: 2 rows in 1 file(s)'], probe.body);
  },
);
