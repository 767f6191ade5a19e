// The app lifecycle in the console, walked in Chromium against the real service and the sandbox: plan → install → edit
// a notebook → Save and apply → drift (the notebook changed outside the service) → Apply repairs it → upgrade to the
// catalog's version 2 (the service restarted on it) → uninstall; a workspace with an app asks to uninstall it before
// it is deleted; a new item deployed at once; a stored-only item offers no Apply. A screenshot at each stage.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { CATALOG_V2_DIR } from '../catalog-v2-fixture.js';
import { startRig, type ConsoleRig } from './browser.js';
import { editorText } from './code-editor.js';

const APP = 'app-lakehouse-inspector';
const APP_NAME = loadCatalog().get(APP)!.displayName;
const JOB_TIMEOUT = 90_000;

describe('the app lifecycle in the console (Chromium)', { timeout: 600_000 }, () => {
  let rig: ConsoleRig;
  let ws: string;

  before(async () => {
    rig = await startRig({ restartable: true });
    const { page } = rig;
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await rig.h.app.inject({ method, url, headers: rig.tenant.auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };
  /** Waits for `target` inside `scope`; a refusal (an error message) shown there instead fails at once with its text. */
  const shown = async (scope: Locator, target: Locator, timeout = JOB_TIMEOUT) => {
    const refused = scope.getByRole('alert').first();
    const none = () => {};
    await Promise.race([target.waitFor({ timeout }).catch(none), refused.waitFor({ timeout }).catch(none)]);
    if (await target.isVisible()) return;
    if (await refused.isVisible()) assert.fail(`refused: ${await refused.innerText()}`);
    await target.waitFor({ timeout: 1 });
  };
  /** The job panel (any kind) inside `scope` once its job has ended, and its status. */
  const ended = async (scope: Locator) => {
    const job = scope.locator('[data-testid="lifecycle-job"]:not([data-job-status="running"])').first();
    await shown(scope, job);
    return { job, status: await job.getAttribute('data-job-status') };
  };
  const step = (scope: Locator, name: string) => scope.getByTestId('job-step').filter({ hasText: name });
  const itemOf = async (key: string) => {
    const { app } = (await api('GET', `/api/workspaces/${ws}/apps/${APP}`)).json;
    return app.items.find((i: any) => i.key === key);
  };
  const installedRow = () => rig.page.getByTestId('installed-app').filter({ hasText: APP_NAME });

  test('plan, then install from the catalog: the items show their live state', async () => {
    const { page } = rig;
    ws = (await api('POST', '/api/workspaces', { name: 'Lifecycle walk' })).json.workspace.id;
    await page.goto(`/apps?workspaceId=${ws}`);
    await page
      .locator(`[data-app="${APP}"]`)
      .getByRole('button', { name: `Install ${APP_NAME}` })
      .click();
    const dialog = page.getByRole('dialog');
    await shown(dialog, dialog.getByTestId('plan-summary'), 30_000);
    await rig.shot('lifecycle-01-plan');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await dialog.getByTestId('job-progress').waitFor();
    const [job] = (await api('GET', `/api/apps/install-jobs?workspaceId=${ws}`)).json.jobs;
    for (const deadline = Date.now() + JOB_TIMEOUT; ; await new Promise((r) => setTimeout(r, 250))) {
      const j = (await api('GET', `/api/apps/install-jobs/${job.id}`)).json.job;
      if (j.status !== 'running') {
        assert.equal(j.status, 'done', JSON.stringify(j.provision));
        break;
      }
      assert.ok(Date.now() < deadline, 'the install finished');
    }
    await page.keyboard.press('Escape');
    await page.goto(`/workspaces/${ws}`);
    const row = page.getByTestId('item-row').filter({ hasText: 'Profile Columns' });
    await row.locator('[data-testid="live-state"][data-state="created"]').waitFor();
    assert.equal((await row.getByTestId('live-state').innerText()).trim(), 'Live');
    const report = page.getByTestId('item-row').filter({ hasText: 'Storage Growth' });
    assert.equal((await report.getByTestId('live-state').innerText()).trim(), 'Stored only');
    await rig.shot('lifecycle-02-installed');
  });

  test('edit a notebook, Save and apply: the apply job shows the update with its diff; the item is live again', async () => {
    const { page } = rig;
    const nb = await itemOf('profile-notebook');
    await page.goto(`/workspaces/${ws}/items/${nb.itemId}`);
    const cell = page.getByLabel('Cell 2 source');
    await cell.fill((await editorText(cell)).replace('sample_rows = 5_000_000', 'sample_rows = 1_000_000'));
    await page.getByRole('button', { name: 'Save and apply' }).click();
    const panel = page.getByTestId('apply-panel');
    const { status } = await ended(panel);
    assert.equal(status, 'done');
    const applied = step(panel, 'Profile Columns');
    assert.equal(await applied.getAttribute('data-status'), 'updated');
    const diff = await applied.getByTestId('diff').innerText();
    assert.match(diff, /1_000_000/);
    assert.match(diff, /5_000_000/);
    await page.getByTestId('provisioning-panel').locator('[data-testid="live-state"][data-state="created"]').waitFor();
    await rig.shot('lifecycle-03-save-and-apply');
  });

  test('a notebook changed outside the service shows as drifted with its diff; Apply repairs it', async () => {
    const { page, sandbox } = rig;
    const nb = await itemOf('inventory-notebook');
    // Another client rewrites the live notebook's source through the data platform's own API.
    const token = await rig.h.services.backends.pipeline.credential.getToken(rig.h.services.profile.dataPlatformAudience);
    const base = `${sandbox.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sandbox.ids.platformWorkspaceId}/items/${nb.resourceId}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const def = (await (await fetch(`${base}/getDefinition`, { method: 'POST', headers })).json()).definition;
    const parts = def.parts.map((p: any) =>
      p.path === 'notebook-content.py'
        ? { ...p, payload: Buffer.from(`${Buffer.from(p.payload, 'base64')}\n# changed outside the service\n`).toString('base64') }
        : p,
    );
    const put = await fetch(`${base}/updateDefinition`, { method: 'POST', headers, body: JSON.stringify({ definition: { parts } }) });
    assert.ok(put.ok, await put.text());

    await page.goto(`/workspaces/${ws}`);
    const panel = page.getByTestId('drift-panel');
    await panel.getByRole('button', { name: 'Check for drift' }).click();
    await ended(panel);
    const drifted = panel.locator('[data-testid="drift-item"][data-status="drifted"]').filter({ hasText: 'Scan Table Inventory' });
    await drifted.waitFor({ timeout: JOB_TIMEOUT });
    assert.match(await drifted.getByTestId('diff').innerText(), /changed outside the service/);
    assert.equal(await panel.locator('[data-testid="drift-item"]').count(), 1, 'only the changed notebook drifted');
    await page
      .getByTestId('item-row')
      .filter({ hasText: 'Scan Table Inventory' })
      .locator('[data-testid="live-state"][data-state="drifted"]')
      .waitFor();
    await rig.shot('lifecycle-04-drift');

    await drifted.getByRole('button', { name: 'Apply Scan Table Inventory' }).click();
    const { status } = await ended(drifted);
    assert.equal(status, 'done');
    assert.equal(await step(drifted, 'Scan Table Inventory').getAttribute('data-status'), 'updated');
    await page
      .getByTestId('item-row')
      .filter({ hasText: 'Scan Table Inventory' })
      .locator('[data-testid="live-state"][data-state="created"]')
      .waitFor();
    const live = await (await fetch(`${base}/getDefinition`, { method: 'POST', headers })).json();
    const source = Buffer.from(live.definition.parts.find((p: any) => p.path === 'notebook-content.py').payload, 'base64').toString();
    assert.ok(!source.includes('changed outside the service'), 'the stored content is live again');
    await drifted.scrollIntoViewIfNeeded();
    await rig.shot('lifecycle-05-drift-repaired');
  });

  test('upgrade to the catalog’s version 2: plan first, then the job; the edited notebook is a conflict with both versions', async () => {
    const { page } = rig;
    await page.goto('about:blank');
    await rig.restart({ SVC_CATALOG_DIR: CATALOG_V2_DIR });
    await page.goto(`/workspaces/${ws}`);
    await installedRow().getByRole('button', { name: 'Upgrade to 1.1.0' }).click();
    const dialog = page.getByRole('dialog');
    await shown(dialog, dialog.getByTestId('plan-summary'), 30_000);
    const action = (name: string) => dialog.getByTestId('plan-item').filter({ hasText: name }).getAttribute('data-action');
    assert.equal(await action('Check Table Freshness'), 'create');
    assert.equal(await action('Profile Columns'), 'conflict');
    assert.equal(await action('Storage Growth'), 'keep', 'a dropped item is kept unless the box is ticked');
    await dialog.getByLabel('Remove items the new version dropped').check();
    await dialog.locator('[data-testid="plan-item"][data-action="remove"]').filter({ hasText: 'Storage Growth' }).waitFor();
    await rig.shot('lifecycle-06-upgrade-plan');

    await dialog.getByRole('button', { name: 'Upgrade to 1.1.0' }).click();
    const { status } = await ended(dialog);
    assert.ok(status === 'done' || status === 'partial', String(status));
    const conflict = step(dialog, 'Profile Columns');
    assert.equal(await conflict.getAttribute('data-status'), 'conflict');
    const sides = conflict.getByTestId('conflict').first();
    assert.match(await sides.locator('[data-side="Yours (kept)"]').innerText(), /1_000_000/);
    assert.match(await sides.locator('[data-side="New version (not applied)"]').innerText(), /5_000_000/);
    assert.equal(await step(dialog, 'Check Table Freshness').getAttribute('data-status'), 'created');
    await conflict.scrollIntoViewIfNeeded();
    await rig.shot('lifecycle-07-upgrade-result');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // A conflicting item keeps the app on its version (the service records 1.1.0 only when every item merged): the
    // upgrade stays on offer until the user has resolved it.
    await installedRow().getByRole('button', { name: 'Upgrade to 1.1.0' }).waitFor();
    assert.match(await installedRow().getByTestId('installed-app-version').innerText(), /^1\.0\.0/);
    const fresh = page.getByTestId('item-row').filter({ hasText: 'Check Table Freshness' });
    assert.equal(await fresh.getByTestId('live-state').getAttribute('data-state'), 'created');
  });

  test('uninstall: the plan names what is deleted and kept, data loss is warned about, the job reports each item', async () => {
    const { page, sandbox } = rig;
    await page.goto(`/workspaces/${ws}`);
    await installedRow()
      .getByRole('button', { name: `Uninstall ${APP_NAME}` })
      .click();
    const dialog = page.getByRole('dialog');
    await shown(dialog, dialog.getByTestId('plan-summary'), 30_000);
    const action = (name: string) => dialog.getByTestId('plan-item').filter({ hasText: name }).getAttribute('data-action');
    assert.equal(await action('LakehouseInspector'), 'keep', 'data stores are kept by default');
    assert.equal(await action('Profile Columns'), 'delete');
    await dialog.getByLabel(/Also delete data/).check();
    await dialog.getByTestId('data-loss-warning').waitFor();
    await dialog.locator('[data-testid="plan-item"][data-data-loss="true"]').filter({ hasText: 'LakehouseInspector' }).waitFor();
    await rig.shot('lifecycle-08-uninstall-plan-purge');
    await dialog.getByLabel(/Also delete data/).uncheck();
    await dialog.locator('[data-testid="plan-item"][data-action="keep"]').filter({ hasText: 'LakehouseInspector' }).waitFor();

    await dialog.getByRole('button', { name: 'Uninstall', exact: true }).click();
    const { status } = await ended(dialog);
    assert.equal(status, 'done');
    assert.equal(await step(dialog, 'Profile Columns').getAttribute('data-status'), 'deleted');
    assert.equal(await step(dialog, 'LakehouseInspector').getAttribute('data-status'), 'kept');
    await rig.shot('lifecycle-09-uninstall-result');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('region', { name: 'Installed apps' }).getByText('No app is installed in this workspace.').waitFor();
    const names = (await sandbox.admin.state()).dataPlatform.workspaces.flatMap((w: any) => w.items).map((i: any) => i.displayName);
    assert.ok(names.includes('LakehouseInspector'), 'the kept lakehouse is still live');
    assert.ok(!names.includes('Profile Columns'), 'the notebook is gone');
  });

  test('deleting a workspace with an installed app names it and offers to uninstall it, then deletes the workspace', async () => {
    const { page } = rig;
    const other = (await api('POST', '/api/workspaces', { name: 'Has an app' })).json.workspace.id;
    // Stored only (deploy off): quick to install and to uninstall, in either catalog version.
    const started = await api('POST', `/api/apps/${APP}/install`, { workspaceId: other, deploy: false });
    assert.equal(started.status, 202, JSON.stringify(started.json));
    for (const deadline = Date.now() + JOB_TIMEOUT; ; await new Promise((r) => setTimeout(r, 250))) {
      if ((await api('GET', `/api/apps/install-jobs/${started.json.jobId}`)).json.job.status !== 'running') break;
      assert.ok(Date.now() < deadline, 'the install finished');
    }
    await page.goto(`/workspaces/${other}`);
    await page.getByRole('button', { name: 'Workspace actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const blocked = dialog.getByTestId('workspace-has-apps');
    await blocked.getByText(APP_NAME, { exact: false }).waitFor();
    assert.equal(await dialog.getByText('workspace_has_apps').count(), 0, 'the refusal is a question, not a raw error');
    await rig.shot('lifecycle-10-delete-workspace-has-apps');
    await dialog.getByRole('button', { name: 'Uninstall them and delete' }).click();
    await page.waitForURL(/\/workspaces$/, { timeout: JOB_TIMEOUT });
    assert.equal((await api('GET', `/api/workspaces/${other}`)).status, 404);
  });

  test('a new notebook deployed at once follows its job to live, then is deleted with its live resource; a stored-only item offers no Apply', async () => {
    const { page } = rig;
    await page.goto(`/workspaces/${ws}`);
    await page.getByRole('button', { name: 'New item' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Scratch analysis');
    await dialog.getByLabel('Deploy now').check();
    await dialog.getByRole('button', { name: 'Create and deploy' }).click();
    await page.waitForURL(/\/items\/[^/?]+\?job=/);
    const deploy = page.getByTestId('deploy-panel');
    const { status } = await ended(deploy);
    assert.equal(status, 'done');
    assert.equal(await step(deploy, 'Scratch analysis').getAttribute('data-status'), 'created');
    await page.getByTestId('provisioning-panel').locator('[data-testid="live-state"][data-state="created"]').waitFor();
    await rig.shot('lifecycle-11-deploy-now');

    // Deleting it with its live resource runs an uninstall job of the item; the notebook leaves the sandbox too.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    dialog = page.getByRole('dialog');
    assert.ok(await dialog.getByLabel(/Also delete its live resource/).isChecked());
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await shown(dialog, dialog.locator('[data-testid="job-step"][data-status="deleted"]'));
    await rig.shot('lifecycle-12-delete-live-item');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(new RegExp(`/workspaces/${ws}$`));
    const left = (await rig.sandbox.admin.state()).dataPlatform.workspaces.flatMap((w: any) => w.items);
    assert.ok(!left.some((i: any) => i.displayName === 'Scratch analysis'), 'the live notebook is deleted');

    await page.goto(`/workspaces/${ws}`);
    await page.getByRole('button', { name: 'New item' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Item type').selectOption('dashboard');
    assert.ok(await dialog.getByLabel('Deploy now').isDisabled(), 'a stored-only type cannot be deployed');
    await dialog.getByLabel('Name').fill('Ops tiles');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('stored-only-note').waitFor();
    await page.getByLabel('Content of Ops tiles').waitFor();
    assert.equal(await page.getByRole('button', { name: /Apply/ }).count(), 0);
    assert.equal((await page.getByTestId('provisioning-panel').getByTestId('live-state').innerText()).trim(), 'Stored only');
    await rig.shot('lifecycle-13-stored-only');
  });
});
