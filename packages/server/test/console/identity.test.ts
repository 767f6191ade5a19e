// The console's identity operations page in Chromium against the service and the sandbox:
// the expiring-secret banner, a diagnosis (typed and from a failing probe), a firewall rule added and rolled back, an incident
// worked through its approval, snapshot, change and verification.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startRig, type ConsoleRig } from './browser.js';

const DAY = 86_400_000;

/** What the test reads of the sandbox's seeded ids. */
interface Ids {
  platformWorkspaceId: string;
  tenantId: string;
  servicePrincipals: Array<{ name: string; appId: string; objectId: string; secret: string }>;
}

describe('the identity operations page in Chromium', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;
  let sandbox: NonNullable<ConsoleRig['sandbox']> & { ids: Ids };

  before(async () => {
    rig = await startRig();
    assert.ok(rig.sandbox, 'the identity page is tested against the sandbox');
    sandbox = rig.sandbox as typeof sandbox;
  });
  after(async () => {
    await rig?.close();
  });

  /** The sandbox's state as its admin HTTP API reports it. */
  const sandboxState = async () => {
    const r = await fetch(`${sandbox.urls.admin}/_sandbox/state`);
    assert.equal(r.status, 200);
    return (await r.json()) as { dataPlatform: { workspaces: Array<{ id: string; firewallRules: unknown[] }> } };
  };

  /** A data pipeline created in the sandbox's platform workspace (as the service's identity); answers its item id. */
  const createPipeline = async (ws: string, displayName: string): Promise<string> => {
    const auth = { authorization: `Bearer ${await sandbox.admin.token({ audience: 'dataPlatform' })}` };
    const r = await fetch(`${sandbox.urls.dataPlatform}/v1/workspaces/${ws}/dataPipelines`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName }),
    });
    assert.ok(r.status === 201 || r.status === 202, await r.clone().text());
    if (r.status === 201) return ((await r.json()) as { id: string }).id;
    for (let i = 0; i < 50; i++) {
      // 202: the item appears once its operation completes
      const items = (await (
        await fetch(`${sandbox.urls.dataPlatform}/v1/workspaces/${ws}/items?type=DataPipeline`, { headers: auth })
      ).json()) as { value: Array<{ id: string; displayName: string }> };
      const item = items.value.find((x) => x.displayName === displayName);
      if (item) return item.id;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`the pipeline ${displayName} did not appear in the sandbox`);
  };

  const signIn = async (page: Page, token: string) => {
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'API token' }).fill(token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  };

  test('without the admin scope there is no Identity entry, and the page refuses clearly', async () => {
    const { token } = await rig.tenant.token2(['read', 'write', 'install']);
    const context = await rig.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, token);
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Identity' }).count(), 0);
      await page.goto('/identity');
      await page.getByTestId('identity-refused').getByText('Admins only').waitFor();
      await rig.shot('identity-01-refused', page);
      const api = await page.request.get('/api/admin/identity/signals');
      assert.equal(api.status(), 403, 'the service refuses too, not only the page');
    } finally {
      await context.close();
    }
  });

  test('a secret registered to expire in 6 days raises the banner in the shell and on the page', async () => {
    const { page } = rig;
    await signIn(page, rig.tenant.token);
    await page.getByTestId('expiry-banner').waitFor({ state: 'detached' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Identity' }).click();
    await page.getByRole('heading', { name: 'Identity operations' }).waitFor();
    await page.getByRole('tab', { name: 'Secrets' }).click();
    await page.getByText('No credentials registered').waitFor();
    await page.getByRole('button', { name: 'Register credential' }).click();
    const dialog = page.getByRole('dialog');
    const expiresOn = new Date(Date.now() + 7 * DAY).toISOString().slice(0, 10); // midnight UTC: between 6 and 7 days away
    await dialog.getByLabel('Display name').fill('reporting-automation');
    await dialog.getByLabel('Client id').fill(sandbox.ids.servicePrincipals.find((p) => p.name === 'reporting-automation')!.appId);
    await dialog.getByLabel('Key id').fill('key-2026-a');
    await dialog.getByLabel('Expires on').fill(expiresOn);
    await dialog.getByLabel('Vault secret name').fill('reporting-automation-secret');
    await rig.shot('identity-02-register-credential');
    await dialog.getByRole('button', { name: 'Register' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('credential-row').filter({ hasText: 'reporting-automation' });
    await row.getByText(/6 days · critical/).waitFor();
    const banner = page.getByTestId('expiry-banner').first();
    await banner.getByText('Secret reporting-automation expires in 6 days').waitFor();
    assert.equal(await banner.getAttribute('data-level'), 'critical');
    await rig.shot('identity-03-secrets-banner');
    // The shell shows it on every page an admin opens.
    await page.goto('/workspaces');
    await page
      .getByTestId('expiry-banner')
      .getByText(/expires in 6 days/)
      .waitFor();
    await rig.shot('identity-04-banner-in-shell');
    await page.getByTestId('expiry-banner').getByRole('button', { name: 'Review secrets' }).click();
    await page.waitForURL(/\/identity\?tab=secrets$/);
  });

  test('a diagnosis from an AADSTS code shows causes, first checks and actions; the address carries it', async () => {
    const { page } = rig;
    await page.getByRole('tab', { name: 'Diagnose' }).click();
    await page.getByLabel('Error code').fill('AADSTS53003');
    await page.getByRole('button', { name: 'Diagnose', exact: true }).click();
    const diagnosis = page.getByTestId('diagnosis');
    await diagnosis
      .getByTestId('likely-causes')
      .getByText(/blocked by conditional access/)
      .waitFor();
    await diagnosis.getByText('conditional access (inferred)').waitFor();
    assert.match(page.url(), /tab=diagnose.*code=AADSTS53003/);
    await rig.shot('identity-05-diagnosis-aadsts');
    // Reloading the address shows the same diagnosis: a link can carry it.
    await page.reload();
    await page
      .getByTestId('diagnosis')
      .getByText(/blocked by conditional access/)
      .waitFor();
  });

  test('a probe failing on the identity provider links to its diagnosis', async () => {
    const { page } = rig;
    const ci = sandbox.ids.servicePrincipals.find((p) => p.name === 'ci-deployer')!;
    await sandbox.admin.setSwitch('identity.failure', { code: 'AADSTS7000215', principal: ci.appId });
    try {
      await page.goto(`/identity?tab=probes&ws=${sandbox.ids.platformWorkspaceId}`);
      await page.getByLabel('Run as').selectOption('client-credentials');
      await page.getByLabel('Client id').fill(ci.appId);
      await page.getByLabel('Client secret').fill(ci.secret);
      await page.getByRole('button', { name: 'Run probe' }).click();
      const token = page.locator('[data-testid="probe-row"][data-check="token"]');
      await token.getByText('AADSTS7000215').first().waitFor();
      assert.equal(await token.getAttribute('data-ok'), 'false');
      assert.equal(await page.getByLabel('Client secret').inputValue(), '', 'the secret is not kept in the form');
      await rig.shot('identity-06-probe-failed');
      await token.getByRole('link', { name: 'Diagnose' }).click();
      await page.waitForURL(/tab=diagnose/);
      await page
        .getByTestId('likely-causes')
        .getByText(/invalid client or invalid secret/)
        .waitFor();
      await rig.shot('identity-07-probe-diagnosis');
    } finally {
      await sandbox.admin.setSwitch('identity.failure', null);
    }
    // The refusal was recorded as a signal, and the signals table links to the same diagnosis.
    await page.getByRole('tab', { name: 'Signals' }).click();
    const signal = page.getByTestId('signal-row').filter({ hasText: 'AADSTS7000215' }).first();
    await signal.waitFor();
    assert.doesNotMatch(await page.getByTestId('identity-signals').innerText(), new RegExp(ci.secret.replace(/[~.]/g, '\\$&')));
    await rig.shot('identity-08-signals');
  });

  test('a firewall rule added on the page and rolled back from the journal leaves the sandbox as before', async () => {
    const { page } = rig;
    const ws = sandbox.ids.platformWorkspaceId;
    // Firewall rules need Admin on the platform workspace: the sandbox seeds the service identity with it (the README's grant).
    const rulesOf = async () => (await sandboxState()).dataPlatform.workspaces.find((w) => w.id === ws)!.firewallRules;
    const before = structuredClone(await rulesOf());

    // A bad workspace shows the service's error with its code, not an empty table.
    await page.goto('/identity?tab=fixes&ws=ws-does-not-exist');
    const refused = page.getByTestId('firewall-rules').getByRole('alert');
    await refused.getByText(/Could not load the firewall rules/).waitFor();
    assert.match(await refused.innerText(), /\(\d{3} [a-z_]+\)/);
    await rig.shot('identity-09-fixes-error');

    await page.getByLabel('Platform workspace id').fill(ws);
    await page.getByTestId('firewall-rules').getByRole('alert').waitFor({ state: 'detached' });
    await page.getByLabel('Rule name').fill('ci-egress');
    await page.getByLabel('Start IP address').fill('203.0.113.0');
    await page.getByLabel('End IP address').fill('203.0.113.255');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByTestId('firewall-rule').filter({ hasText: 'ci-egress' }).waitFor();
    await page.getByTestId('fix-journaled').waitFor();
    assert.equal((await rulesOf()).length, before.length + 1, 'the rule is in the sandbox');
    await page.getByLabel('Egress address to check').fill('203.0.113.10');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByTestId('egress-result').getByText('203.0.113.10 is allowed (ci-egress)').waitFor();
    await rig.shot('identity-10-rule-added');

    await page.getByTestId('fix-journaled').getByRole('link', { name: 'change journal' }).click();
    const change = page.getByTestId('change-row').filter({ hasText: 'ci-egress' });
    await change.waitFor();
    assert.equal(await change.getAttribute('data-state'), 'applied');
    await change.getByRole('button', { name: /^Roll back/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll back this change?' });
    await dialog.getByText(/The rollback performs/).waitFor();
    await page.waitForTimeout(400); // the dialog's fade-in
    await rig.shot('identity-11-rollback-confirm');
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator(`[data-testid="change-row"][data-state="rolled-back"]`).filter({ hasText: 'ci-egress' }).waitFor();
    assert.deepEqual(await rulesOf(), before, 'the sandbox is back as before');
    await rig.shot('identity-12-rolled-back');

    await page.getByRole('tab', { name: 'Firewall and roles' }).click();
    await page.getByTestId('firewall-rules').waitFor();
    await page.getByTestId('firewall-rule').filter({ hasText: 'ci-egress' }).waitFor({ state: 'detached' });

    // Reduced to what provisioning needs: the page shows the 424 gate naming the missing role, with where to fix it.
    await sandbox.admin.grant({ service: 'dataPlatform', role: 'Contributor' });
    try {
      await page.goto(`/identity?tab=fixes&ws=${ws}`);
      const gate = page.getByTestId('firewall-rules').getByTestId('error-gate');
      await gate.getByText('Needs an admin: data platform 403: the service identity is not Admin on the workspace.').waitFor();
      assert.match(await gate.innerText(), new RegExp(`grant the service identity Admin on the platform workspace ${ws}`));
      assert.match(String(await gate.getByRole('link', { name: 'Open the setting' }).getAttribute('href')), new RegExp(`/groups/${ws}$`));
      assert.match(await page.getByTestId('firewall-rules').getByRole('alert').innerText(), /\(424 deployment_gate\)/);
      await rig.shot('identity-12b-firewall-gate');
    } finally {
      await sandbox.admin.grant({ service: 'dataPlatform', role: 'Admin' });
    }
  });

  test('a role granted on the page and rolled back from the journal leaves the sandbox as before', async () => {
    const { page } = rig;
    const ws = sandbox.ids.platformWorkspaceId;
    const etl = sandbox.ids.servicePrincipals.find((p) => p.name === 'legacy-etl')!;
    const before = structuredClone((await sandboxState()).dataPlatform);
    await page.goto(`/identity?tab=fixes&ws=${ws}`);
    await page.getByTestId('role-assignments').getByRole('table').waitFor();
    await page.getByLabel('Principal object id').fill(etl.objectId);
    await page.getByLabel('Role', { exact: true }).selectOption('Viewer');
    await page.getByRole('button', { name: 'Grant role' }).click();
    await page
      .getByTestId('fix-journaled')
      .getByText(/Viewer/)
      .waitFor();
    await page.getByTestId('role-assignments').getByRole('row').filter({ hasText: etl.objectId }).waitFor();
    assert.notDeepEqual((await sandboxState()).dataPlatform, before, 'the grant reached the sandbox');
    await page.getByRole('tab', { name: 'Change journal' }).click();
    const change = page.locator('[data-testid="change-row"][data-state="applied"]').filter({ hasText: 'Viewer' });
    await change.getByRole('button', { name: /^Roll back/ }).click();
    await page.getByRole('dialog', { name: 'Roll back this change?' }).getByRole('button', { name: 'Roll back' }).click();
    await page.locator('[data-testid="change-row"][data-state="rolled-back"]').filter({ hasText: 'Viewer' }).waitFor();
    assert.deepEqual((await sandboxState()).dataPlatform, before, 'the sandbox is back as before the grant');
  });

  test('token inspection: the claims table marks each claim ok or wrong with the expected value; the token is not kept', async () => {
    const { page } = rig;
    const ci = sandbox.ids.servicePrincipals.find((p) => p.name === 'ci-deployer')!;
    const other = sandbox.ids.servicePrincipals.find((p) => p.name === 'legacy-etl')!;
    const good: string = await sandbox.admin.token({ principal: ci.appId, audience: 'dataPlatform' });
    const bad: string = await sandbox.admin.token({ principal: other.appId, audience: 'arm' });
    await page.goto('/identity?tab=token');
    const inspect = async (token: string) => {
      await page.getByLabel('Access token').fill(token);
      await page.getByLabel('Expected app id (appid)').fill(ci.appId);
      await page.getByLabel('Expected tenant id (tid)').fill(sandbox.ids.tenantId);
      await page.getByRole('button', { name: 'Inspect' }).click();
      await page.getByTestId('claims').waitFor();
      assert.equal(await page.getByLabel('Access token').inputValue(), '', 'the field is cleared once sent');
      assert.ok(!page.url().includes(token.slice(0, 20)), 'the token is not in the address');
    };
    await inspect(good);
    await page.getByRole('heading', { name: 'Every checked claim is as it should be' }).waitFor();
    const row = (claim: string) =>
      page.locator(`[data-testid="claim-row"]`).filter({ has: page.getByRole('cell', { name: claim, exact: true }) });
    assert.equal(await row('aud').getAttribute('data-status'), 'ok');
    assert.equal(await row('appid').getAttribute('data-status'), 'ok');
    await inspect(bad);
    await page.getByRole('heading', { name: 'Some claims are wrong' }).waitFor();
    assert.equal(await row('aud').getAttribute('data-status'), 'wrong');
    assert.equal(await row('appid').getAttribute('data-status'), 'wrong');
    assert.match(await row('appid').innerText(), new RegExp(ci.appId), 'the expected value is shown');
    await rig.shot('identity-13-token-claims');
  });

  test('an incident opened on the page gets its computed severity; closing before monitoring ends is refused with the code', async () => {
    const { page } = rig;
    await page.goto('/identity?tab=incidents');
    await page.getByText('No identity incidents.').waitFor();
    await page.getByLabel('Title').fill('CI deployer cannot get a token');
    await page.getByLabel('Identity type').selectOption('service-principal');
    await page.getByRole('button', { name: 'Open incident' }).click();
    const row = page.getByTestId('incident-row').filter({ hasText: 'CI deployer cannot get a token' });
    await row.waitFor();
    assert.match(await row.innerText(), /SEV[1-4]/);
    await row.getByRole('button', { name: 'Close incident CI deployer cannot get a token' }).click();
    const refused = page.getByTestId('incidents').getByRole('alert');
    await refused.getByText('The incident cannot close yet').waitFor();
    assert.match(await refused.innerText(), /\(409 [a-z_]+\)/);
    await rig.shot('identity-14-incident-close-refused');
  });

  test('an incident worked on the page: a change refused without approval, then approved, snapshotted, recorded and verified into monitoring', async () => {
    const { page } = rig;
    const ws = sandbox.ids.platformWorkspaceId;
    // The verification runs the pipeline as the service's identity, which needs a role on the platform workspace.
    await sandbox.admin.grant({ service: 'dataPlatform', role: 'Admin' });
    const pipelineId = await createPipeline(ws, 'incident_check');
    const title = 'Conditional access blocks the CI deployer';
    await page.goto('/identity?tab=incidents');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Identity type').selectOption('conditional-access');
    await page.getByRole('button', { name: 'Open incident' }).click();
    const row = page.getByTestId('incident-row').filter({ hasText: title });
    await row.getByRole('button', { name: `Details of incident ${title}` }).click();
    const detail = page.getByRole('region', { name: `Incident ${title}` });
    const events = detail.getByTestId('incident-event');
    await events.filter({ hasText: 'opened' }).waitFor();

    // Recording a conditional-access change before its approval: the service's refusal shows next to the form.
    const record = detail.getByTestId('action-record-change');
    await record.getByLabel('Summary').fill('Exclude the CI deployer from CA-07');
    await record.getByRole('button', { name: 'Record change' }).click();
    const refused = record.getByRole('alert');
    await refused.getByText(/needs an approval first/).waitFor();
    assert.match(await refused.innerText(), /\(409 change_refused\)/);
    await record.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await rig.shot('identity-15-incident-change-refused');

    const approve = detail.getByTestId('action-approve');
    await approve.getByLabel('Approver').fill('identity change board');
    await approve.getByRole('button', { name: 'Record approval' }).click();
    await events.filter({ hasText: 'conditional-access approved by identity change board' }).waitFor();
    const snapshot = detail.getByTestId('action-snapshot');
    await snapshot.getByLabel('Policy').fill('CA-07');
    await snapshot.getByLabel('Snapshot (JSON)').fill('{"state": "enabled", "excludeGroups": []}');
    await snapshot.getByRole('button', { name: 'Take snapshot' }).click();
    await events.filter({ hasText: 'policy CA-07' }).waitFor();
    await record.getByLabel('Policy').selectOption('CA-07');
    await record.getByLabel('Summary').fill('Exclude the CI deployer from CA-07');
    await record.getByRole('button', { name: 'Record change' }).click();
    await events.filter({ hasText: 'conditional-access: Exclude the CI deployer from CA-07' }).waitFor();
    await record.getByRole('alert').waitFor({ state: 'detached' });
    assert.equal(await row.getByText('not verified yet').count(), 1);

    const verify = detail.getByTestId('action-verify');
    await verify.getByLabel('Platform workspace id').fill(ws);
    await verify.getByLabel('Pipeline item id').fill(pipelineId);
    await verify.getByRole('button', { name: 'Run verification' }).click();
    await row.getByText('monitoring', { exact: true }).waitFor();
    assert.equal(await row.getByText('not verified yet').count(), 0, 'the row shows when monitoring ends');
    await detail.getByRole('heading', { name: /Last verification .*: passed/ }).waitFor();
    await events.filter({ hasText: 'passed (token ok' }).waitFor();
    assert.deepEqual(await events.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind'))), [
      'opened',
      'approval',
      'snapshot',
      'change',
      'verification',
    ]);
    await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await rig.shot('identity-16-incident-monitoring');
  });
});
