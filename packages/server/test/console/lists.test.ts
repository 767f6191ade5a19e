// The console's lists in Chromium (issue 22): the workspaces list (search, sort, the caller's role, a duplicate name
// refused on the field), the items table (app names, coloured type icons, empty and no-match states) and the paginated
// report export's checks (required parameters, a page range) with the reporting workspace an unbound workspace uses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { webDarkTheme, webLightTheme } from '@fluentui/tokens';
import type { Page } from 'playwright-core';
import { ITEM_TYPE_COLORS } from '../../../console/src/components/item-type-colors.js';
import { startRig, type ConsoleRig } from './browser.js';

const APP = 'app-casino-analytics';
const APP_NAME = 'Casino Analytics';

/** WCAG contrast ratio of two colours (`#rrggbb` or `rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const channels = (c: string) =>
    c.startsWith('#')
      ? [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16))
      : (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  const lum = (c: string) => {
    const [r, g, bl] = channels(c).map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The names in the workspaces table, top to bottom. */
const workspaceNames = (page: Page) =>
  page
    .getByRole('table', { name: 'Workspaces' })
    .locator('tbody tr td:first-child')
    .allInnerTexts()
    .then((t) => t.map((x) => x.trim()));

/** The table's names once they equal `expected` (the sort lives in the address, so the table redraws a moment after a click). */
async function namesAre(page: Page, expected: string[], message: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  let names = await workspaceNames(page);
  while (JSON.stringify(names) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    names = await workspaceNames(page);
  }
  assert.deepEqual(names, expected, message);
}

