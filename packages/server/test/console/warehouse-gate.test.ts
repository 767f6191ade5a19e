import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';

const APP = 'app-healthcare-popmgt';

describe('the warehouse T-SQL gate in the console (Chromium)', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;

  before(async () => {
    rig = await startRig();
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await rig.h.app.inject({ method, url, headers: rig.tenant.auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };

  test('the gate shows the T-SQL to run line by line; after the sandbox grant, Retry turns the warehouse created', async () => {
    const { page, sandbox } = rig;
    assert.ok(sandbox, 'the console tests run against the sandbox');
    // The service identity is not a database user of the pool.
    await sandbox.admin.revoke({ service: 'sql', role: 'user' });
    const ws = await api('POST', '/api/workspaces', { name: 'Population health' });
    assert.equal(ws.status, 201);
    const started = await api('POST', `/api/apps/${APP}/install`, { workspaceId: ws.json.workspace.id });
    assert.equal(started.status, 202);
    const jobId = started.json.jobId;
    for (const deadline = Date.now() + 120_000; ; ) {
      const job = (await api('GET', `/api/apps/install-jobs/${jobId}`)).json.job;
      if (job.status !== 'running') break;
      assert.ok(Date.now() < deadline, 'the install finished');
      await new Promise((r) => setTimeout(r, 200));
    }

    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
    await page.goto(`/jobs/${jobId}`);
    const step = page.locator('[data-testid="provision-step"][data-status="remediation"]').filter({ hasText: 'PopHealthWarehouse' });
    await step.getByText('Needs an admin: warehouse T-SQL not authorized').waitFor();
    const script = step.getByTestId('remediation-script');
    const name = sandbox.ids.serviceIdentity.name;
    // Shown as the lines an admin runs (copying it keeps the comment on its own line).
    assert.deepEqual((await script.innerText()).split('\n').slice(1), [
      `CREATE USER [${name}] FROM EXTERNAL PROVIDER;`,
      `EXEC sp_addrolemember 'db_owner', '${name}';`,
    ]);
    await step.scrollIntoViewIfNeeded();
    await rig.shot('warehouse-01-tsql-gate');

    await sandbox.admin.grant({ service: 'sql', role: 'db_owner' });
    await step.getByRole('button', { name: /^Retry/ }).click();
    const fixed = page.locator('[data-testid="provision-step"][data-status="created"]').filter({ hasText: 'PopHealthWarehouse' });
    await fixed.waitFor({ timeout: 60_000 });
    await page.getByTestId('job-status').filter({ hasText: 'done' }).waitFor();
    await rig.shot('warehouse-02-retried-created');
    const pool = (await sandbox.admin.state()).sql.databases.find((d) => d.name === sandbox.ids.warehousePool)!;
    assert.equal(pool.tables.find((t) => t.name === 'care_gaps')?.rowCount, 12);
  });
});
