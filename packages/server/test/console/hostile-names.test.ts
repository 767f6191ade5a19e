import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';

// Markup in a display name is text: the console shows it as typed and none of it runs.
const PAYLOAD = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

describe('hostile display names in the console (Chromium)', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;
  const dialogs: string[] = [];

  before(async () => {
    rig = await startRig();
    rig.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await rig.h.app.inject({ method, url, headers: rig.tenant.auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };
  const executed = () => rig.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);

  test('a workspace and an item named with markup render as text; nothing executes', async () => {
    const { page } = rig;
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);

    // The workspace is created through the console's own dialog, typed as a person would.
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(PAYLOAD);
    await dialog.getByLabel('Description').fill(PAYLOAD);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/workspaces\/[^/]+$/);
    const workspaceId = new URL(page.url()).pathname.split('/')[2]!;
    const stored = await api('GET', `/api/workspaces/${workspaceId}`);
    assert.equal(stored.json.workspace.name, PAYLOAD, 'stored exactly as typed');

    const item = await api('POST', `/api/workspaces/${workspaceId}/items`, {
      itemType: 'notebook',
      displayName: PAYLOAD,
      description: PAYLOAD,
    });
    assert.equal(item.status, 201);
    const lakehouse = await api('POST', `/api/workspaces/${workspaceId}/items`, { itemType: 'lakehouse', displayName: `${PAYLOAD} lake` });
    const edge = await api('POST', `/api/workspaces/${workspaceId}/thread/edges`, {
      fromItemId: lakehouse.json.item.id,
      toItemId: item.json.item.id,
      kind: 'feeds',
    });
    assert.equal(edge.status, 201);

    const pages = [
      ['workspaces list', '/workspaces'],
      ['workspace', `/workspaces/${workspaceId}`],
      ['item', `/workspaces/${workspaceId}/items/${item.json.item.id}`],
      ['thread', `/workspaces/${workspaceId}/thread`],
    ] as const;
    for (const [label, url] of pages) {
      await page.goto(url);
      await page.getByText(PAYLOAD, { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await executed(), undefined, `markup executed on the ${label} page`);
      // No element came from the name: the only <img> or <script> with these attributes would be the injected one.
      assert.equal(await page.locator('img[src="x"]').count(), 0, `an <img> from the name on the ${label} page`);
      assert.equal(await page.locator('script:text("window.__xss")').count(), 0, `a <script> from the name on the ${label} page`);
      await rig.shot(`30-hostile-name-${label.replace(/\s+/g, '-')}`);
    }
    assert.deepEqual(dialogs, []);
  });
});