describe('the console lists in Chromium', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;
  let lee: { userId: string; token: string; auth: { authorization: string } };
  const ids: Record<string, string> = {};

  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, auth = rig.tenant.auth) => {
    const r = await rig.h.app.inject({ method, url, headers: auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };

  before(async () => {
    rig = await startRig();
    // Lee is no tenant admin: the roles the admin gives Lee are what the list shows; Lee creates (and so administers) one.
    lee = await rig.tenant.user('Lee Park');
    const roles: Array<[string, string]> = [
      ['Alpha analytics', 'Viewer'],
      ['Beta lake', 'Contributor'],
      ['Delta archive', 'Member'],
    ];
    for (const [name, role] of roles) {
      ids[name] = (await api('POST', '/api/workspaces', { name })).json.workspace.id;
      const r = await api('POST', `/api/workspaces/${ids[name]}/role-assignments`, { principal: { type: 'User', id: lee.userId }, role });
      assert.equal(r.status, 201, JSON.stringify(r.json));
    }
    ids['Gamma ops'] = (await api('POST', '/api/workspaces', { name: 'Gamma ops' }, lee.auth)).json.workspace.id;
    const { page } = rig;
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'API token' }).fill(lee.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  test('the workspaces list: search by name, sort by name, role and created, the caller’s role on each', async () => {
    const { page } = rig;
    await page.getByRole('table', { name: 'Workspaces' }).waitFor();
    await namesAre(page, ['Alpha analytics', 'Beta lake', 'Delta archive', 'Gamma ops'], 'by name at first');
    const roles = await page.getByTestId('workspace-role').allInnerTexts();
    assert.deepEqual(
      roles.map((r) => r.trim()),
      ['Viewer', 'Contributor', 'Member', 'Admin'],
    );

    await page.getByRole('columnheader', { name: 'Your role' }).click();
    await namesAre(page, ['Gamma ops', 'Delta archive', 'Beta lake', 'Alpha analytics'], 'strongest role first');
    await page.getByRole('columnheader', { name: 'Your role' }).click();
    await namesAre(page, ['Alpha analytics', 'Beta lake', 'Delta archive', 'Gamma ops'], 'weakest role first');
    await page.getByRole('columnheader', { name: 'Created' }).click();
    await namesAre(page, ['Alpha analytics', 'Beta lake', 'Delta archive', 'Gamma ops'], 'oldest first');
    await page.getByRole('columnheader', { name: 'Created' }).click();
    await namesAre(page, ['Gamma ops', 'Delta archive', 'Beta lake', 'Alpha analytics'], 'newest first');
    assert.equal(await page.getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort'), 'descending');

    await page.getByRole('searchbox', { name: 'Search workspaces' }).fill('TA ');
    await page.getByText('2 of 4 workspaces').waitFor();
    await namesAre(page, ['Delta archive', 'Beta lake'], 'filtered, still newest first');
    await rig.shot('lists-01-workspaces-searched-sorted');
    // The search and sort are in the address: a reload keeps them.
    await page.reload();
    await page.getByText('2 of 4 workspaces').waitFor();
    assert.deepEqual(await workspaceNames(page), ['Delta archive', 'Beta lake']);

    await page.getByRole('searchbox', { name: 'Search workspaces' }).fill('nothing like it');
    await page.getByTestId('workspaces-no-match').getByText('No workspaces match').waitFor();
    await rig.shot('lists-02-workspaces-no-match');
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.getByText('4 of 4 workspaces').waitFor();
  });

  test('a workspace name the tenant already has (in another case) is refused on the Name field and creates nothing', async () => {
    const { page } = rig;
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('  alpha ANALYTICS ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const field = dialog.getByText(/A workspace named 'alpha ANALYTICS' already exists/);
    await field.waitFor();
    // The message is the Name field's own (announced with it), not a general error under the form.
    const described = await dialog.getByLabel('Name').getAttribute('aria-describedby');
    const errorId = await field.getAttribute('id');
    assert.ok(errorId && described?.split(' ').includes(errorId), 'the field names its error');
    await rig.shot('lists-03-duplicate-name-refused');
    assert.match(page.url(), /\/workspaces(\?.*)?$/, 'still on the list');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const listed = (await api('GET', '/api/workspaces', undefined, lee.auth)).json.workspaces as Array<{ name: string }>;
    assert.equal(listed.length, 4);

    // A rename to another workspace's name: refused on the field too, the name unchanged.
    await page.getByRole('button', { name: 'Actions for Gamma ops' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog');
    await rename.getByLabel('Name').fill('delta ARCHIVE');
    await rename.getByRole('button', { name: 'Rename' }).click();
    const refused = rename.getByText(/A workspace named 'delta ARCHIVE' already exists/);
    await refused.waitFor();
    const renameErrorId = await refused.getAttribute('id');
    assert.ok(renameErrorId && (await rename.getByLabel('Name').getAttribute('aria-describedby'))?.split(' ').includes(renameErrorId));
    await rig.shot('lists-03b-duplicate-rename-refused');
    await rename.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await api('GET', `/api/workspaces/${ids['Gamma ops']}`, undefined, lee.auth)).json.workspace.name, 'Gamma ops');
  });

  test('an empty workspace offers its next actions to whoever may take them', async () => {
    const { page } = rig;
    await page.goto(`/workspaces/${ids['Gamma ops']}`);
    const empty = page.getByTestId('items-empty');
    await empty.getByText('This workspace has no items').waitFor();
    await empty.getByRole('button', { name: 'Create an item' }).waitFor();
    await empty.getByRole('button', { name: 'Install an app' }).waitFor();
    await rig.shot('lists-04-items-empty-contributor');
    await empty.getByRole('button', { name: 'Create an item' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await empty.getByRole('button', { name: 'Install an app' }).click();
    await page.waitForURL(new RegExp(`/apps\\?workspaceId=${ids['Gamma ops']}`));

    // A Viewer cannot create or install: no buttons that would only be refused, a sentence saying how items come.
    await page.goto(`/workspaces/${ids['Alpha analytics']}`);
    await page.getByTestId('items-empty').getByText('This workspace has no items').waitFor();
    assert.equal(await page.getByTestId('items-empty').getByRole('button').count(), 0);
    await page.getByText(/Items appear here when someone with the Contributor role/).waitFor();
    await rig.shot('lists-05-items-empty-viewer');
  });

  test('the items table names the app an item came from and draws each type in its own colour; filters that hide everything say so', async () => {
    const { page } = rig;
    const ws = ids['Gamma ops']!;
    const job = await api('POST', `/api/apps/${APP}/install`, { workspaceId: ws, deploy: false }, lee.auth);
    assert.equal(job.status, 202, JSON.stringify(job.json));
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
      const j = (await api('GET', `/api/apps/install-jobs/${job.json.jobId}`, undefined, lee.auth)).json.job;
      if (j.status !== 'running') break;
      assert.ok(Date.now() < deadline, 'the stored-only install ends');
    }
    await api('POST', `/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: 'Scratch notebook' }, lee.auth);
    const items = (await api('GET', `/api/workspaces/${ws}/items?limit=200`, undefined, lee.auth)).json.items as Array<{
      itemType: string;
      appId: string | null;
    }>;
    assert.ok(items.some((i) => i.appId === APP));

    await page.goto(`/workspaces/${ws}`);
    await page.getByText(`${items.length} of ${items.length} items`).waitFor();
    const sources = (await page.getByTestId('item-source').allInnerTexts()).map((s) => s.trim());
    assert.ok(sources.includes(APP_NAME), `the app's name: ${sources.join(', ')}`);
    assert.ok(!sources.includes(APP), 'never its id');
    assert.ok(sources.includes('created here'));

    // Every icon in the table: the colour of its type, one colour per type, readable against the page (3:1, graphics).
    const icons = await page
      .getByRole('table', { name: 'Items' })
      .locator('svg[data-icon]')
      .evaluateAll((els) =>
        els.map((el) => ({
          icon: el.getAttribute('data-icon'),
          color: getComputedStyle(el).color,
          bg: getComputedStyle(document.body).backgroundColor,
        })),
      );
    assert.equal(icons.length, items.length);
    const byIcon = new Map<string, Set<string>>();
    for (const i of icons) byIcon.set(i.icon!, (byIcon.get(i.icon!) ?? new Set()).add(i.color));
    assert.ok(byIcon.size >= 3, `several types: ${[...byIcon.keys()].join(', ')}`);
    for (const [icon, colors] of byIcon) assert.equal(colors.size, 1, `${icon} is drawn in one colour`);
    const colors = [...byIcon.values()].map((s) => [...s][0]!);
    assert.equal(new Set(colors).size, colors.length, `each type its own colour: ${colors.join(', ')}`);
    const bg = icons[0]!.bg === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : icons[0]!.bg;
    for (const i of icons) {
      assert.notEqual(i.icon, 'Document', 'every type is known');
      assert.ok(contrast(i.color, bg) >= 3, `${i.icon} ${i.color} on ${bg}: ${contrast(i.color, bg).toFixed(2)}`);
    }
    await rig.shot('lists-06-items-table-icons');

    await page.getByLabel('Filter by name').fill('no such item');
    const none = page.getByTestId('items-no-match');
    await none.getByText('No items match the filters').waitFor();
    await page.getByText(`0 of ${items.length} items`).waitFor();
    await rig.shot('lists-07-items-no-match');
    await none.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText(`${items.length} of ${items.length} items`).waitFor();
    assert.equal(await page.getByLabel('Filter by name').inputValue(), '');
  });

  test('every item type colour stands 3:1 against the page in the light and the dark theme, one hue per type', () => {
    const themes = { light: webLightTheme, dark: webDarkTheme } as unknown as Record<string, Record<string, string>>;
    const tokens = Object.values(ITEM_TYPE_COLORS);
    assert.equal(new Set(tokens).size, tokens.length, 'no two types share a colour');
    for (const [name, theme] of Object.entries(themes))
      for (const [icon, token] of Object.entries(ITEM_TYPE_COLORS))
        for (const bg of ['colorNeutralBackground1', 'colorNeutralBackground2', 'colorNeutralBackground1Hover']) {
          assert.ok(theme[token], `${token} is a ${name} theme token`);
          const ratio = contrast(theme[token]!, theme[bg]!);
          assert.ok(ratio >= 3, `${icon} (${token}) on ${bg} in the ${name} theme: ${ratio.toFixed(2)}`);
        }
  });

  test('report export: required parameters are marked and checked, a first page after the last is refused, before anything is sent', async () => {
    const { page } = rig;
    const ws = ids['Gamma ops']!;
    const listed = await api('GET', `/api/items/paginated-report?workspaceId=${ws}`, undefined, lee.auth);
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    const sales = (listed.json.reports as Array<{ id: string; name: string; groupId: string }>).find((r) => r.name === 'Sales by Region')!;
    assert.deepEqual(listed.json.reportingWorkspace, { id: sales.groupId, source: 'tenant-default' });
    const def = await api('GET', `/api/items/paginated-report/${sales.id}/definition?workspaceId=${ws}`, undefined, lee.auth);
    // The same report with one more parameter: no default and not nullable, so the user must give it.
    const definition = (def.json.definition as string).replace(
      '<ReportParameters>',
      '<ReportParameters><ReportParameter Name="MinSales"><DataType>Integer</DataType><Prompt>Minimum sales</Prompt></ReportParameter>',
    );
    const made = await api('POST', `/api/items/paginated-report?workspaceId=${ws}`, { name: 'Sales over a minimum', definition }, lee.auth);
    assert.equal(made.status, 201, JSON.stringify(made.json));

    const exports: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/exports(\?|$)/.test(r.url())) exports.push(r.url());
    });
    await page.goto(`/reports?workspace=${ws}&report=${made.json.report.id}`);
    const note = page.getByTestId('reporting-workspace');
    await note.getByText(/has no platform binding, so its reports live in the tenant’s default reporting workspace/).waitFor();
    assert.ok((await note.innerText()).includes(sales.groupId));
    await page
      .getByTestId('report-metadata')
      .getByText(/the tenant’s default: this workspace has no platform binding/)
      .waitFor();

    await page.getByRole('tab', { name: 'Parameters and export' }).click();
    const min = page.getByRole('spinbutton', { name: /Minimum sales/ });
    await min.waitFor();
    assert.equal(await min.evaluate((el) => (el as HTMLInputElement).required), true, 'marked required');
    assert.equal(await page.getByRole('group', { name: 'Region' }).count(), 1);
    await page.getByText('Parameters marked * have no default value and must be set.').waitFor();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByText('Minimum sales is required: the parameter has no default value').waitFor();
    await rig.shot('lists-08a-export-required-parameter-refused');
    assert.equal(await min.getAttribute('aria-invalid'), 'true');

    await min.fill('100');
    await page.getByRole('spinbutton', { name: 'From page' }).fill('5');
    await page.getByRole('spinbutton', { name: 'To page' }).fill('2');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByText('The first page (5) comes after the last page (2)').waitFor();
    assert.equal(await page.getByRole('spinbutton', { name: 'From page' }).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByText('Minimum sales is required').count(), 0, 'the given value took back its refusal');
    await rig.shot('lists-08b-export-page-range-refused');
    assert.deepEqual(exports, [], 'nothing was sent while the form was refused');

    await page.getByRole('spinbutton', { name: 'From page' }).fill('1');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByTestId('export-progress').waitFor();
    assert.equal(exports.length, 1, 'a corrected form is sent');
  });
});
