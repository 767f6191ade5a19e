import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRig, type ConsoleRig } from './browser.js';

describe('item types in the console (Chromium): icons and editors as the service’s registry names them', { timeout: 180_000 }, () => {
  let rig: ConsoleRig;
  before(async () => {
    rig = await startRig();
  });
  after(async () => {
    await rig?.close();
  });

  test('each item shows the icon its type names, and opens in the editor its type names', async () => {
    const { page, h, tenant } = rig;
    const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (await h.app.inject({ method, url, headers: tenant.auth, ...(payload ? { payload } : {}) })).json();
    const types = (await api('GET', '/api/item-types')).itemTypes as Array<{ id: string; icon: string; editor: string }>;
    const ws = (await api('POST', '/api/workspaces', { name: 'Item types' })).workspace.id as string;
    const made = ['kql-database', 'lakehouse', 'warehouse', 'data-agent'];
    for (const itemType of made) await api('POST', `/api/workspaces/${ws}/items`, { itemType, displayName: `A ${itemType}` });

    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
    await page.goto(`/workspaces/${ws}`);
    for (const itemType of made) {
      const icon = page
        .getByTestId('item-row')
        .filter({ hasText: `A ${itemType}` })
        .locator('[data-icon]');
      await icon.waitFor();
      assert.equal(await icon.getAttribute('data-icon'), types.find((t) => t.id === itemType)!.icon, itemType);
    }
    await rig.shot('item-types-01-icons');

    const tabsOf = async (itemType: string) => {
      await page.goto(`/workspaces/${ws}`);
      await page.getByRole('link', { name: `A ${itemType}` }).click();
      await page.getByRole('tab', { name: 'JSON' }).waitFor();
      const tabs = page.getByRole('tab');
      const names = await tabs.allInnerTexts();
      const selected = await page.getByRole('tab', { selected: true }).innerText();
      return { names, selected };
    };
    assert.equal(types.find((t) => t.id === 'kql-database')!.editor, 'kql-schema');
    assert.deepEqual(await tabsOf('kql-database'), { names: ['Schema', 'JSON'], selected: 'Schema' });
    assert.deepEqual(await tabsOf('warehouse'), { names: ['SQL', 'JSON'], selected: 'SQL' });
    await rig.shot('item-types-02-sql-editor');
    assert.deepEqual(await tabsOf('lakehouse'), { names: ['JSON'], selected: 'JSON' });
  });
});
