// A refused delete at uninstall: a 401/403 raises the type's remediation gate exactly as provisioning does, any other
// refusal passes the backing service's text on unmodified, and nothing is changed either way. And the one delete that
// is not the resource's own: on an operator's KQL database (a dedicated target) only the content's tables are dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FaultRule } from '@svc/sandbox';
import { BackingError } from '../src/backends/http-pipeline.js';
import type { StepResult } from '../src/install/types.js';
import { GateError } from '../src/errors.js';
import { plannerOf, provisionerOf, removerOf, type ItemTypeId } from '../src/item-types/index.js';
import { gate, type GateName } from '../src/provisioning/gates.js';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { buildWithSandbox, install, workspace } from './install-helpers.js';
import { appOf, contextOf, targetOf } from './remove-helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

test(
  'a 403 on each service’s delete raises its gate, a 500 passes the backing text on, and the resource stays',
  { timeout: 300_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const target = await targetOf(h, tenant);
    const cases: Array<{ appId: string; type: ItemTypeId; fault: Omit<FaultRule, 'status'>; gate: GateName }> = [
      {
        appId: 'app-casino-analytics',
        type: 'notebook',
        fault: { service: 'dataPlatform', method: 'DELETE', path: '/items/' },
        gate: 'data-platform-auth',
      },
      {
        appId: 'app-casino-analytics',
        type: 'kql-database',
        fault: { service: 'arm', method: 'DELETE', path: '/databases/' },
        gate: 'kql-arm-auth',
      },
      {
        appId: 'app-casino-analytics',
        type: 'report',
        fault: { service: 'reporting', method: 'DELETE', path: '/reports/' },
        gate: 'reporting-auth',
      },
      {
        appId: 'app-data-steward',
        type: 'search-index',
        fault: { service: 'search', method: 'DELETE', path: '/indexes' },
        gate: 'search-auth',
      },
    ];
    const jobs = new Map<string, any>();
    for (const appId of new Set(cases.map((c) => c.appId))) {
      const job = await install(h, tenant, appId, { workspaceId: await workspace(h, tenant) });
      assert.equal(job.status, 'done', JSON.stringify(job.provision));
      jobs.set(appId, job);
    }
    for (const c of cases) {
      const app = appOf(c.appId);
      const step = jobs.get(c.appId).provision.steps.find((s: any) => s.itemType === c.type);
      const item = app.items.find((i) => i.itemType === c.type && i.displayName === step.displayName)!;
      const results = new Map<string, StepResult>();
      for (const s of jobs.get(c.appId).provision.steps) {
        const other = app.items.find((i) => i.itemType === s.itemType && i.displayName === s.displayName);
        if (other && s.result) results.set(other.key, s.result);
      }
      const ctx = () => contextOf(h, app, item, target, results);

      await sandbox.admin.addFault({ ...c.fault, status: 403 });
      await assert.rejects(removerOf(c.type, PLATFORM_PROFILE)!.remove(ctx(), step.result.resourceId), (err: unknown) => {
        assert.ok(err instanceof GateError, `${c.type}: ${String(err)}`);
        assert.equal(err.gate.reason, gate(c.gate, h.services.profile).reason, c.type);
        assert.ok(err.cause instanceof BackingError && err.cause.status === 403, `${c.type}: the gate carries the refusal`);
        return true;
      });
      await sandbox.admin.clearFaults();
      assert.ok(await plannerOf(c.type, PLATFORM_PROFILE)!.readLive(ctx()), `${c.type}: a refused delete changed nothing`);

      const body = `{"error":{"code":"Busy","message":"${c.type}: delete refused by the test."}}`;
      await sandbox.admin.addFault({ ...c.fault, status: 500, body });
      await assert.rejects(removerOf(c.type, PLATFORM_PROFILE)!.remove(ctx(), step.result.resourceId), (err: unknown) => {
        assert.ok(err instanceof BackingError, `${c.type}: ${String(err)}`);
        assert.equal(err.status, 500);
        assert.equal(err.body, body, `${c.type}: the backing text, unmodified`);
        return true;
      });
      await sandbox.admin.clearFaults();
      assert.ok(await plannerOf(c.type, PLATFORM_PROFILE)!.readLive(ctx()), `${c.type}: still there after the 500`);
      assert.deepEqual(
        await removerOf(c.type, PLATFORM_PROFILE)!.remove(ctx(), step.result.resourceId),
        { removed: true },
        `${c.type}: removed once allowed`,
      );
    }
  },
);

test('on an operator’s KQL database only the content’s tables are dropped: the database and its other tables stay', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const app = appOf('app-casino-analytics');
  const item = app.items.find((i) => i.itemType === 'kql-database')!;
  const target = { ...(await targetOf(h, tenant)), kqlDatabase: 'OperatorOps' };
  const results = new Map<string, StepResult>();
  const ctx = () => contextOf(h, app, item, target, results);
  const provisioned = await provisionerOf('kql-database', PLATFORM_PROFILE)!(ctx());
  const kql = h.services.backends.kql;
  const uri = target.kqlClusterUri!;
  await kql.mgmt(uri, 'OperatorOps', '.create table OperatorOwn (x:string)');
  const tables = async () => (await kql.mgmt(uri, 'OperatorOps', '.show tables')).map((r) => String(r[0])).sort();
  const mine = (item.content as { tables: Array<{ name: string }> }).tables.map((x) => x.name);
  assert.deepEqual(await tables(), [...mine, 'OperatorOwn'].sort());

  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  assert.deepEqual(await removerOf('kql-database', PLATFORM_PROFILE)!.remove(ctx(), provisioned.resourceId!), { removed: true });
  assert.deepEqual(await tables(), ['OperatorOwn'], 'only the content’s tables were dropped');
  assert.ok(await kql.getDatabase(target.kqlClusterResourceId!, 'OperatorOps'), 'the operator’s database stays');
  for (const r of await sandbox.admin.requests({ since })) {
    assert.notEqual(r.method, 'DELETE', `no resource manager DELETE: ${r.path}`);
    const v = validate(r);
    assert.ok(['described', 'reference'].includes(v.kind) && !v.problems.length, `${r.method} ${r.path}: ${v.problems.join('; ')}`);
  }
  assert.deepEqual(await removerOf('kql-database', PLATFORM_PROFILE)!.remove(ctx(), provisioned.resourceId!), { removed: false });
  assert.deepEqual(await tables(), ['OperatorOwn']);
});
