// Every catalog app, installed and then checked for drift at once, is in sync item by item: what drift builds from the
// stored content (which comes back from the database's JSON with its keys reordered) compares equal to what the install
// sent, for every live type. A type whose comparison is off shows here as a drifted item right after its install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { buildWithSandbox, install, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';

test('drift right after installing each catalog app: every live item in sync', { timeout: 900_000 }, async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  const off: string[] = [];
  const checked: string[] = [];
  for (const app of loadCatalog().apps) {
    const ws = await workspace(h, tenant);
    const installed = await install(h, tenant, app.id, { workspaceId: ws });
    if (installed.status !== 'done') continue; // an app whose install waits on a gate has nothing to compare yet
    const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
    const job = await followJob(h, tenant, started.job.id);
    checked.push(`${app.id} ${job.steps.length}`);
    for (const s of job.steps)
      if (s.result.status !== 'in-sync')
        off.push(`${app.id} ${s.key} (${s.itemType}): ${s.result.status} ${(s.result.diff ?? s.result.message ?? '').slice(0, 400)}`);
  }
  t.diagnostic(`checked: ${checked.join(', ')}`);
  assert.ok(checked.length >= 8, `only ${checked.length} apps installed done: ${checked.join(', ')}`);
  assert.deepEqual(off, []);
});
