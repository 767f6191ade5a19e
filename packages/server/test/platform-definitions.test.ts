// Definitions the real data platform accepts: an activator's rules travel in ReflexEntities.json and are read back
// (the reflex API has no /triggers path), a mirrored database names a real connection, an eventstream's KQL
// destination names the database's item id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { part } from '../src/backends/data-platform.js';
import { missingRules } from '../src/item-types/activator.js';
import { buildWithSandbox, install, retryStep, workspace } from './install-helpers.js';

test('activator: rules go in ReflexEntities.json and are read back; no /triggers call; a re-install confirms them again', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const ws = await workspace(h, tenant);
  const job = await install(h, tenant, 'app-finops-cost', { workspaceId: ws });
  const steps = job.provision.steps.filter((s: any) => s.itemType === 'activator');
  assert.ok(steps.length > 0);
  for (const s of steps) {
    assert.equal(s.result.status, 'created', JSON.stringify(s.result));
    assert.ok(
      s.result.steps.some((l: string) => /^definition read back: ReflexEntities\.json holds the \d+ rule\(s\)/.test(l)),
      s.result.steps.join('\n'),
    );
  }
  const requests = await sandbox.admin.requests({ since, service: 'dataPlatform' });
  assert.deepEqual(
    requests.filter((r: any) => /\/triggers(\?|$)/.test(r.path)),
    [],
    'no call to a path the reflex API does not have',
  );
  for (const s of steps)
    assert.ok(
      requests.some((r: any) => r.method === 'POST' && r.path.endsWith(`/items/${s.result.resourceId}/getDefinition`)),
      'the definition is read back',
    );
  const again = await install(h, tenant, 'app-finops-cost', { workspaceId: await workspace(h, tenant) });
  for (const s of again.provision.steps.filter((x: any) => x.itemType === 'activator')) {
    assert.equal(s.result.status, 'exists', JSON.stringify(s.result));
    assert.ok(s.result.steps.some((l: string) => l.startsWith('definition read back')));
  }
});

test('activator: a read-back definition without a rule names the rules it lacks', () => {
  const rule = (id: string, name: string) => ({ uniqueIdentifier: id, payload: { name }, type: 'rule-v1' });
  const wanted = [{ uniqueIdentifier: 's', payload: { name: 'src' }, type: 'kqlSource-v1' }, rule('a', 'Hot'), rule('b', 'Cold')];
  const def = (entities: unknown) => ({ parts: [part('ReflexEntities.json', JSON.stringify(entities))] });
  assert.deepEqual(missingRules(wanted, def([rule('a', 'Hot'), rule('b', 'Cold')])), []);
  assert.deepEqual(missingRules(wanted, def([rule('a', 'Hot')])), ['Cold']);
  assert.deepEqual(missingRules(wanted, def([])), ['Hot', 'Cold']);
  assert.deepEqual(missingRules(wanted, { parts: [] }), ['Hot', 'Cold'], 'no ReflexEntities.json part at all');
  assert.deepEqual(missingRules(wanted, { parts: [part('ReflexEntities.json', 'not json')] }), ['Hot', 'Cold']);
});

test('mirrored database: mirroring.json carries the id of the connection the content names, resolved through GET /v1/connections', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const job = await install(h, tenant, 'app-mirror-onboard', { workspaceId: await workspace(h, tenant) });
  assert.equal(job.provision.outcome, 'all-created', JSON.stringify(job.provision.steps.map((s: any) => s.result)));
  const mirrors = job.provision.steps.filter((s: any) => s.itemType === 'mirrored-database');
  assert.equal(mirrors.length, 3);
  for (const s of mirrors) {
    const name = s.result.steps.map((l: string) => /^connection '([^']+)' → /.exec(l)?.[1]).find(Boolean);
    const seeded = sandbox.ids.connections.find((c) => c.displayName === name);
    assert.ok(seeded, s.result.steps.join('\n'));
    assert.equal(s.result.secondaryIds.connectionId, seeded.id);
  }
  const requests = await sandbox.admin.requests({ since, service: 'dataPlatform' });
  assert.ok(
    requests.some((r: any) => r.method === 'GET' && /^\/v1\/connections(\?|$)/.test(r.path)),
    'the connections are listed',
  );
});

test('gate "mirror connection missing": names the connection; cleared once the connection exists, by the step retry', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  assert.equal(await sandbox.admin.removeConnection('sql-hr-prod'), true);
  const before = (await sandbox.admin.state()).dataPlatform.workspaces[0]!.items.length;
  const job = await install(h, tenant, 'app-mirror-onboard', { workspaceId: await workspace(h, tenant) });
  const hr = job.provision.steps.find((s: any) => s.displayName === 'HrMirror');
  assert.equal(hr.result.status, 'remediation', JSON.stringify(hr.result));
  assert.equal(hr.result.gate.reason, "the data platform has no connection 'sql-hr-prod'");
  assert.match(hr.result.gate.remediation, /^create the cloud connection 'sql-hr-prod' to the source database/);
  assert.match(hr.result.gate.link, /^https?:\/\/[^/]+\/groups\/me\/gateways$/);
  assert.equal(job.provision.outcome, 'partial');
  const items = (await sandbox.admin.state()).dataPlatform.workspaces[0]!.items;
  assert.equal(items.filter((i) => i.displayName === 'HrMirror').length, 0, 'no mirror sent with an unresolved connection');
  assert.equal(
    items.length - before,
    job.provision.steps.filter((s: any) => s.result.status === 'created').length,
    'the other items are created',
  );
  // The tenant admin makes the connection (the sandbox back to its seeded state), and the step retry creates the mirror.
  await sandbox.admin.reset();
  const retried = await retryStep(h, tenant, job.id, hr.stepIndex);
  const after = retried.provision.steps.find((s: any) => s.stepIndex === hr.stepIndex);
  assert.equal(after.result.status, 'created', JSON.stringify(after.result));
  assert.equal(after.result.secondaryIds.connectionId, sandbox.ids.connections.find((c) => c.displayName === 'sql-hr-prod')!.id);
});

test('eventstream: a KQL destination names the database’s data-platform item id and workspace, not the resource manager id', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const job = await install(h, tenant, 'app-iot-realtime', { workspaceId: await workspace(h, tenant) });
  assert.equal(job.provision.outcome, 'all-created', JSON.stringify(job.provision.steps.map((s: any) => s.result)));
  const ws = sandbox.ids.platformWorkspaceId;
  const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.dataPlatformAudience);
  const dp = async (path: string, method = 'GET') =>
    (
      await fetch(`${sandbox.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${ws}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
  const kqlDatabases = (await dp('/items?type=KQLDatabase')).value as Array<{ id: string; displayName: string }>;
  const streams = job.provision.steps.filter((s: any) => s.itemType === 'eventstream');
  assert.equal(streams.length, 3);
  for (const s of streams) {
    const def = (await dp(`/items/${s.result.resourceId}/getDefinition`, 'POST')).definition;
    const topology = JSON.parse(Buffer.from(def.parts.find((p: any) => p.path === 'eventstream.json').payload, 'base64').toString());
    const dest = topology.destinations[0];
    assert.equal(dest.type, 'Eventhouse');
    const db = kqlDatabases.find((d) => d.displayName === dest.properties.databaseName);
    assert.ok(db, `${dest.properties.databaseName} is a KQL database item`);
    assert.equal(dest.properties.itemId, db.id);
    assert.equal(dest.properties.workspaceId, ws);
    assert.ok(
      s.result.steps.some((l: string) => l === `KQL database ${db.displayName}: data-platform item ${db.id}`),
      s.result.steps.join('\n'),
    );
  }
});
