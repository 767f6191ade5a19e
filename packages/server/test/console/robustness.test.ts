// What a user trips over when something goes wrong, in Chromium against the real service and the sandbox: a page whose
// code cannot be loaded or that throws, the network dropping, a session that ends under the console, a refused
// identity-provider sign-in, and the jobs a browser follows across a sign-out. A screenshot of each state.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { TENANT_SCOPES } from '../../src/auth/scopes.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { startRig, type ConsoleRig } from './browser.js';

const APP = 'app-lakehouse-inspector';
const APP_NAME = loadCatalog().get(APP)!.displayName;
// The page's chunk, whatever hash (and folder) the build gives it.
const JOBS_CHUNK = /\/JobsPage[-.][^/]*\.js(\?.*)?$/;

describe('console robustness (Chromium)', { timeout: 600_000 }, () => {
  let rig: ConsoleRig;
  let wsA = '';

  before(async () => {
    rig = await startRig();
    wsA = (await api('POST', '/api/workspaces', { name: 'Robust A' })).json.workspace.id;
    await signIn(rig.page, rig.tenant.token);
  });
  after(async () => {
    await rig?.close();
  });

  async function api(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, auth = rig.tenant.auth) {
    const r = await rig.h.app.inject({ method, url, headers: auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  }
  async function signIn(page: Page, token: string, landing: RegExp = /\/workspaces$/) {
    if (!/\/sign-in/.test(page.url())) await page.goto('/sign-in');
    await page.getByLabel('API token').fill(token);
    await page.keyboard.press('Enter');
    await page.waitForURL(landing);
  }
  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 });

  test('a page whose code cannot be loaded reloads once, then says so with Reload; the navigation still works', async () => {
    const { page } = rig;
    await page.goto('/workspaces');
    await heading(page, 'Workspaces').waitFor();
    let loads = 0;
    page.on('load', () => loads++);
    // The chunk of the jobs page is gone, as after a redeploy that renamed it.
    await page.route(JOBS_CHUNK, (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
    await nav(page, 'Install jobs').click();
    const failure = page.getByTestId('page-error');
    await failure.getByText('This page could not be loaded').waitFor();
    assert.equal(new URL(page.url()).pathname, '/jobs');
    await page.waitForTimeout(1_000); // a second reload would come now
    assert.equal(loads, 1, 'the app reloaded once, and only once');
    assert.ok(await nav(page, 'Workspaces').isVisible(), 'the shell stays');
    await rig.shot('robust-01-chunk-failed');

    // The navigation still works.
    await nav(page, 'App catalog').click();
    await heading(page, 'App catalog').waitFor();
    assert.equal(await failure.count(), 0);

    // The chunk is back: Reload brings the page.
    await page.unroute(JOBS_CHUNK);
    await nav(page, 'Install jobs').click();
    await failure.getByRole('button', { name: 'Reload' }).click();
    await heading(page, 'Install jobs').waitFor();
    assert.equal(loads, 2);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.chunkReload')), null, 'a later failure may reload again');
  });

  test('a page that throws while rendering shows the error inside the shell, never a blank page', async () => {
    const { page } = rig;
    // An answer the page cannot render (a name that is not text).
    const url = `**/api/workspaces/${wsA}`;
    await page.route(url, (r) =>
      r.request().method() === 'GET'
        ? r.fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({ ok: true, workspace: { id: wsA, name: { a: 1 } } }),
          })
        : r.continue(),
    );
    const failure = page.getByTestId('page-error');
    try {
      await page.goto(`/workspaces/${wsA}`);
      await failure.getByText('This page stopped working').waitFor();
      await failure.getByText('Technical details').click();
      assert.match(await failure.innerText(), /React error #31|Objects are not valid as a React child/);
      await rig.shot('robust-02-render-error');
    } finally {
      await page.unroute(url); // the next tests see the service's own answers
    }
    await nav(page, 'Workspaces').click();
    await heading(page, 'Workspaces').waitFor();
    assert.equal(await failure.count(), 0);
  });

  test('offline: a banner, a create refused at once and never sent after Cancel, queries waiting for the network', async () => {
    const { page } = rig;
    const context = page.context();
    const wsB = (await api('POST', '/api/workspaces', { name: 'Robust B' })).json.workspace.id;
    await page.goto('/workspaces');
    await page.getByRole('link', { name: 'Robust B' }).waitFor();
    await page.getByRole('link', { name: 'Robust A' }).click();
    await heading(page, 'Robust A').waitFor();
    await page.getByRole('button', { name: 'New item' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Never sent');

    // The connection drops while the form is open.
    await context.setOffline(true);
    await page.getByTestId('offline-banner').getByText('You are offline').waitFor();
    const started = Date.now();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText(/You are offline: nothing was sent/).waitFor({ timeout: 3_000 });
    assert.ok(Date.now() - started < 3_000, 'said at once, not after a wait');
    assert.equal(await dialog.getByRole('button', { name: 'Working…' }).count(), 0);
    await rig.shot('robust-03-offline-create');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rig.shot('robust-04-offline-banner');

    // A page not seen before waits for the network, and says so (the list shows what it had).
    await nav(page, 'Workspaces').click();
    await page.getByRole('link', { name: 'Robust B' }).click();
    await page.getByTestId('waiting-for-network').getByText('Waiting for the network…').first().waitFor();
    await rig.shot('robust-05-offline-waiting');

    await context.setOffline(false);
    await heading(page, 'Robust B').waitFor();
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, `/workspaces/${wsB}`);
    // Nothing queued was sent on reconnect.
    await page.waitForTimeout(2_000);
    const items = await api('GET', `/api/workspaces/${wsA}/items`);
    assert.equal(items.status, 200);
    assert.deepEqual(
      items.json.items.map((i: { displayName: string }) => i.displayName),
      [],
      'the cancelled create was never sent',
    );
  });

  test('a 401 (the session’s token revoked) sends the user to sign-in, and back to the page afterwards', async () => {
    const page = await (await rig.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    const short = await rig.tenant.token2([...TENANT_SCOPES]);
    await signIn(page, short.token);
    await page.goto(`/workspaces/${wsA}`);
    await heading(page, 'Robust A').waitFor();
    await page.getByRole('button', { name: /^Account: / }).waitFor();

    assert.equal((await api('DELETE', `/api/tokens/${short.id}`)).status, 200);
    await nav(page, 'App catalog').click();
    await page.waitForURL((u) => u.pathname === '/sign-in' && u.searchParams.get('next') === '/apps');
    await page.getByTestId('session-ended').getByText('Your session has ended').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Account: / }).count(), 0, 'the old user is no longer shown');
    assert.equal(await page.getByText(/401|unauthenticated/).count(), 0, 'no raw 401 message');
    await rig.shot('robust-06-session-ended', page);

    await signIn(page, rig.tenant.token, /\/apps$/);
    await heading(page, 'App catalog').waitFor();
    await page.getByRole('button', { name: 'Account: Test Admin' }).waitFor();
    await page.context().close();
  });

  test('a sign-in the identity provider refused lands on the console’s sign-in page, which says why', async () => {
    assert.ok(rig.sandbox, 'this test needs the sandbox identity provider');
    const page = await (await rig.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto('/sign-in?next=%2Fjobs');
    await page.getByRole('link', { name: 'Sign in with Sandbox identity provider' }).click();
    await page.getByRole('heading', { name: 'Pick an account' }).waitFor();
    await page.getByRole('button', { name: /Una Unassigned/ }).click();

    await page.waitForURL((u) => u.origin === rig.baseUrl && u.pathname === '/sign-in' && u.searchParams.has('error'));
    const failure = page.getByTestId('sign-in-failure');
    await failure.getByText('Sign-in failed').waitFor();
    const code = new URL(page.url()).searchParams.get('error')!;
    assert.equal(await page.getByTestId('sign-in-failure-code').innerText(), `(${code})`);
    assert.ok((new URL(page.url()).searchParams.get('message') ?? '').length > 0);
    assert.ok((await failure.innerText()).includes(new URL(page.url()).searchParams.get('message')!.slice(0, 40)));
    // The console's own page: both ways to sign in again are there.
    await page.getByRole('link', { name: 'Sign in with Sandbox identity provider' }).waitFor();
    await page.getByLabel('API token').waitFor();
    await rig.shot('robust-07-sign-in-failed', page);
    const cookies = await page.context().cookies(rig.baseUrl);
    assert.equal(
      cookies.find((c) => c.name === 'svc_session'),
      undefined,
      'no session',
    );
    await page.context().close();
  });

  test('the jobs this browser follows are forgotten on sign-out: the next user sees none of them', async () => {
    const { page } = rig;
    await page.goto(`/apps?workspaceId=${wsA}`);
    await page
      .locator(`[data-app="${APP}"]`)
      .getByRole('button', { name: `Install ${APP_NAME}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Plan', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await dialog.getByTestId('job-progress').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    const jobId = (await api('GET', `/api/apps/install-jobs?workspaceId=${wsA}`)).json.jobs[0].id as string;
    assert.ok(await page.evaluate(() => localStorage.getItem('svc.trackedJobs')), 'the browser follows the install');

    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    assert.equal(await page.evaluate(() => localStorage.getItem('svc.trackedJobs')), null, 'forgotten on sign-out');

    const bea = await rig.tenant.user('Bea Next');
    await signIn(page, bea.token);
    await page.getByRole('button', { name: 'Account: Bea Next' }).waitFor();
    // Until well after the install ended: no count of it, no notification of it.
    const deadline = Date.now() + 120_000;
    while ((await api('GET', `/api/apps/install-jobs/${jobId}`)).json.job.status === 'running') {
      assert.ok(Date.now() < deadline, 'the install ends');
      await page.waitForTimeout(1_000);
    }
    await page.waitForTimeout(2_000);
    assert.equal(await page.getByTestId('jobs-tray-button').getAttribute('aria-label'), 'Install jobs');
    assert.equal(await page.getByTestId('install-toast').count(), 0, 'no notification of the last user’s install');
    await rig.shot('robust-08-next-user');
  });
});
