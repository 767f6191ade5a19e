// The console's layout, theme and accessibility in Chromium against the service and the sandbox: a favicon; the dark
// theme following the system setting and a remembered choice; no sideways scroll, no cut header control and no table
// cell printing over its neighbour at 1440, 1024 and 800 px (the navigation a drawer when narrow); axe-core on every
// page in both themes with 0 serious and 0 critical violations, and a screenshot of each at 1440 and 1024 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { install } from '../install-helpers.js';
import { startRig, type ConsoleRig } from './browser.js';
import { axeSerious, headerControlsCut, overlappingCells, planRowsBroken, sidewaysScroll } from './layout-checks.js';

const APP = 'app-lakehouse-inspector';
const APP_NAME = loadCatalog().get(APP)!.displayName;
const IDENTITY_TABS = ['signals', 'diagnose', 'token', 'probes', 'fixes', 'journal', 'secrets', 'incidents'];

interface Visit {
  name: string;
  path: string;
  /** What shows once the page has its data. */
  ready: (page: Page) => Promise<void>;
}

describe('layout, themes and accessibility of the console (Chromium, axe-core)', { timeout: 480_000 }, () => {
  let rig: ConsoleRig;
  let ws = '';
  let jobId = '';
  const pages: Visit[] = [];

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await rig.h.app.inject({ method, url, headers: rig.tenant.auth, ...(body === undefined ? {} : { payload: body as object }) });
    assert.ok(r.statusCode < 300, `${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true }).first().waitFor();
  const testId = (id: string) => (page: Page) => page.getByTestId(id).first().waitFor();

  before(async () => {
    rig = await startRig();
    ws = (await api('POST', '/api/workspaces', { name: 'Accessible lakehouse' })).workspace.id;
    // The app's items live in the sandbox (provisioned, with resource ids); a KQL database and a warehouse made here
    // bring the two editors the app has none of.
    jobId = (await install(rig.h, rig.tenant, APP, { workspaceId: ws })).id;
    await api('POST', `/api/workspaces/${ws}/items`, { itemType: 'kql-database', displayName: 'Telemetry database' });
    await api('POST', `/api/workspaces/${ws}/items`, { itemType: 'warehouse', displayName: 'Sales warehouse' });
    const items = (await api('GET', `/api/workspaces/${ws}/items`)).items as Array<{ id: string; itemType: string; displayName: string }>;
    const item = (type: string) => items.find((i) => i.itemType === type)!;
    const reports = (await api('GET', `/api/items/paginated-report?workspaceId=${ws}`)).reports as Array<{ id: string }>;
    assert.ok(reports.length > 0, 'the sandbox has a paginated report in the workspace');

    pages.push(
      { name: 'workspaces', path: '/workspaces', ready: heading('Workspaces') },
      { name: 'workspace', path: `/workspaces/${ws}`, ready: testId('item-row') },
      ...[
        ['notebook', 'Cells'],
        ['kql-database', 'Schema'],
        ['warehouse', 'SQL'],
        ['lakehouse', 'JSON'],
      ].map(([type, tab]) => ({
        name: `item-${type}`,
        path: `/workspaces/${ws}/items/${item(type!).id}`,
        ready: (page: Page) => page.getByRole('tab', { name: tab, selected: true }).waitFor(),
      })),
      { name: 'thread', path: `/workspaces/${ws}/thread`, ready: testId('thread-graph') },
      { name: 'catalog', path: '/apps', ready: heading('App catalog') },
      { name: 'app', path: `/apps/${APP}`, ready: heading(APP_NAME) },
      {
        // The install dialog's plan (a scrollable region) on the catalog, for the workspace the app is in already.
        name: 'install-dialog',
        path: `/apps?workspaceId=${ws}`,
        ready: async (page: Page) => {
          await page
            .locator(`[data-app="${APP}"]`)
            .getByRole('button', { name: `Install ${APP_NAME}` })
            .click();
          await page.getByRole('dialog').getByText('Plan', { exact: true }).waitFor();
        },
      },
      { name: 'jobs', path: '/jobs', ready: heading('Install jobs') },
      { name: 'job', path: `/jobs/${jobId}`, ready: testId('provision-step') },
      ...IDENTITY_TABS.map((tab) => ({ name: `identity-${tab}`, path: `/identity?tab=${tab}`, ready: testId(`identity-panel-${tab}`) })),
      { name: 'reports', path: `/reports?workspace=${ws}&report=${reports[0]!.id}`, ready: testId('report-metadata') },
      { name: 'designer', path: `/reports/design?workspace=${ws}&report=${reports[0]!.id}`, ready: testId('design-surface') },
      {
        // A tablix selected: the grouping pane and the properties of a cell.
        name: 'designer-tablix',
        path: `/reports/design?workspace=${ws}&report=${reports[0]!.id}`,
        ready: async (page: Page) => {
          await page.getByTestId('design-surface').locator('[data-role="body"]').first().click();
          await page.getByTestId('grouping').waitFor();
        },
      },
      { name: 'designer-new', path: `/reports/design?workspace=${ws}&new=1`, ready: heading('New report') },
      { name: 'audit', path: '/audit', ready: heading('Audit') },
      { name: 'tokens', path: '/tokens', ready: testId('token-row') },
    );

    await rig.page.goto('/sign-in');
    await rig.page.getByLabel('API token').fill(rig.tenant.token);
    await rig.page.keyboard.press('Enter');
    await rig.page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  /** Opens a page and waits until it shows its data and no spinner remains. */
  const visit = async (page: Page, v: Visit) => {
    await page.goto(v.path);
    await v.ready(page);
    await page.waitForFunction(() => !document.querySelector('.fui-Spinner'), undefined, { timeout: 15_000 });
  };
  const background = (page: Page, selector: string) =>
    page.evaluate((sel) => getComputedStyle(document.querySelector(sel)!).backgroundColor, selector);

  test('the service serves a favicon the page links to, under its Content-Security-Policy', async () => {
    // The service itself (not the rig's stand-in), to a browser without a session.
    const service = `http://127.0.0.1:${(rig.h.app.server.address() as { port: number }).port}`;
    const r = await fetch(`${service}/favicon.svg`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.match(r.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await r.text(), /^<svg /);
    const icon = await rig.page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href);
    assert.equal(icon, `${rig.baseUrl}/favicon.svg`);
  });

  test('the theme follows the system setting; Dark or Light chosen in the brand bar is remembered; nothing stays white', async () => {
    const { page } = rig;
    await page.emulateMedia({ colorScheme: 'dark' });
    await visit(page, pages[0]!);
    const dark = 'rgb(41, 41, 41)'; // webDarkTheme's colorNeutralBackground1
    const white = 'rgb(255, 255, 255)';
    assert.equal(await background(page, 'html'), dark, 'the document follows a dark system setting');
    assert.equal(await background(page, '.fui-FluentProvider'), dark, 'the app follows it');
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark');

    await page.getByTestId('theme-button').click();
    await page.getByRole('menuitemradio', { name: 'System' }).and(page.locator('[aria-checked="true"]')).waitFor();
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    assert.equal(await background(page, 'html'), white, 'Light wins over the dark system setting');
    await page.reload();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    assert.equal(await background(page, 'html'), white, 'the choice is remembered');

    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('theme-button').click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    assert.equal(await background(page, 'html'), dark, 'Dark wins over the light system setting, after a reload');
    await rig.shot('theme-toggle-dark');

    await page.getByTestId('theme-button').click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
    assert.equal(await background(page, 'html'), white, 'System follows the light system setting again');
  });

  test('narrow (800 px): the navigation is a drawer opened from the brand bar, closed by Escape or by choosing a page', async () => {
    const { page } = rig;
    await page.setViewportSize({ width: 800, height: 900 });
    await visit(page, pages[1]!);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const button = page.getByRole('button', { name: 'Navigation' });
    assert.equal(await nav.isVisible(), false, 'the navigation leaves the page');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.click();
    await nav.getByRole('link', { name: 'App catalog' }).waitFor();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    // Still under the pointer, the button keeps the brand bar's text colour (a transparent button turns brand blue on hover).
    const color = (sel: string) => page.evaluate((q) => getComputedStyle(document.querySelector(q)!).color, sel);
    assert.equal(await color('[data-testid="nav-button"]'), await color('header'), 'the hovered button shows on the brand bar');
    assert.deepEqual(await axeSerious(page), [], 'axe with the drawer open');
    await rig.shot('layout-800-navigation-open');
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Navigation', 'focus back on the button');
    await button.click();
    await nav.getByRole('link', { name: 'App catalog' }).click();
    await page.getByRole('heading', { name: 'App catalog' }).waitFor();
    await nav.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1024, height: 900 });
    assert.equal(await nav.isVisible(), true, 'wide enough, the navigation is back at the side');
  });

  /** The layout checks of one page as it is shown: sideways scroll, the brand bar, the items table's cells. */
  const layoutFailures = async (page: Page, v: Visit, width: number) => {
    const found: string[] = [];
    const check = (what: string, list: string[]) => {
      if (list.length) found.push(`${v.name} at ${width} px ${what}: ${list.join('; ')}`);
    };
    check('scrolls sideways', await sidewaysScroll(page));
    check('cuts header controls', await headerControlsCut(page));
    if (v.name === 'workspace') check('items table', await overlappingCells(page, 'table[aria-label="Items"]'));
    if (v.name === 'install-dialog') check('install plan', await planRowsBroken(page));
    return found;
  };

  test('every page at 1440 and 1024 px in both themes: axe-core finds 0 serious and 0 critical violations, nothing scrolls sideways or is cut, no items-table cell over another; screenshots', async () => {
    const { page } = rig;
    const failures: string[] = [];
    const signIn = await (await rig.newContext()).newPage();
    for (const theme of ['light', 'dark'] as const) {
      // The system setting decides (the stored choice is System), as for a user who never touched the switch.
      await page.emulateMedia({ colorScheme: theme });
      await signIn.emulateMedia({ colorScheme: theme });
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await signIn.setViewportSize({ width, height: 900 });
        for (const v of pages) {
          await visit(page, v);
          if (width === 1440)
            for (const f of await axeSerious(page))
              failures.push(`${theme} ${v.name}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.join('\n    ')}`);
          if (theme === 'light') failures.push(...(await layoutFailures(page, v, width)));
          await rig.shot(`theme-${theme}-${width}-${v.name}`);
        }
        await signIn.goto('/sign-in');
        await signIn.getByRole('button', { name: 'Sign in' }).waitFor();
        if (width === 1440)
          for (const f of await axeSerious(signIn))
            failures.push(`${theme} sign-in: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.join('\n    ')}`);
        await rig.shot(`theme-${theme}-${width}-sign-in`, signIn);
      }
    }
    assert.deepEqual(failures, [], `found:\n${failures.join('\n')}`);
  });

  test('every page at 800 px: nothing scrolls sideways, no header control is cut, no items-table cell over another', async () => {
    const { page } = rig;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 800, height: 900 });
    const failures: string[] = [];
    for (const v of pages) {
      await visit(page, v);
      failures.push(...(await layoutFailures(page, v, 800)));
      await rig.shot(`layout-800-${v.name}`);
    }
    assert.deepEqual(failures, []);
  });
});
