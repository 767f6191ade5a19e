import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { startRig, type ConsoleRig } from './browser.js';

const APP = 'app-fedramp-tracker';
const APP_NAME = 'FedRAMP Compliance Tracker';

describe('the live plan in the install dialog (Chromium)', { timeout: 300_000 }, () => {
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

  const openDialog = async (workspaceId: string) => {
    const { page } = rig;
    await page.goto(`/apps?workspaceId=${workspaceId}`);
    await page
      .locator(`[data-app="${APP}"]`)
      .getByRole('button', { name: `Install ${APP_NAME}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('plan-summary').waitFor({ timeout: 30_000 });
    return dialog;
  };

  test('before Install the dialog shows each item’s live action; an edited live item shows its diff; a missing grant its gate', async () => {
    const { page, sandbox } = rig;
    const ws = (await api('POST', '/api/workspaces', { name: 'FedRAMP plan' })).json.workspace.id as string;
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);

    // Nothing installed yet: every live item would be created, the scorecard stored only.
    let dialog = await openDialog(ws);
    const actions = () => dialog.getByTestId('plan-item').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    const fresh = await actions();
    assert.ok(fresh.includes('create') && fresh.includes('stored'), JSON.stringify(fresh));
    assert.ok(
      fresh.every((a) => a === 'create' || a === 'stored'),
      JSON.stringify(fresh),
    );
    await rig.shot('plan-01-before-install');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await dialog.getByTestId('job-progress').waitFor();
    const jobs = (await api('GET', `/api/apps/install-jobs?workspaceId=${ws}`)).json.jobs;
    for (const deadline = Date.now() + 120_000; ; ) {
      const job = (await api('GET', `/api/apps/install-jobs/${jobs[0].id}`)).json.job;
      if (job.status !== 'running') {
        assert.equal(job.status, 'done', JSON.stringify(job.provision));
        break;
      }
      assert.ok(Date.now() < deadline, 'the install finished');
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.keyboard.press('Escape');

    // Another client adds a field to the live search index: the plan shows the update with its diff.
    const body = (
      loadCatalog()
        .get(APP)!
        .items.find((i) => i.itemType === 'search-index')!.content as any
    ).index;
    const token = await sandbox.admin.token({ audience: 'search' });
    const put = await fetch(`${sandbox.env.SVC_SEARCH_SERVICE}/indexes/${body.name}?api-version=2024-07-01`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, fields: [...body.fields, { name: 'addedOutside', type: 'Edm.String' }] }),
    });
    assert.ok(put.ok, await put.text());
    dialog = await openDialog(ws);
    const updated = dialog.locator('[data-testid="plan-item"][data-action="update"]');
    await updated.getByText('What changes').click();
    const diff = await updated.getByTestId('plan-diff').innerText();
    assert.match(diff, /--- live\/field addedOutside/);
    const after = await actions();
    assert.ok(after.filter((a) => a === 'no-change').length >= 2, JSON.stringify(after));
    await rig.shot('plan-02-update-diff');
    await page.keyboard.press('Escape');

    // The service identity loses its platform workspace role: the data-platform items are blocked with the gate.
    await sandbox.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
    dialog = await openDialog(ws);
    const blocked = dialog.locator('[data-testid="plan-item"][data-action="blocked"]').first();
    await blocked.getByRole('note').filter({ hasText: 'data platform 401/403' }).waitFor();
    await rig.shot('plan-03-blocked-gate');
    await sandbox.admin.grant({ service: 'dataPlatform', role: 'Admin' });
  });
});
