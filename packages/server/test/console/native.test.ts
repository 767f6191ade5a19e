import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';

// FinOps has KQL dashboards and an activator over a lakehouse (both stored here, with their reasons); the casino app a
// notebook (on Synapse).
const APP = 'app-finops-cost';

describe('a cloud without the data platform in the console (Chromium)', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;

  before(async () => {
    rig = await startRig({ dataPlatform: false });
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await rig.h.app.inject({ method, url, headers: rig.tenant.auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };

  test('the badge says the cloud has no data platform; each item shows where it lives and links to its portal; a stored item says why', async () => {
    const { page } = rig;
    const ws = (await api('POST', '/api/workspaces', { name: 'FinOps (no data platform)' })).json.workspace.id as string;
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
    assert.match((await page.getByTestId('cloud-badge').textContent()) ?? '', /no data platform/);

    // The install dialog's plan names each item's backend, and why the KQL dashboard is kept here.
    await page.goto(`/apps?workspaceId=${ws}`);
    await page
      .locator(`[data-app="${APP}"]`)
      .getByRole('button', { name: /^Install / })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('plan-summary').waitFor({ timeout: 30_000 });
    const planBackends = await dialog.getByTestId('backend-badge').evaluateAll((els) => els.map((e) => e.getAttribute('data-backend')));
    for (const b of ['lake', 'monitor', 'kql', 'stored']) assert.ok(planBackends.includes(b), `${b} in ${planBackends}`);
    const reasons = await dialog.getByTestId('stored-reason').allTextContents();
    assert.ok(
      reasons.some((r) => /no published API/i.test(r)),
      `the KQL dashboards' reason in ${reasons}`,
    );
    assert.ok(
      reasons.some((r) => /KQL tables only/.test(r)),
      `the lakehouse activator's reason in ${reasons}`,
    );
    await rig.shot('native-01-plan');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    const jobs = (await api('GET', `/api/apps/install-jobs?workspaceId=${ws}`)).json.jobs;
    for (const deadline = Date.now() + 120_000; ; ) {
      const job = (await api('GET', `/api/apps/install-jobs/${jobs[0].id}`)).json.job;
      if (job.status !== 'running') {
        assert.equal(job.provision.outcome, 'all-created', JSON.stringify(job.provision.steps.map((s: any) => s.result)));
        break;
      }
      assert.ok(Date.now() < deadline, 'the install ended');
      await new Promise((r) => setTimeout(r, 300));
    }
    await page.keyboard.press('Escape');

    // The items table: a "Lives in" badge per live item.
    await page.goto(`/workspaces/${ws}`);
    await page.getByTestId('item-row').first().waitFor();
    const rows = await page.getByTestId('backend-badge').evaluateAll((els) => els.map((e) => e.getAttribute('data-backend')));
    for (const b of ['lake', 'monitor', 'kql', 'stored']) assert.ok(rows.includes(b), `${b} in ${rows}`);
    assert.ok(!rows.includes('data-platform'), 'nothing lives on the data platform');
    await rig.shot('native-02-items');

    // A notebook on Synapse (the casino app, installed through the API): its page links to Synapse Studio.
    const casino = (await api('POST', '/api/workspaces', { name: 'Casino (no data platform)' })).json.workspace.id as string;
    const started = await api('POST', '/api/apps/app-casino-analytics/install', { workspaceId: casino });
    for (const deadline = Date.now() + 120_000; ; ) {
      const job = (await api('GET', `/api/apps/install-jobs/${started.json.jobId}`)).json.job;
      if (job.status !== 'running') break;
      assert.ok(Date.now() < deadline, 'the casino install ended');
      await new Promise((r) => setTimeout(r, 300));
    }
    const notebook = ((await api('GET', `/api/workspaces/${casino}/items?limit=200`)).json.items as any[]).find(
      (i) => i.itemType === 'notebook',
    )!;
    await page.goto(`/workspaces/${casino}/items/${notebook.id}`);
    const panel = page.getByTestId('provisioning-panel');
    await panel.getByTestId('backend-badge').waitFor();
    assert.equal(await panel.getByTestId('backend-badge').getAttribute('data-backend'), 'synapse');
    const link = panel.getByTestId('portal-link');
    assert.match((await link.textContent()) ?? '', /Synapse Studio/);
    assert.equal(await link.getAttribute('href'), rig.h.services.profile.synapseStudioUrl);
    await rig.shot('native-03-notebook');
    // The KQL dashboard is stored, and its page says why.
    const items = (await api('GET', `/api/workspaces/${ws}/items?limit=200`)).json.items as any[];
    const dashboard = items.find((i) => i.itemType === 'kql-dashboard')!;
    await page.goto(`/workspaces/${ws}/items/${dashboard.id}`);
    await panel.getByTestId('backend-badge').waitFor();
    assert.equal(await panel.getByTestId('backend-badge').getAttribute('data-backend'), 'stored');
    assert.match((await panel.getByTestId('stored-reason').textContent()) ?? '', /no published API/i);
    assert.equal(await panel.getByTestId('portal-link').count(), 0, 'nothing live to link to');
    await rig.shot('native-04-stored-dashboard');
    assert.deepEqual(rig.cspViolations, []);
  });
});
