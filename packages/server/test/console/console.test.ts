import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';
import { editorText } from './code-editor.js';

const APP = 'app-casino-analytics';
const APP_NAME = 'Casino Analytics';

describe('the console in Chromium against the service', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;
  let workspaceId = '';
  let jobId = '';

  before(async () => {
    rig = await startRig();
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await rig.h.app.inject({
      method,
      url,
      headers: { ...rig.tenant.auth, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: r.statusCode, json: r.json() };
  };

  test('sign in with a token, by keyboard; whoami and the sandbox label show', async () => {
    const { page } = rig;
    await page.goto('/');
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await rig.shot('01-sign-in');
    await page.getByLabel('API token').focus();
    await page.keyboard.type('svc_pat_nope_nope');
    await page.keyboard.press('Enter');
    await page.getByText('Sign-in refused').waitFor();
    await rig.shot('01b-sign-in-refused');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    const health = await api('GET', '/api/health');
    if (health.json.cloud === 'sandbox') await page.getByText('SANDBOX · not production').first().waitFor();
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByText(/Signed in with a console session/).waitFor();
    await rig.shot('02-whoami');
    await page.keyboard.press('Escape');
    // A reload keeps the session (cookie) and the CSRF token (from whoami).
    await page.reload();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  });

  test('create a workspace', async () => {
    const { page } = rig;
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Casino floor');
    await dialog.getByLabel('Description').fill('Slot floor analytics for the browser tests');
    await rig.shot('03-create-workspace');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/workspaces\/[^/]+$/);
    workspaceId = new URL(page.url()).pathname.split('/')[2]!;
    await page.getByRole('heading', { name: 'Casino floor' }).waitFor();
    await page.getByText('This workspace has no items').waitFor();
    const r = await api('GET', `/api/workspaces/${workspaceId}`);
    assert.equal(r.json.workspace.name, 'Casino floor');
  });

  test('install the casino app with a grant missing; close the dialog while it runs; the notification names the app', async () => {
    const { page, sandbox } = rig;
    if (sandbox) {
      // The creator of a KQL database is its Admin (callerRole), so the missing grant shows on a database a user made
      // before: the service's PUT is then an update, and without AllDatabasesAdmin its .create table is refused.
      await sandbox.admin.revoke({ service: 'kql', role: 'AllDatabasesAdmin' });
      const owner = await sandbox.admin.token({ audience: 'arm', principal: sandbox.ids.users[0]!.objectId });
      const url = `${sandbox.urls.arm}${sandbox.ids.kqlClusterResourceId}/databases/CasinoTelemetry?api-version=2024-04-13`;
      const body = JSON.stringify({ kind: 'ReadWrite', location: sandbox.ids.kqlLocation });
      const put = await fetch(url, {
        method: 'PUT',
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        body,
      });
      assert.equal(put.status, 201, await put.text());
    }
    await page.goto(`/apps?workspaceId=${workspaceId}`);
    await page
      .locator(`[data-app="${APP}"]`)
      .getByRole('button', { name: `Install ${APP_NAME}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Plan', { exact: true }).waitFor();
    if (!sandbox) {
      await dialog.getByRole('switch').click(); // no backing services: store only
      await dialog.getByText('Nothing is provisioned: deploy is off.').waitFor();
    }
    await rig.shot('04-install-dialog-plan');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await dialog.getByTestId('job-progress').waitFor();
    await rig.shot('05-install-progress');
    const jobs = await api('GET', `/api/apps/install-jobs?workspaceId=${workspaceId}`);
    jobId = jobs.json.jobs[0].id;
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('jobs-tray-button').click();
    await page.getByTestId('tray-job').first().waitFor();
    await page.waitForTimeout(400); // the drawer's slide-in
    await rig.shot('06-jobs-tray');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Install jobs' }).waitFor({ state: 'hidden' });
    const toast = page.getByTestId('install-toast').filter({ hasText: new RegExp(`${APP_NAME}: install (finished|failed)`) });
    await toast.waitFor({ timeout: 120_000 });
    await page.waitForTimeout(400); // the toast's fade-in
    await rig.shot('07-install-notification');
    const job = (await api('GET', `/api/apps/install-jobs/${jobId}`)).json.job;
    assert.notEqual(job.status, 'running');
  });

  test('a remediation step shows the gate; fixing the grant and pressing Retry runs the step again in the worker, then shows it created', async (t) => {
    const { page, sandbox } = rig;
    assert.ok(sandbox, 'the console tests run against the sandbox');
    await page.goto(`/jobs/${jobId}`);
    const step = page.locator('[data-testid="provision-step"][data-status="remediation"]').filter({ hasText: 'CasinoTelemetry' });
    await step.getByTestId('remediation').waitFor();
    await step.scrollIntoViewIfNeeded();
    await rig.shot('08-remediation-step');
    // The step's diagnosis link lands on the identity page with the diagnosis shown.
    await step.getByTestId('diagnose-link').click();
    await page.waitForURL(/\/identity\?.*tab=diagnose/);
    await page.getByTestId('diagnosis').getByTestId('likely-causes').waitFor();
    await rig.shot('08b-step-diagnosis');
    await page.goBack();
    await step.getByTestId('remediation').waitFor();
    await sandbox.admin.grant({ service: 'kql', role: 'AllDatabasesAdmin' });
    // The retried step's first KQL command waits two seconds, so the page is seen following the running job.
    await sandbox.admin.addFault({ service: 'kql', delayMs: 2000, count: 1 });
    await step.getByRole('button', { name: /^Retry/ }).click();
    const fixed = page.locator('[data-testid="provision-step"]').filter({ hasText: 'CasinoTelemetry' });
    // The retry answers at once with the job running again; the report stays on the page with the step running.
    await page.getByTestId('job-progress').and(page.locator('[data-job-status="running"]')).waitFor({ timeout: 10_000 });
    await fixed
      .and(page.locator('[data-status="running"]'))
      .getByRole('button', { name: /^Retry/ })
      .and(page.locator('[disabled]'))
      .waitFor();
    await rig.shot('09a-retry-running');
    // The database itself was made by the first attempt's resource-manager PUT, so the service may report it as exists.
    await fixed.and(page.locator('[data-status="created"], [data-status="exists"]')).waitFor({ timeout: 60_000 });
    await page.getByTestId('job-status').filter({ hasText: 'done' }).waitFor();
    await fixed.scrollIntoViewIfNeeded();
    await rig.shot('09-retried-created');
  });

  test('the workspace lists the installed items with type icons, sortable and filterable', async () => {
    const { page } = rig;
    await page.goto(`/workspaces/${workspaceId}`);
    await page.getByTestId('item-row').first().waitFor();
    assert.equal(await page.getByTestId('item-row').count(), 10);
    await page.getByRole('columnheader', { name: 'Type' }).click();
    await rig.shot('10-items');
    await page.getByLabel('Filter by name').fill('floor');
    // The count reads "10 of 10 items" before the filter applies: wait for the filtered count.
    await page.getByText(/^[1-9] of 10 items$/).waitFor();
    const shown = await page.getByTestId('item-row').count();
    assert.ok(shown > 0 && shown < 10, `filter shows ${shown}`);
    await page.getByLabel('Filter by name').fill('');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await rig.shot('11-items-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('open an item, edit, save; a change made elsewhere shows a conflict message and keeps the edit', async () => {
    const { page } = rig;
    await page.getByRole('link', { name: 'Load Floor Sessions' }).click();
    await page.getByTestId('notebook-cell').first().waitFor();
    const first = page.getByLabel('Cell 1 source');
    await first.fill('# Load floor sessions\nEdited in the browser test.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await rig.shot('12-item-saved');
    const itemId = new URL(page.url()).pathname.split('/')[4]!;
    const stored = await api('GET', `/api/workspaces/${workspaceId}/items/${itemId}/content`);
    assert.match(stored.json.content.cells[0].source, /Edited in the browser test/);

    // Someone else saves, then this editor saves its own change on the old ETag.
    const other = structuredClone(stored.json.content);
    other.cells[0].source = '# Changed by a colleague';
    assert.equal(
      (await api('PUT', `/api/workspaces/${workspaceId}/items/${itemId}/content`, { content: other }, { 'if-match': stored.json.etag }))
        .status,
      200,
    );
    await first.fill('# My second edit');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('conflict-message').waitFor();
    assert.equal(await editorText(first), '# My second edit', 'the edit is not lost');
    await rig.shot('13-item-conflict');
    const after = await api('GET', `/api/workspaces/${workspaceId}/items/${itemId}/content`);
    assert.equal(after.json.content.cells[0].source, '# Changed by a colleague');
  });

  test('the thread of the installed app is drawn; an edge is added and removed', async () => {
    const { page } = rig;
    await page.goto(`/workspaces/${workspaceId}/thread`);
    await page.getByTestId('thread-graph').waitFor();
    const edges = (await api('GET', `/api/workspaces/${workspaceId}/thread/edges`)).json.edges;
    assert.ok(edges.length > 0);
    assert.equal(await page.getByTestId('thread-edge').count(), edges.length);
    await rig.shot('14-thread');
    await page.getByLabel('From', { exact: true }).selectOption({ label: 'Title 31 Compliance (dashboard)' });
    await page.getByLabel('Kind', { exact: true }).selectOption('triggers-on');
    await page.getByLabel('To', { exact: true }).selectOption({ label: 'W-2G Jackpot Alerts (activator)' });
    await page.getByRole('button', { name: 'Add edge' }).click();
    await page.getByRole('button', { name: 'Remove Title 31 Compliance triggers-on W-2G Jackpot Alerts' }).waitFor();
    assert.equal(await page.getByTestId('thread-edge').count(), edges.length + 1);
    await page.getByRole('button', { name: 'Remove Title 31 Compliance triggers-on W-2G Jackpot Alerts' }).click();
    await page.getByRole('button', { name: 'Remove Title 31 Compliance triggers-on W-2G Jackpot Alerts' }).waitFor({ state: 'detached' });
  });

  test('an error is shown with its message, never as an empty list; deep links load their page', async () => {
    const { page } = rig;
    await page.goto('/workspaces/ws-does-not-exist');
    await page.getByText(/Could not load the workspace/).waitFor();
    await page
      .getByText(/was not found/)
      .first()
      .waitFor();
    await rig.shot('15-error-state');
    for (const [path, heading] of [
      ['/apps', 'App catalog'],
      [`/apps/${APP}`, APP_NAME],
      ['/jobs', 'Install jobs'],
      [`/jobs/${jobId}`, `Install of ${APP_NAME}`],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await rig.shot('16-catalog-page');
  });

  test('the service serves the console files to a browser without a session', async () => {
    const base = `http://127.0.0.1:${(rig.h.app.server.address() as { port: number }).port}`;
    const r = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    assert.equal(r.status, 200);
    const html = await r.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(asset, 'index.html names its script');
    assert.equal((await fetch(`${base}${asset}`)).status, 200);
    const deep = await fetch(`${base}/workspaces/abc/thread`, { headers: { accept: 'text/html' } });
    assert.equal(deep.status, 200, 'a deep link answers the console');
    const api = await fetch(`${base}/api/workspaces`);
    assert.equal(api.status, 401, 'the API still needs credentials');
  });

  test('the console runs under its Content-Security-Policy: no inline script in its build, every page served with the policy, no violation reported', async () => {
    const base = `http://127.0.0.1:${(rig.h.app.server.address() as { port: number }).port}`;
    const index = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    const html = await index.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    assert.ok(scripts.length > 0, 'index.html loads its script');
    for (const [tag, attrs, body] of scripts)
      assert.ok(/\bsrc=/.test(attrs!) && body!.trim() === '', `an inline script in index.html: ${tag}`);
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handler');
    for (const url of ['/', '/workspaces/abc/thread', String(/src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1])]) {
      const policy = (await fetch(`${base}${url}`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy') ?? '';
      assert.match(policy, /(^|;)\s*script-src 'self'\s*(;|$)/, `${url}: ${policy}`);
      assert.match(policy, /frame-ancestors 'none'/, url);
    }
    // Every page the tests above drove (sign-in, workspaces, the install dialog, items, the thread, catalog and jobs).
    assert.deepEqual(rig.cspViolations, [], 'Content-Security-Policy violations');
  });

  test('sign out ends the session', async () => {
    const { page } = rig;
    await page.goto('/workspaces');
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    const r = await page.request.get('/api/whoami');
    assert.equal(r.status(), 401);
  });
});
