// Issue 22 in Chromium: the Tokens page (list, create with the secret shown once, a refusal's message, revoke) and the
// install report (every step on the page, each step's log, "Retry all gated steps" refused again and then passing,
// stored-only items, a backing service's JSON error shown readably, a search-service gate's diagnosis).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, startRig, type ConsoleRig } from './browser.js';

const APP = 'app-data-steward';
const SEARCH_ROLES = ['Search Service Contributor', 'Search Index Data Contributor'];
const ACTIVATOR_REFUSAL = 'The activator definition names an unknown event source.';
const REPORTING_REFUSAL = 'The request names a workspace the reporting service cannot read.';

describe('API tokens and the install report (Chromium)', { timeout: 480_000 }, () => {
  let rig: ConsoleRig;

  before(async () => {
    rig = await startRig();
    const { page } = rig;
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown, auth = rig.tenant.auth) => {
    const r = await rig.h.app.inject({ method, url, headers: auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };

  test('Tokens: create with scopes, expiry and a workspace limit, the secret once with Copy, a refusal, revoke', async () => {
    const { page } = rig;
    const ws = await api('POST', '/api/workspaces', { name: 'Exports' });
    assert.equal(ws.status, 201);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.baseUrl });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL(/\/tokens$/);
    // The token the session was opened with is listed, marked.
    await page.getByTestId('token-row').filter({ hasText: 'this session' }).waitFor();

    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    // Only the scopes the caller holds: a tenant admin holds no deployment scope.
    await dialog.getByRole('checkbox', { name: 'admin', exact: true }).waitFor();
    assert.equal(await dialog.getByRole('checkbox', { name: /^(operator|metrics)$/ }).count(), 0);
    // Refused by the service (no visible character in the name): its message shows, nothing is created.
    await dialog.getByLabel('Name').fill('\u200b');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByRole('alert').filter({ hasText: /name/ }).waitFor();
    assert.match(await dialog.getByRole('alert').innerText(), /visible character|name/i);

    await dialog.getByLabel('Name').fill('Nightly export');
    await dialog.getByRole('checkbox', { name: 'reports', exact: true }).check();
    await dialog.getByLabel(/Expires in/).fill('7');
    await dialog.getByRole('checkbox', { name: 'Limit the token to some workspaces' }).check();
    await dialog.getByRole('checkbox', { name: 'Exports', exact: true }).check();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-secret');
    await shown.getByText('you will not see it again').waitFor();
    const secret = await shown.getByTestId('secret-value').inputValue();
    assert.match(secret, /^svc_pat_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await rig.shot('tokens-01-new-secret');

    // The secret works, with the scopes and the workspace limit chosen.
    const me = await api('GET', '/api/whoami', undefined, { authorization: `Bearer ${secret}` });
    assert.equal(me.status, 200);
    assert.deepEqual(me.json.scopes, ['read', 'reports']);
    assert.deepEqual(me.json.workspaceIds, [ws.json.workspace.id]);
    const row = page.getByTestId('token-row').filter({ hasText: 'Nightly export' });
    await row.getByText('Exports').waitFor();
    await row.getByText('reports').waitFor();
    // Done forgets the secret: it is nowhere on the page any more.
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    assert.ok(!(await page.content()).includes(secret));
    await page.reload();
    await row.waitFor();
    assert.notEqual(await row.locator('td').nth(5).innerText(), 'never', 'the token was used once');
    await rig.shot('tokens-02-list');

    await row.getByRole('button', { name: 'Revoke Nightly export' }).click();
    const confirm = page.getByRole('dialog', { name: /Revoke “Nightly export”/ });
    await confirm.getByText('This cannot be undone.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await api('GET', '/api/whoami', undefined, { authorization: `Bearer ${secret}` })).status, 401);
  });

  test('Install report: every step and its log, stored only, a readable backing error, Retry all gated steps refused then passing', async () => {
    const { page, sandbox } = rig;
    assert.ok(sandbox, 'the console tests run against the sandbox');
    for (const role of SEARCH_ROLES) await sandbox.admin.revoke({ service: 'search', role });
    // One activator is refused with the data platform's JSON error; the search calls are slowed so the install is seen running.
    await sandbox.admin.addFault({
      service: 'dataPlatform',
      method: 'POST',
      path: '/reflexes',
      status: 400,
      errorCode: 'InvalidDefinition',
      message: ACTIVATOR_REFUSAL,
      count: 1,
    });
    await sandbox.admin.addFault({ service: 'search', delayMs: 2500, count: 3 });
    const ws = await api('POST', '/api/workspaces', { name: 'Data stewardship' });
    const started = await api('POST', `/api/apps/${APP}/install`, { workspaceId: ws.json.workspace.id });
    assert.equal(started.status, 202);
    const jobId = started.json.jobId;
    await page.goto(`/jobs/${jobId}`);

    // While it provisions, a stored-only item says so (it is never provisioned).
    const storedOnly = page.getByTestId('installed-item').filter({ hasText: 'stored only' });
    await storedOnly.nth(2).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="job-progress"][data-job-status="running"]').count(), 1, 'seen while it runs');
    for (const text of await storedOnly.allInnerTexts()) assert.doesNotMatch(text, /provisioning/);
    await rig.shot('report-00-stored-only-while-running');

    const progress = page.locator('[data-testid="job-progress"][data-job-status="partial"]');
    await progress.waitFor({ timeout: 120_000 });
    const job = (await api('GET', `/api/apps/install-jobs/${jobId}`)).json.job;
    const steps = page.getByTestId('provision-step');
    assert.equal(await steps.count(), job.provision.steps.length);
    // No region caps the list: the section does not scroll, the page does.
    const capped = await page
      .getByRole('region', { name: 'Per-item results' })
      .evaluate((el) => getComputedStyle(el).overflowY !== 'visible' || el.scrollHeight > el.clientHeight + 1);
    assert.equal(capped, false);

    // The refused activator: the data platform's message, readably; its raw answer one click away.
    const failed = page.getByTestId('step-failed');
    await failed.getByTestId('backing-message').filter({ hasText: ACTIVATOR_REFUSAL }).waitFor();
    assert.doesNotMatch(await failed.innerText(), /\{"/);
    await failed.getByRole('button', { name: 'Show the service’s response' }).click();
    assert.match(await failed.getByTestId('backing-raw').innerText(), /"errorCode":\s*"InvalidDefinition"/);
    await failed.scrollIntoViewIfNeeded();
    await rig.shot('report-01-readable-backing-error');

    // A search index's log, one click away.
    const gated = page.locator('[data-testid="provision-step"][data-status="remediation"]');
    assert.equal(await gated.count(), 3);
    const first = gated.first();
    await first.getByRole('button', { name: /^Show the log of / }).click();
    assert.match(await first.getByTestId('step-log').innerText(), /search answered 403/);
    // The console's main region scrolls, not the document: a window as tall as the report shows all of it.
    const tall = await page.locator('main').evaluate((el) => el.scrollHeight + 48);
    await page.setViewportSize({ width: 1280, height: tall });
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-02-full-report-log-open.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The gate's diagnosis names the search service's roles, not workspace or lakehouse roles.
    await first.getByTestId('diagnose-link').click();
    const diagnosis = page.getByTestId('diagnosis');
    await diagnosis.getByText('HTTP 403 from the search service').waitFor();
    assert.match(await diagnosis.getByTestId('likely-causes').innerText(), /Search Service Contributor/);
    assert.doesNotMatch(await diagnosis.innerText(), /lakehouse data access|on the workspace/);
    await rig.shot('report-03-search-diagnosis');
    await page.goBack();

    // Retry all while the roles are still missing: each search step says its retry was refused again, with the message.
    await page.getByRole('button', { name: 'Retry all gated steps (3)' }).click();
    const refused = page.getByTestId('refused-again');
    await page.locator('[data-testid="job-progress"][data-job-status="partial"]').waitFor({ timeout: 120_000 });
    await refused.nth(2).waitFor({ timeout: 60_000 });
    assert.equal(await refused.count(), 3);
    assert.match(await refused.first().innerText(), /refused again \(search service 401\/403\): Authorization failed/);
    await refused.first().scrollIntoViewIfNeeded();
    await rig.shot('report-04-refused-again');

    for (const role of SEARCH_ROLES) await sandbox.admin.grant({ service: 'search', role });
    await page.getByRole('button', { name: 'Retry all gated steps (3)' }).click();
    // The button stays while any step is gated or its retries are under way ("Retrying the gated steps…").
    await page
      .getByRole('button', { name: /^(Retry all gated steps|Retrying the gated steps)/ })
      .waitFor({ state: 'detached', timeout: 120_000 });
    await page.locator('[data-testid="job-progress"]:not([data-job-status="running"])').waitFor({ timeout: 120_000 });
    const after = (await api('GET', `/api/apps/install-jobs/${jobId}`)).json.job;
    const search = after.provision.steps.filter((s: { itemType: string }) => s.itemType === 'search-index');
    assert.deepEqual(
      search.map((s: { result: { status: string } }) => s.result.status),
      ['created', 'created', 'created'],
    );
    assert.equal(await refused.count(), 0, 'a step that passed no longer says it was refused');
  });

  test('a report error from the reporting service shows its message readably, the raw answer one click away', async () => {
    const { page, sandbox } = rig;
    assert.ok(sandbox);
    const ws = await api('POST', '/api/workspaces', { name: 'Quarterly reporting' });
    const fault = await sandbox.admin.addFault({
      service: 'reporting',
      method: 'GET',
      path: '/reports',
      status: 400,
      errorCode: 'InvalidRequest',
      message: REPORTING_REFUSAL,
    });
    await page.goto(`/reports?workspace=${ws.json.workspace.id}`);
    const readable = page.getByRole('alert').getByTestId('backing-text');
    await readable.getByTestId('backing-message').filter({ hasText: REPORTING_REFUSAL }).waitFor({ timeout: 30_000 });
    assert.doesNotMatch(await page.getByRole('alert').first().innerText(), /\{"/, 'no raw JSON until asked for');
    await readable.getByRole('button', { name: 'Show the service’s response' }).click();
    assert.match(await readable.getByTestId('backing-raw').innerText(), /"InvalidRequest"/);
    await rig.shot('report-05-readable-reporting-error');
    await sandbox.admin.removeFault(fault.id);
  });
});
