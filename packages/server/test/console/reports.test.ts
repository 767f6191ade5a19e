// The paginated report editor in Chromium against the service and the sandbox's reporting emulator:
// pick a workspace, the tree, refresh, metadata, the RDL (an invalid one refused, an edit published), parameters, a PDF export downloaded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';
import { editorText } from './code-editor.js';

describe('the paginated report editor in Chromium', { timeout: 300_000 }, () => {
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

  before(async () => {
    rig = await startRig();
    assert.ok(rig.sandbox, 'the editor is tested against the sandbox reporting emulator');
    const ws = await api('POST', '/api/workspaces', { name: 'Regional reporting' });
    workspaceId = ws.json.workspace.id;
    await api('POST', '/api/workspaces', { name: 'Another workspace' });
    const { page } = rig;
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'API token' }).fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  test('pick a workspace, see the tree of paginated reports only, refresh, open the metadata', async () => {
    const { page } = rig;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Paginated reports' }).click();
    await page.getByRole('heading', { name: 'Paginated reports' }).waitFor();
    await page.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'Regional reporting' });
    await page.waitForURL(new RegExp(`workspace=${workspaceId}`));
    const tree = page.getByRole('tree', { name: 'Paginated reports' });
    await tree.getByText('Sales by Region').waitFor();
    assert.equal(await tree.getByText('Executive Overview').count(), 0, 'the Power BI report is not listed');
    const listed = (await api('GET', `/api/items/paginated-report?workspaceId=${workspaceId}`)).json.reports as Array<{
      name: string;
      id: string;
    }>;
    assert.equal(await page.getByTestId('report-leaf').count(), listed.length);
    await rig.shot('reports-01-tree');

    // A report published behind the editor's back appears after Refresh.
    const sales = listed.find((r) => r.name === 'Sales by Region')!;
    const def = await api('GET', `/api/items/paginated-report/${sales.id}/definition?workspaceId=${workspaceId}`);
    assert.equal(
      (
        await api('POST', `/api/items/paginated-report?workspaceId=${workspaceId}`, {
          name: 'Sales (published elsewhere)',
          definition: def.json.definition,
        })
      ).status,
      201,
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await tree.getByText('Sales (published elsewhere)').waitFor();

    await tree.getByText('Sales by Region').click();
    const meta = page.getByTestId('report-metadata');
    await meta.getByText('PaginatedReport').waitFor();
    await meta.getByText(sales.id, { exact: true }).waitFor();
    const link = page.getByRole('link', { name: 'Open in the reporting service' });
    assert.match(String(await link.getAttribute('href')), new RegExp(`/rdlreports/${sales.id}$`));
    await rig.shot('reports-02-metadata');
  });

  test('view the RDL, an invalid edit is refused naming the line, a valid edit is published', async () => {
    const { page } = rig;
    await page.getByRole('tab', { name: 'Definition (RDL)' }).click();
    const source = page.getByLabel('RDL source');
    await source.waitFor();
    const original = await editorText(source);
    assert.match(original, /<Report [^>]*xmlns="http:\/\/schemas\.microsoft\.com\/sqlserver\/reporting\/2016\/01\/reportdefinition"/);
    await rig.shot('reports-03-definition');

    await source.fill(original.replace('<DataType>DateTime</DataType>', '<DataType>Date</DataType>'));
    await page.getByRole('button', { name: 'Publish' }).click();
    const invalid = page.getByTestId('definition-invalid');
    await invalid.getByText(/line \d+, <DataType>: DataType 'Date' is not one of/i).waitFor();
    await rig.shot('reports-04-definition-invalid');

    const edited = original.replace('Sales by region and city for a date range.', 'Sales by region, edited in the console.');
    await source.fill(edited);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('definition-state').getByText('Published').waitFor({ timeout: 30_000 });
    await rig.shot('reports-05-definition-published');
    const reports = (await api('GET', `/api/items/paginated-report?workspaceId=${workspaceId}`)).json.reports as Array<{
      name: string;
      id: string;
    }>;
    const sales = reports.find((r) => r.name === 'Sales by Region')!;
    const after = await api('GET', `/api/items/paginated-report/${sales.id}/definition?workspaceId=${workspaceId}`);
    assert.match(after.json.definition, /Sales by region, edited in the console\./);
  });

  test('set parameters, export a PDF with progress, and download it', async () => {
    const { page } = rig;
    await page.getByRole('tab', { name: 'Parameters and export' }).click();
    const region = page.getByRole('group', { name: 'Region' });
    await region.getByRole('checkbox', { name: 'West' }).waitFor();
    assert.equal(await region.getByRole('checkbox', { name: 'West' }).isChecked(), true, 'defaults come from the RDL');
    await region.getByRole('checkbox', { name: 'East' }).uncheck();
    await region.getByRole('checkbox', { name: 'Central' }).check();
    await page.getByRole('combobox', { name: 'Export format' }).selectOption('PDF');
    assert.equal(await region.getByRole('checkbox', { name: 'East' }).isChecked(), false);
    assert.equal(await region.getByRole('checkbox', { name: 'Central' }).isChecked(), true);
    await rig.shot('reports-06-parameters');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByTestId('export-progress').waitFor();
    await rig.shot('reports-07-export-progress');
    const download = page.getByTestId('export-download');
    await download.waitFor({ timeout: 60_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    assert.equal(file.suggestedFilename(), 'Sales by Region.pdf');
    const saved = await file.path();
    const bytes = fs.readFileSync(saved!);
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = bytes.toString('latin1');
    assert.match(text, /Chicago/, 'Central rows are in the PDF');
    assert.doesNotMatch(text, /Boston/, 'East rows are filtered out by the Region parameter');
    await page.getByTitle('Report preview').waitFor();
    await rig.shot('reports-08-export-done');

    // A paged preview as an image: page 1 as PNG, shown in the page.
    await page.getByRole('combobox', { name: 'Export format' }).selectOption('IMAGE');
    await page.getByRole('combobox', { name: 'Image type' }).selectOption('PNG');
    await page.getByRole('spinbutton', { name: 'From page' }).fill('1');
    await page.getByRole('spinbutton', { name: 'To page' }).fill('1');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const img = page.getByRole('img', { name: 'Report preview' });
    await img.waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      () => ((document.querySelector('img[alt="Report preview"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    assert.ok(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth > 100), 'the PNG decodes in the browser');
    await img.scrollIntoViewIfNeeded();
    await rig.shot('reports-08b-image-preview');
  });

  test('data sources: a rebind the reporting service refuses shows its text; clone, then delete with confirmation', async () => {
    const { page } = rig;
    const tree = page.getByRole('tree', { name: 'Paginated reports' });
    await tree.getByText('Customer List').click();
    await page.getByRole('tab', { name: 'Data sources' }).click();
    const source = page.getByTestId('datasource');
    await source.getByText(/CustomersModel/).waitFor();
    await source.getByRole('textbox', { name: 'Database' }).fill('sobe_wowvirtualserver-00000000-0000-4000-8000-000000000001');
    await source.getByRole('button', { name: 'Rebind' }).click();
    await source.getByText('The reporting service refused the rebind').waitFor();
    await source.getByText(/NotDatasourceOwner/).waitFor();
    await rig.shot('reports-09-rebind-refused');

    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Clone' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name of the copy' }).fill('Customer List (draft)');
    await dialog.getByRole('button', { name: 'Clone' }).click();
    await tree.getByText('Customer List (draft)').waitFor();
    await page.getByTestId('report-metadata').getByText('Customer List (draft)', { exact: true }).waitFor();
    await rig.shot('reports-10-cloned');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('This cannot be undone').waitFor();
    await rig.shot('reports-11-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Choose a report in the tree').waitFor();
    assert.equal(await tree.getByText('Customer List (draft)').count(), 0);
    const names = (
      (await api('GET', `/api/items/paginated-report?workspaceId=${workspaceId}`)).json.reports as Array<{ name: string }>
    ).map((r) => r.name);
    assert.ok(!names.includes('Customer List (draft)'), 'deleted in the reporting service');
  });

  test('create a formatted-table report from a semantic model table of the workspace and publish it', async () => {
    const { page } = rig;
    // The casino app's semantic model, provisioned live, gives the workspace a model with tables.
    const start = await api('POST', '/api/apps/app-casino-analytics/install', { workspaceId });
    assert.equal(start.status, 202);
    for (let i = 0; ; i++) {
      const job = (await api('GET', `/api/apps/install-jobs/${start.json.jobId}`)).json.job;
      if (job.status !== 'running') break;
      assert.ok(i < 600, 'install finished');
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.getByRole('button', { name: 'New table report' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Semantic model' }).selectOption({ label: 'Casino Floor Model' });
    await dialog.getByRole('combobox', { name: 'Table' }).selectOption('Machines');
    await dialog.getByRole('checkbox', { name: 'manufacturer' }).uncheck();
    await dialog.getByRole('textbox', { name: 'Report name' }).fill('Machines by zone');
    await rig.shot('reports-12-new-table-report');
    await dialog.getByRole('button', { name: 'Create and publish' }).click();
    await page.getByTestId('report-metadata').getByText('Machines by zone', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('tree', { name: 'Paginated reports' }).getByText('Machines by zone').waitFor();
    await rig.shot('reports-13-new-report-published');
    const reports = (await api('GET', `/api/items/paginated-report?workspaceId=${workspaceId}`)).json.reports as Array<{
      name: string;
      id: string;
    }>;
    const created = reports.find((r) => r.name === 'Machines by zone')!;
    const model = (await api('GET', `/api/workspaces/${workspaceId}/items?itemType=semantic-model`)).json.items[0];
    const def = (await api('GET', `/api/items/paginated-report/${created.id}/definition?workspaceId=${workspaceId}`)).json
      .definition as string;
    assert.match(def, new RegExp(`sobe_wowvirtualserver-${model.provisioning.resourceId}`));
    assert.match(def, /Machines\[floor_zone\]/);
    assert.doesNotMatch(def, /manufacturer/);
  });
});
