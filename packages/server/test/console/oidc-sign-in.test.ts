import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';

describe('console sign-in through the sandbox identity provider in Chromium', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;

  before(async () => {
    rig = await startRig();
  });
  after(async () => {
    await rig?.close();
  });

  test('“Sign in with …” goes to the provider’s page; picking an account lands on the console signed in', async () => {
    assert.ok(rig.sandbox, 'this test needs the sandbox identity provider');
    const { page } = rig;
    await page.goto('/workspaces');
    await page.waitForURL(/\/sign-in\?next=/);
    const idp = page.getByRole('link', { name: 'Sign in with Sandbox identity provider' });
    await idp.waitFor();
    await page.getByLabel('API token').waitFor(); // the token option stays next to it
    await rig.shot('20-sign-in-choices');
    await idp.click();

    // The sandbox's own sign-in page, on its own origin.
    await page.waitForURL(
      (url) => url.href.startsWith(`${rig.sandbox!.urls.identity}/`) && url.pathname.endsWith('/oauth2/v2.0/authorize'),
    );
    await page.getByRole('heading', { name: 'Pick an account' }).waitFor();
    const authorize = new URL(page.url());
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    await rig.shot('21-identity-provider');
    await page.getByRole('button', { name: /Ada Admin/ }).click();

    // Back through the callback to the page first asked for, with the session cookie.
    await page.waitForURL(`${rig.baseUrl}/workspaces`);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await page.getByRole('button', { name: 'Account: Ada Admin' }).waitFor();
    await rig.shot('22-signed-in-with-identity-provider');
    const me = await page.evaluate(async () => (await fetch('/api/whoami')).json());
    assert.equal(me.authMethod, 'session');
    assert.equal(me.userName, 'Ada Admin');
    const cookies = await page.context().cookies(rig.baseUrl);
    const session = cookies.find((c) => c.name === 'svc_session');
    assert.ok(session?.httpOnly, 'the session cookie is httpOnly');
    assert.equal(
      cookies.find((c) => c.name === 'svc_oidc_state'),
      undefined,
      'the state cookie is gone',
    );
  });
});
