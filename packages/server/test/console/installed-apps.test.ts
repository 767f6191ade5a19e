import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { startRig, type ConsoleRig } from './browser.js';

const GATED = 'app-lakehouse-inspector';
const STORED = 'app-finops-cost';
const catalog = loadCatalog();

describe('installed apps on the workspace page (Chromium)', { timeout: 300_000 }, () => {
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
  const installed = async (appId: string, body: Record<string, unknown>) => {
    const started = await api('POST', `/api/apps/${appId}/install`, body);
    assert.equal(started.status, 202, JSON.stringify(started.json));
    return finished(started.json.jobId);
  };
  const finished = async (jobId: string) => {
    for (const deadline = Date.now() + 120_000; ; ) {
      const job = (await api('GET', `/api/apps/install-jobs/${jobId}`)).json.job;
      if (job.status !== 'running') return job;
      assert.ok(Date.now() < deadline, 'the install finished');
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  test('each app shows its name, version, status, items and last job; a retry that completes it turns it installed', async () => {
    const { page, sandbox } = rig;
    const ws = (await api('POST', '/api/workspaces', { name: 'Lake operations' })).json.workspace.id;
    // One notebook's create is refused once: that install ends partial with one failed step.
    await sandbox.admin.addFault({ service: 'dataPlatform', method: 'POST', path: '/notebooks', status: 400, count: 1 });
    const gated = await installed(GATED, { workspaceId: ws });
    assert.equal(gated.status, 'partial');
    const stored = await installed(STORED, { workspaceId: ws, deploy: false });
    assert.equal(stored.status, 'done');

    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
    await page.goto(`/workspaces/${ws}`);
    const section = page.getByRole('region', { name: 'Installed apps' });
    await section.getByRole('heading', { name: 'Installed apps' }).waitFor();
    const rows = section.getByTestId('installed-app');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    const row = (appId: string) => rows.filter({ hasText: catalog.get(appId)!.displayName });
    const text = async (appId: string, id: string) => (await row(appId).getByTestId(id).innerText()).trim();
    assert.equal(await text(GATED, 'installed-app-status'), 'partial');
    assert.equal(await text(GATED, 'installed-app-version'), catalog.get(GATED)!.version);
    assert.equal(await text(GATED, 'installed-app-items'), `${catalog.get(GATED)!.items.length} items · 1 to review`);
    assert.equal(await text(STORED, 'installed-app-status'), 'installed');
    assert.equal(await text(STORED, 'installed-app-items'), `${catalog.get(STORED)!.items.length} items`);
    await rig.shot('installed-apps-01-workspace');

    // After the fault is gone, retrying the failed step completes the job; the page shows the app installed.
    const failed = gated.provision.steps.find((s: any) => s.result.status === 'failed');
    assert.equal((await api('POST', `/api/apps/install-jobs/${gated.id}/steps/${failed.stepIndex}/retry`)).status, 202);
    assert.equal((await finished(gated.id)).status, 'done');
    await page.reload();
    await row(GATED)
      .getByTestId('installed-app-status')
      .filter({ hasText: /^installed$/ })
      .waitFor();
    assert.equal(await text(GATED, 'installed-app-items'), `${catalog.get(GATED)!.items.length} items`);
    await rig.shot('installed-apps-02-after-retry');

    // The last job's link opens that job.
    await row(GATED).getByTestId('installed-app-job').click();
    await page.waitForURL(new RegExp(`/jobs/${gated.id}$`));
    await page.getByTestId('job-status').filter({ hasText: 'done' }).waitFor();
  });
});
