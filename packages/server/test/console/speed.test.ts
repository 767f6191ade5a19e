import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startRig, type ConsoleRig } from './browser.js';

const BUDGET = 200 * 1024;
/** Chunks that load on demand, never with the first page (named by Vite after their modules). */
const ON_DEMAND = /CreateWorkspaceDialog|RenameWorkspaceDialog|DeleteWorkspaceDialog|BindWorkspaceDialog|JobsTrayDrawer|JobToasts/;

/** Waits for running animations (a drawer sliding in, a dialog fading in) to end, so a screenshot shows the settled page. */
const settled = (page: Page) =>
  page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );

describe('the console loads fast: compressed, and only what the first page needs', { timeout: 180_000 }, () => {
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startRig();
    const created = await rig.h.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: rig.tenant.auth,
      payload: { name: 'Fast floor' },
    });
    assert.equal(created.statusCode, 201, created.body);
  });
  after(async () => {
    await rig?.close();
  });

  test("a new user's first page (sign-in, then the workspaces table) transfers at most 200 KB, scripts in brotli", async () => {
    // A browser profile of its own: a cold cache, as a new user has.
    const context = await rig.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const scripts = new Map<string, { url: string; encoding: string }>();
    const bytes = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => {
      const enc = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
      if (e.type === 'Script') scripts.set(e.requestId, { url: e.response.url, encoding: String(enc ?? 'identity') });
    });
    cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));

    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await rig.shot('speed-00-sign-in', page);
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('table', { name: 'Workspaces' })
      .getByRole('row', { name: /Fast floor/ })
      .waitFor();
    await page.waitForLoadState('networkidle');
    await rig.shot('speed-01-first-page', page);

    const total = [...bytes.values()].reduce((a, b) => a + b, 0);
    const list = [...scripts.entries()].map(([id, s]) => `${s.url} ${s.encoding} ${bytes.get(id)} B`);
    assert.ok(total <= BUDGET, `the first page transferred ${total} bytes (budget ${BUDGET}): ${list.join('; ')}`);
    assert.ok(scripts.size > 0);
    for (const s of scripts.values()) assert.equal(s.encoding, 'br', `${s.url} is sent as ${s.encoding}`);
    for (const s of scripts.values()) assert.doesNotMatch(s.url, ON_DEMAND, 'a part that opens on a click loaded with the first page');
  });

  test('what loads on demand opens on the first click: New workspace, a workspace row’s Delete, the jobs tray', async () => {
    const loaded: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') loaded.push(r.url());
    });
    await page.getByRole('button', { name: 'New workspace' }).click();
    const create = page.getByRole('dialog', { name: 'New workspace' });
    await create.getByLabel('Name').waitFor();
    await settled(page);
    await rig.shot('speed-02-new-workspace', page);
    await create.getByRole('button', { name: 'Cancel' }).click();
    await create.waitFor({ state: 'hidden' });
    // Opened again, it comes back at once (its code is loaded) and empty.
    await page.getByRole('button', { name: 'New workspace' }).click();
    assert.equal(await create.getByLabel('Name').inputValue(), '');
    await page.keyboard.press('Escape');
    await create.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Actions for Fast floor' }).click();
    await page.getByRole('menuitem', { name: /^Delete/ }).click();
    const remove = page.getByRole('dialog');
    await remove.getByText('Fast floor').first().waitFor();
    await settled(page);
    await rig.shot('speed-03-delete-workspace', page);
    await page.keyboard.press('Escape');
    await remove.waitFor({ state: 'hidden' });

    await page.getByTestId('jobs-tray-button').click();
    const tray = page.getByRole('dialog', { name: 'Install jobs' });
    await tray.getByText('No installs yet').waitFor();
    await settled(page);
    await rig.shot('speed-04-jobs-tray', page);
    await page.keyboard.press('Escape');
    await tray.waitFor({ state: 'hidden' });

    for (const part of ['CreateWorkspaceDialog', 'DeleteWorkspaceDialog', 'JobsTrayDrawer'])
      assert.ok(
        loaded.some((u) => u.includes(part)),
        `${part} loaded on its first click: ${loaded.join(', ')}`,
      );
  });

  test('a part whose download fails says so and keeps the page; Try again downloads it and it opens', async () => {
    // As offline, or after a redeploy removed the file: the rename dialog's code cannot be fetched.
    const blocked = /\/assets\/RenameWorkspaceDialog-[^/]+\.js$/;
    await page.route(blocked, (r) => r.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Actions for Fast floor' }).click();
    await page.getByRole('menuitem', { name: /^Rename/ }).click();
    const failed = page.getByTestId('part-load-failed');
    await failed.waitFor();
    assert.match(await failed.innerText(), /could not be loaded[\s\S]*offline, or the console was updated/);
    // The page around it stays: the table and the navigation are still there.
    await page
      .getByRole('table', { name: 'Workspaces' })
      .getByRole('row', { name: /Fast floor/ })
      .waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await settled(page);
    await rig.shot('speed-05-part-load-failed', page);

    await page.unroute(blocked);
    await failed.getByRole('button', { name: 'Try again' }).click();
    const rename = page.getByRole('dialog');
    await rename.getByRole('textbox').first().waitFor();
    assert.equal(await failed.count(), 0);
    await page.keyboard.press('Escape');
    await rename.waitFor({ state: 'hidden' });
  });

  test('without a session the sign-in form arrives drawn: usable before any script runs, in the dark theme too', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await rig.browser.newContext({
        baseURL: rig.baseUrl,
        javaScriptEnabled: false,
        colorScheme,
        viewport: { width: 1024, height: 640 },
      });
      try {
        const still = await context.newPage();
        await still.goto('/workspaces');
        const field = still.getByLabel('API token');
        await field.waitFor();
        assert.ok(await still.getByRole('button', { name: 'Sign in' }).isDisabled(), 'Sign in waits for a token (and for the script)');
        assert.equal(
          await still.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name),
          'token',
          'the field has the cursor',
        );
        const card = await still.evaluate(() => getComputedStyle(document.querySelector('h1')!.parentElement!).backgroundColor);
        assert.equal(card, colorScheme === 'dark' ? 'rgb(41, 41, 41)' : 'rgb(255, 255, 255)', `the ${colorScheme} theme's card`);
        await rig.shot(`speed-06-sign-in-before-script-${colorScheme}`, still);
      } finally {
        await context.close();
      }
    }
  });

  test('a token typed into the drawn form before the script takes over carries over: typing goes on, Enter signs in', async () => {
    const context = await rig.newContext();
    const typing = await context.newPage();
    typing.setDefaultTimeout(15_000);
    // The first script waits until half the token is typed: the form the service drew is all there is until then.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await typing.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await typing.goto('/workspaces', { waitUntil: 'commit' });
    await typing.locator('#root[data-prerendered="sign-in"] input[name="token"]').waitFor();
    const token = rig.tenant.token;
    const half = token.length >> 1;
    await typing.keyboard.type(token.slice(0, half));
    release();
    await typing.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' });
    await typing.getByRole('button', { name: 'Sign in' }).and(typing.locator(':enabled')).waitFor();
    await typing.keyboard.type(token.slice(half));
    assert.equal(await typing.getByLabel('API token').inputValue(), token, 'one token: the typed half, then the rest');
    assert.equal(await typing.locator('style[data-prerendered]').count(), 0, "the drawn page's styles are gone");
    await typing.keyboard.press('Enter');
    await typing.waitForURL(/\/workspaces$/);
    await typing
      .getByRole('table', { name: 'Workspaces' })
      .getByRole('row', { name: /Fast floor/ })
      .waitFor();
    await context.close();
  });

  test('a returning browser (session cookie, nothing cached) gets the page whose requests start with it: whoami and the list, once each', async () => {
    const context = await rig.browser.newContext({ baseURL: rig.baseUrl, storageState: await page.context().storageState() });
    try {
      const back = await context.newPage();
      const asked: string[] = [];
      back.on('request', (r) => {
        if (r.url().includes('/api/')) asked.push(r.url().slice(rig.baseUrl.length));
      });
      const answer = await back.goto('/workspaces');
      assert.match(
        answer!.headers().link ?? '',
        /<\/api\/whoami>; rel=preload; as=fetch; crossorigin, <\/api\/workspaces\?limit=200>; rel=preload/,
      );
      await back
        .getByRole('table', { name: 'Workspaces' })
        .getByRole('row', { name: /Fast floor/ })
        .waitFor();
      assert.equal(await back.locator('#root[data-prerendered]').count(), 0, 'no sign-in form was drawn');
      await back.waitForLoadState('networkidle');
      // The script's own fetches took the preloaded answers: a second request would mean they did not match.
      assert.deepEqual(
        asked.filter((u) => /^\/api\/(whoami|workspaces\?)/.test(u)),
        ['/api/whoami', '/api/workspaces?limit=200'],
        asked.join(', '),
      );
    } finally {
      await context.close();
    }
  });
});
