// Workspace access in the console, in Chromium against the real service and the sandbox: a Viewer is offered no change,
// a Member adds a Contributor through Manage access who then installs an app, removing the last Admin is refused with
// the service's message, and the Audit page lists the test's role assignment for a tenant admin only. Each user signs
// in with a token of their own in a browser profile of their own; a screenshot at each stage.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { TENANT_SCOPES } from '../../src/auth/scopes.js';
import { DEFAULT_TENANT, ensureTenant } from '../../src/auth/token-service.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { startRig, type ConsoleRig } from './browser.js';

const APP = 'app-lakehouse-inspector';
const APP_NAME = loadCatalog().get(APP)!.displayName;
const JOB_TIMEOUT = 90_000;
const USER_SCOPES = ['read', 'write', 'install', 'reports', 'tokens'] as const;

interface User {
  userId: string;
  name: string;
  auth: { authorization: string };
  page: Page;
}

describe('workspace access in the console (Chromium)', { timeout: 600_000 }, () => {
  let rig: ConsoleRig;
  let ws: string;
  let notebookId: string;

  before(async () => {
    rig = await startRig();
    const { page } = rig;
    await signIn(page, rig.tenant.token);
  });
  after(async () => {
    await rig?.close();
  });

  const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, auth = rig.tenant.auth) => {
    const r = await rig.h.app.inject({ method, url, headers: auth, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, json: r.json() };
  };
  const signIn = async (page: Page, token: string) => {
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  };
  /** A second user of the rig's tenant (no tenant admin), signed in with a token of its own in a browser profile of its own. */
  const user = async (name: string): Promise<User> => {
    const userId = randomUUID();
    await rig.h.store.db
      .insertInto('users')
      .values({
        id: userId,
        tenant_id: rig.tenant.tenantId,
        display_name: name,
        email: `${name.split(' ')[0]!.toLowerCase()}@example.test`,
        oidc_subject: null,
        is_admin: false,
      })
      .execute();
    const caller = { tenantId: rig.tenant.tenantId, userId, userName: name, method: 'token' as const, scopes: [...USER_SCOPES] };
    const { secret } = await rig.h.services.tokens.issue(caller, { name: `${name}'s token`, scopes: [...USER_SCOPES] });
    const page = await (await rig.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, secret);
    return { userId, name, auth: { authorization: `Bearer ${secret}` }, page };
  };
  const assign = async (userId: string, role: string) => {
    const r = await api('POST', `/api/workspaces/${ws}/role-assignments`, { principal: { type: 'User', id: userId }, role });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    return r.json.roleAssignment;
  };
  /** Waits for the page's running animations (the drawer sliding in) to end, so a screenshot shows the settled page. */
  const settled = (page: Page) =>
    page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
  const assignments = async () => (await api('GET', `/api/workspaces/${ws}/role-assignments`)).json.roleAssignments as any[];

  test('a Viewer is offered no change: New item, Install, Save and Delete are disabled with the reason, the editor is read only', async () => {
    const created = await api('POST', '/api/workspaces', { name: 'Access walk' });
    assert.equal(created.status, 201);
    ws = created.json.workspace.id;
    assert.equal(created.json.workspace.role, 'Admin', 'the creator is the Admin');
    const nb = await api('POST', `/api/workspaces/${ws}/items`, {
      itemType: 'notebook',
      displayName: 'Team notes',
      content: { language: 'python', cells: [{ kind: 'code', source: 'print("hello")' }] },
    });
    assert.equal(nb.status, 201, JSON.stringify(nb.json));
    notebookId = nb.json.item.id;
    const vera = await user('Vera Viewer');
    await assign(vera.userId, 'Viewer');
    const { page } = vera;

    await page.goto('/workspaces');
    const row = page.getByRole('row').filter({ hasText: 'Access walk' });
    assert.equal(await row.getByTestId('role-badge').innerText(), 'Viewer');
    await rig.shot('access-01-viewer-workspaces', page);

    await page.goto(`/workspaces/${ws}`);
    await page.getByTestId('role-note').waitFor();
    assert.match(await page.getByTestId('role-note').innerText(), /Your role: Viewer[\s\S]*need the Contributor role/);
    const newItem = page.getByRole('button', { name: 'New item' });
    assert.ok(await newItem.isDisabled(), 'New item is not offered');
    assert.match((await newItem.getAttribute('title')) ?? '', /Viewers cannot create items/);
    const install = page.getByRole('button', { name: 'Install an app' });
    assert.ok(await install.isDisabled(), 'Install is not offered');
    assert.match((await install.getAttribute('title')) ?? '', /Viewers cannot install apps/);
    assert.ok(await page.getByRole('button', { name: 'Check for drift' }).isDisabled());
    await page.getByRole('button', { name: 'Workspace actions' }).click();
    for (const name of [/^Rename/, /^Delete/]) assert.ok(await page.getByRole('menuitem', { name }).isDisabled());
    await rig.shot('access-02-viewer-workspace', page);
    await page.keyboard.press('Escape');

    await page.goto(`/workspaces/${ws}/items/${notebookId}`);
    await page.getByTestId('read-only-note').waitFor();
    assert.match(await page.getByTestId('read-only-note').innerText(), /Viewers cannot edit items/);
    assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).count(), 0, 'no Save');
    assert.equal(await page.getByRole('button', { name: /apply/i }).count(), 0, 'no Apply');
    assert.ok(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled(), 'Delete is not offered');
    assert.ok(!(await page.getByLabel('Cell 1 source').isEditable()), 'the editor is read only');
    await rig.shot('access-03-viewer-item', page);

    // The catalog offers no install to someone who may install nowhere.
    await page.goto('/apps');
    const installApp = page.getByRole('button', { name: `Install ${APP_NAME}` });
    // Disabled while the workspaces load too: wait for the reason that says why once they have.
    await page.locator(`[data-app="${APP}"] button[title*="None of your workspaces"]`).waitFor();
    assert.ok(await installApp.isDisabled());
    assert.match((await installApp.getAttribute('title')) ?? '', /needs the Contributor role/);
    await page.context().close();
  });

  test('a Member adds a Contributor in Manage access; the Contributor installs an app from the console and it finishes', async () => {
    const mel = await user('Mel Member');
    const cory = await user('Cory Contributor');
    await assign(mel.userId, 'Member');
    const { page } = mel;
    await page.goto(`/workspaces/${ws}`);
    await page.getByRole('button', { name: 'Manage access' }).click();
    const panel = page.getByRole('dialog', { name: 'Manage access' });
    await panel.getByTestId('my-role').waitFor();
    assert.match(await panel.getByTestId('my-role').innerText(), /Your role: Member, assigned to you/);
    await panel.getByTestId('role-assignment').first().waitFor();
    // A Member grants Contributor and Viewer only, and cannot touch the Admin.
    const roles = await panel.getByLabel('Role', { exact: true }).locator('option').allInnerTexts();
    assert.deepEqual(roles, ['Contributor', 'Viewer']);
    assert.equal(await panel.getByRole('button', { name: /Remove the Admin role/ }).count(), 0);

    await panel.getByRole('combobox', { name: 'User or group' }).fill('Cory');
    await page.getByRole('option', { name: /Cory Contributor/ }).click();
    await panel.getByLabel('Role', { exact: true }).selectOption('Contributor');
    await settled(page);
    await rig.shot('access-04-member-adds', page);
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    const coryRow = panel.locator(`[data-testid="role-assignment"][data-principal="${cory.userId}"]`);
    await coryRow.waitFor();
    assert.equal(await coryRow.getByRole('combobox').inputValue(), 'Contributor');
    const stored = (await assignments()).find((a) => a.principal.id === cory.userId);
    assert.equal(stored?.role, 'Contributor');
    await rig.shot('access-05-contributor-added', page);
    await page.context().close();

    const c = cory.page;
    await c.goto(`/workspaces/${ws}`);
    // The actions are disabled until the workspace (and so the caller's role) has loaded.
    await c.getByTestId('role-note').filter({ hasText: 'Contributor' }).waitFor();
    assert.ok(await c.getByRole('button', { name: 'New item' }).isEnabled(), 'a Contributor creates items');
    assert.ok(await c.getByRole('button', { name: 'Install an app' }).isEnabled());
    await c.getByRole('button', { name: 'Install an app' }).click();
    await c.waitForURL(/\/apps\?workspaceId=/);
    await c
      .locator(`[data-app="${APP}"]`)
      .getByRole('button', { name: `Install ${APP_NAME}` })
      .click();
    const dialog = c.getByRole('dialog');
    assert.equal(await dialog.getByRole('combobox', { name: /^Workspace/ }).inputValue(), ws);
    await dialog.getByTestId('plan-summary').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await dialog.getByTestId('job-progress').waitFor();
    const [job] = (await api('GET', `/api/apps/install-jobs?workspaceId=${ws}`)).json.jobs;
    for (const deadline = Date.now() + JOB_TIMEOUT; ; await new Promise((r) => setTimeout(r, 250))) {
      const j = (await api('GET', `/api/apps/install-jobs/${job.id}`)).json.job;
      if (j.status !== 'running') {
        assert.equal(j.status, 'done', JSON.stringify(j.provision));
        break;
      }
      assert.ok(Date.now() < deadline, 'the install finished');
    }
    await dialog.locator('[data-testid="job-progress"][data-job-status="done"]').waitFor({ timeout: 15_000 });
    await rig.shot('access-06-contributor-installed', c);
    await c.context().close();
  });

  test('removing the last Admin is refused: the message is shown and the assignment is still listed', async () => {
    const { page } = rig;
    await page.goto(`/workspaces/${ws}`);
    await page.getByRole('button', { name: 'Manage access' }).click();
    const panel = page.getByRole('dialog', { name: 'Manage access' });
    const admin = panel.locator(`[data-testid="role-assignment"][data-principal="${rig.tenant.userId}"]`);
    await admin.waitFor();
    await admin.getByRole('button', { name: /Remove the Admin role/ }).click();
    await admin.getByRole('button', { name: /^Remove / }).click();
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /last_admin/);
    await admin.waitFor();
    assert.equal(await admin.getByRole('combobox').inputValue(), 'Admin');
    assert.ok(
      (await assignments()).some((a) => a.principal.id === rig.tenant.userId && a.role === 'Admin'),
      'the Admin assignment is kept',
    );
    await settled(page);
    await rig.shot('access-07-last-admin-refused');
    await page.keyboard.press('Escape');
  });

  test('the Audit page lists the role assignments of this test for a tenant admin, and is absent for everyone else', async () => {
    const { page } = rig;
    await page.goto('/workspaces');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL(/\/audit$/);
    // The workspaces page can stay drawn while the Audit page's code loads: its search box is labelled too.
    await page.getByRole('combobox', { name: 'Workspace' }).selectOption(ws);
    await page.getByLabel('Kind').selectOption('role-assignment.created');
    const rows = page.getByTestId('audit-event');
    await rows.first().waitFor();
    // Viewer and Member (by the admin), and Contributor (by the Member, its actor), each naming its principal.
    assert.ok((await rows.count()) >= 3);
    const text = await page.getByRole('table', { name: 'Audit events' }).innerText();
    for (const name of ['Vera Viewer', 'Mel Member', 'Cory Contributor']) assert.match(text, new RegExp(`role-assignment: ${name}`));
    assert.ok((await rows.filter({ hasText: 'Cory Contributor' }).innerText()).includes('Mel Member'), 'the Member is the actor');
    assert.match(text, /succeeded · 201/);
    await rig.shot('access-08-audit');
    // Choosing an actor in the table filters by it: only the Member's own change is left.
    await page.getByRole('table', { name: 'Audit events' }).getByRole('button', { name: 'Mel Member' }).click();
    await rows.filter({ hasText: 'Vera Viewer' }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), /Cory Contributor/);

    const other = await user('Nora Nonadmin');
    await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspaces' }).waitFor();
    assert.equal(await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).count(), 0);
    assert.equal((await api('GET', '/api/audit-events', undefined, other.auth)).status, 403);
    await other.page.context().close();
  });

  test('a role held through a group: the user signed in with the identity provider sees it and the group it comes through', async () => {
    // The sandbox directory's sign-ins land in the default tenant: its admin creates a workspace and gives a group a role.
    const { userId } = await ensureTenant(rig.h.store.db, DEFAULT_TENANT, 'Default tenant', { displayName: 'Default Admin' });
    const admin = { tenantId: DEFAULT_TENANT, userId, userName: 'Default Admin', method: 'token' as const, scopes: [...TENANT_SCOPES] };
    const auth = {
      authorization: `Bearer ${(await rig.h.services.tokens.issue(admin, { name: 'admin', scopes: [...TENANT_SCOPES] })).secret}`,
    };
    // Workspace names are unique per tenant, and the default tenant outlives a run on a shared PostgreSQL store.
    const groupWs = (await api('POST', '/api/workspaces', { name: `Analysts corner ${randomUUID().slice(0, 8)}` }, auth)).json.workspace.id;
    const analysts = rig.sandbox.ids.groups.find((g) => g.name === 'analysts')!.objectId;
    const r = await api(
      'POST',
      `/api/workspaces/${groupWs}/role-assignments`,
      { principal: { type: 'Group', id: analysts }, role: 'Contributor' },
      auth,
    );
    assert.equal(r.status, 201, JSON.stringify(r.json));

    const page = await (await rig.newContext()).newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: /^Sign in with/ }).click();
    await page.getByRole('button', { name: /Ari Analyst/ }).click();
    await page.waitForURL(`${rig.baseUrl}/workspaces`);
    const row = page.getByRole('row').filter({ hasText: 'Analysts corner' });
    assert.equal(await row.getByTestId('role-badge').innerText(), 'Contributor');
    assert.match(await row.getByTestId('workspace-role').innerText(), /via group/);
    await page.goto(`/workspaces/${groupWs}`);
    assert.match(await page.getByTestId('role-note').innerText(), /Your role: Contributor through a group/);
    await page.getByRole('button', { name: 'Manage access' }).click();
    const panel = page.getByRole('dialog', { name: 'Manage access' });
    await panel.getByTestId('role-assignment').first().waitFor();
    assert.match(await panel.getByTestId('my-role').innerText(), new RegExp(`Contributor, through group ${analysts}`));
    assert.equal(await panel.getByRole('button', { name: 'Add' }).count(), 0, 'a Contributor does not manage access');
    await settled(page);
    await rig.shot('access-09-group-role', page);
    await page.context().close();
  });
});
