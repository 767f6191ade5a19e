// The report designer in Chromium against the service and the sandbox's reporting emulator: a grouped matrix built
// from scratch over the catalog's semantic model (fields dragged, a row group total, a multi-value parameter with a
// default expression), run, published and exported to PDF; each catalog report changed, published and reloaded; the
// round trip (each opens and saves unchanged; an .rdl edited elsewhere comes back byte for byte).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';
import { editorText, setEditorText } from './code-editor.js';

/** The text strings a PDF draws (its Tj operands), in order. */
const pdfText = (bytes: Buffer) =>
  [...bytes.toString('latin1').matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));

describe('the report designer in Chromium', { timeout: 900_000 }, () => {
  let rig: ConsoleRig;
  let workspaceId = '';

  const api = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await rig.h.app.inject({
      method,
      url,
      headers: { ...rig.tenant.auth, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: r.statusCode, json: r.json() };
  };
  const reports = async () =>
    (await api('GET', `/api/items/paginated-report?workspaceId=${workspaceId}`)).json.reports as Array<{ id: string; name: string }>;
  const definition = async (id: string) =>
    (await api('GET', `/api/items/paginated-report/${id}/definition?workspaceId=${workspaceId}`)).json.definition as string;

  before(async () => {
    // The semantic model as a dataset of the reporting service carries the lakehouse's seed rows, so the run shows data.
    rig = await startRig({ env: { SVC_BACKEND_SEMANTIC_MODEL: 'reporting', SVC_REPORT_EFFECTIVE_USERNAME: 'reports@contoso.example' } });
    workspaceId = (await api('POST', '/api/workspaces', { name: 'Floor reporting' })).json.workspace.id;
    const start = await api('POST', '/api/apps/app-casino-analytics/install', { workspaceId });
    assert.equal(start.status, 202);
    for (let i = 0; ; i++) {
      const job = (await api('GET', `/api/apps/install-jobs/${start.json.jobId}`)).json.job;
      if (job.status !== 'running') break;
      assert.ok(i < 900, 'install finished');
      await new Promise((r) => setTimeout(r, 200));
    }
    const { page } = rig;
    page.setDefaultTimeout(30_000);
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'API token' }).fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  test('a grouped matrix from scratch over the catalog model: dragged fields, a row group total, a multi-value parameter; run, publish, export to PDF', async () => {
    const { page } = rig;
    await page.goto(`/reports?workspace=${workspaceId}`);
    await page.getByRole('link', { name: 'New report in the designer' }).click();
    await page.getByRole('textbox', { name: 'Report name' }).fill('Coin in by zone');
    await page.getByRole('button', { name: 'Create' }).click();
    const surface = page.getByTestId('design-surface');
    await surface.waitFor();
    await rig.shot('designer-01-blank');

    await page.getByRole('tab', { name: 'Insert' }).click();
    await page.getByRole('button', { name: 'Matrix', exact: true }).click();
    await surface.locator('[data-role="rowHeader"]').waitFor();
    await page.getByRole('combobox', { name: 'Semantic model' }).selectOption({ label: 'Casino Floor Model' });
    const column = (name: string) => page.getByTestId('model-browser').locator(`[data-column="Machine KPIs.${name}"]`);
    await column('floor_zone').dragTo(surface.locator('[data-role="rowHeader"]'));
    await surface.locator('[data-role="rowHeader"]', { hasText: '[floor_zone]' }).waitFor();
    await column('machine_id').dragTo(surface.locator('[data-role="colHeader"]'));
    await surface.locator('[data-role="colHeader"]', { hasText: '[machine_id]' }).waitFor();
    await column('coin_in').dragTo(surface.locator('[data-role="body"]'));
    await surface.locator('[data-role="body"]', { hasText: '[Sum(coin_in)]' }).waitFor();

    // The row group gets a total: a "Total" row header and a body row summing each column.
    await surface.locator('[data-role="body"]').first().click();
    const grouping = page.getByTestId('grouping');
    await grouping.getByRole('button', { name: 'Actions of floor_zone' }).click();
    await page.getByRole('menuitem', { name: 'Add total' }).click();
    await surface.locator('[data-role="rowHeader"]', { hasText: 'Total' }).waitFor();
    await rig.shot('designer-02-matrix-grouped');

    // The expression editor checks as it is typed: a field the data set lacks is named, then a good one passes.
    await page.getByTestId('properties').getByRole('button', { name: 'Edit the expression of Value' }).click();
    let dialog = page.getByRole('dialog');
    const expression = dialog.getByLabel('Expression', { exact: true });
    await setEditorText(expression, '=Sum(Fields!coin.Value)');
    await dialog
      .getByTestId('expression-check')
      .getByText(/Fields!coin: no field of that name/)
      .waitFor();
    await rig.shot('designer-03-expression-editor');
    await setEditorText(expression, '=Sum(Fields!coin_in.Value)');
    await dialog.getByTestId('expression-check').getByText('The expression checks out.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A multi-value parameter whose default is an expression, and the data set filtered by it.
    await page.getByRole('button', { name: 'Add parameter' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Zones');
    await dialog.getByRole('textbox', { name: 'Prompt' }).fill('Floor zones');
    await dialog.getByRole('checkbox', { name: 'Allow multiple values' }).check();
    await dialog.getByRole('radio', { name: 'Specify values' }).first().check();
    await dialog.getByRole('textbox', { name: 'Default value 1' }).fill('=Split("Main Floor,High Limit", ",")');
    await dialog.getByRole('textbox', { name: 'Default value 1' }).press('Enter');
    await rig.shot('designer-04-parameter');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('parameters-pane').getByText('Zones').waitFor();

    await page.getByRole('button', { name: 'Edit data set Machine_KPIs' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add a filter' }).click();
    await dialog.getByRole('textbox', { name: 'Filter 1 expression' }).fill('=Fields!floor_zone.Value');
    await dialog.getByRole('combobox', { name: 'Filter 1 operator' }).selectOption('In');
    await dialog.getByRole('textbox', { name: 'Filter 1 value' }).fill('=Parameters!Zones.Value');
    await dialog.getByRole('textbox', { name: 'Filter 1 value' }).press('Enter');
    await dialog.getByRole('button', { name: 'OK' }).click();

    // Run: the draft rendered by the reporting service, with the prompts.
    await page.getByRole('tab', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).first().click();
    await page.getByRole('group', { name: 'Parameter prompts' }).getByText('Floor zones').waitFor();
    const img = page.getByRole('img', { name: 'Report preview' });
    await img.waitFor({ timeout: 90_000 });
    await page.waitForFunction(
      () => ((document.querySelector('img[alt="Report preview"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    // The Run button keeps the focus (and its tooltip) after the click: the shot is of the page, not the tooltip.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(0, 0);
    await rig.shot('designer-05-run');

    // Publish (a new report: the import call), then the published report opens in the designer.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/report=/, { timeout: 60_000 });
    const created = (await reports()).find((r) => r.name === 'Coin in by zone');
    assert.ok(created, 'published to the reporting service');
    const rdl = await definition(created.id);
    assert.match(rdl, /<MultiValue>true<\/MultiValue>/);
    assert.match(rdl, /=Split\("Main Floor,High Limit", ","\)/);
    assert.match(rdl, /<GroupExpression>=Fields!floor_zone.Value<\/GroupExpression>/);

    // Export the published report to PDF and read its text.
    await page.getByRole('button', { name: 'Export' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Export format' }).selectOption('PDF');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const link = dialog.getByTestId('export-download');
    await link.waitFor({ timeout: 90_000 });
    await rig.shot('designer-06-export');
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const text = pdfText(fs.readFileSync((await file.path())!)).join(' | ');
    assert.match(
      text,
      /SM-1001 \| SM-1002 \| SM-2001 \| SM-2002 \| High Limit \| 93026 \| 22774 \| Main Floor \| 9882\.57 \| 6369 \| Total \| 9882\.57 \| 6369 \| 93026 \| 22774/,
    );
    assert.doesNotMatch(text, /Penny Palace/, 'the default of Zones keeps two zones');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  test('each catalog report: a text box changed on the surface, published with If-Match, reloaded: the change is there and nothing else moved', async () => {
    const { page } = rig;
    const catalog = (await reports()).filter((r) => r.name !== 'Coin in by zone');
    assert.ok(catalog.length >= 4, 'the casino app report and the seeded ones');
    for (const [i, r] of catalog.entries()) {
      const before = await definition(r.id);
      await page.goto(`/reports/design?workspace=${workspaceId}&report=${r.id}`);
      const surface = page.getByTestId('design-surface');
      const box = surface.locator('[data-region="body"] [data-kind="Textbox"]').first();
      // The seeded reports place several text boxes at the body's origin (no Top or Left): picked by keyboard, as anyone can.
      await box.focus();
      await box.press('Enter');
      const name = String(await box.getAttribute('data-item'));
      const value = page.getByTestId('properties').getByRole('textbox', { name: 'Value' });
      const changed = `Changed in the designer (${i + 1})`;
      await value.fill(changed);
      await value.press('Enter');
      await box.getByText(changed).waitFor();
      if (i === 0) await rig.shot('designer-07-catalog-textbox');
      await page.getByRole('tab', { name: 'Home' }).click();
      await page.getByRole('button', { name: 'Publish' }).click();
      await page
        .getByTestId('publish-state')
        .getByText(/^Published/)
        .waitFor({ timeout: 60_000 });
      // Reloaded from the reporting service: the surface shows the change, the definition differs in that one value.
      await page.reload();
      await page.getByTestId('design-surface').locator(`[data-item="${name}"]`).getByText(changed).waitFor();
      const after = await definition(r.id);
      const a = before.split('\n');
      const b = after.split('\n');
      assert.equal(b.length, a.length, `${r.name}: as many lines`);
      const diff = a.flatMap((line, k) => (line === b[k] ? [] : [[line, b[k]]]));
      assert.equal(diff.length, 1, `${r.name}: one line changed: ${JSON.stringify(diff)}`);
      assert.ok(diff[0]![1]!.includes(changed), r.name);
    }
  });

  test('round trip: each report opens and publishes back unchanged; an .rdl edited in Report Builder and uploaded opens and publishes byte for byte', async () => {
    const { page } = rig;
    for (const r of await reports()) {
      const text = await definition(r.id);
      await page.goto(`/reports/design?workspace=${workspaceId}&report=${r.id}`);
      await page.getByTestId('design-surface').waitFor();
      await page.getByRole('tab', { name: 'Source (RDL)' }).click();
      assert.equal(await editorText(page.getByLabel('RDL source')), text, `${r.name}: the source is the definition, unchanged`);
      if (r.name === 'Coin in by zone') await rig.shot('designer-08-source');
    }
    // The hand-off: the .rdl downloads as the draft is; the desktop builder's edit comes back through Upload.
    const floor = (await reports()).find((r) => r.name === 'Daily Floor Performance')!;
    await page.goto(`/reports/design?workspace=${workspaceId}&report=${floor.id}`);
    await page.getByTestId('design-surface').waitFor();
    await page.getByRole('tab', { name: 'Report Builder' }).click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .rdl' }).click()]);
    const downloaded = fs.readFileSync((await file.path())!, 'utf8');
    assert.equal(downloaded, await definition(floor.id));
    assert.equal(file.suggestedFilename(), 'Daily Floor Performance.rdl');
    const link = await page.evaluate(() => document.querySelector('[data-testid="builder-link"]')?.getAttribute('href'));
    assert.match(String(link), /^ms-pbi-builder:\/\/http/);
    // Report Builder rewrites as it likes: CRLF line ends, a comment, a reordered attribute; the designer keeps every byte.
    const edited = downloaded
      .replace(/\n/g, '\r\n')
      .replace('<Author>Casino Analytics</Author>', '<!-- edited in Report Builder --><Author>Casino Analytics (edited)</Author>');
    await page
      .getByTestId('rdl-upload')
      .setInputFiles({ name: 'Daily Floor Performance.rdl', mimeType: 'application/xml', buffer: Buffer.from(edited) });
    await page.getByRole('tab', { name: 'Source (RDL)' }).click();
    await page.getByLabel('RDL source').waitFor();
    assert.equal((await editorText(page.getByLabel('RDL source'))).replace(/\n/g, '\r\n'), edited);
    await page.getByRole('tab', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page
      .getByTestId('publish-state')
      .getByText(/^Published/)
      .waitFor({ timeout: 60_000 });
    assert.equal(await definition(floor.id), edited, 'published byte for byte');
    await rig.shot('designer-09-uploaded');
  });
});
