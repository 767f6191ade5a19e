// Workspaces bound to one platform workspace share the live resources an install finds by name. An item found and then
// deleted before its definition is read and updated (an uninstall in the other workspace, or by hand) is found or created
// again, once, rather than failing the step with the platform's 404.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, follow, install, startInstall, stepOf, workspace } from './install-helpers.js';

const APP = 'app-lakehouse-inspector';

test(
  'an item deleted between its listing and the read of its definition is created again; the install ends done',
  { timeout: 300_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const first = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
    assert.equal(first.status, 'done');
    const notebook = stepOf(first, 'notebook', 'Scan Table Inventory');
    const platformWs = first.provision.target.platformWorkspaceId;

    // The second install's read of the notebook's definition (to compare it) waits in the sandbox; meanwhile another client
    // deletes the notebook.
    const held = await sandbox.admin.addFault({
      service: 'dataPlatform',
      method: 'POST',
      path: `/items/${notebook.result.resourceId}/getDefinition`,
      delayMs: 1500,
      count: 1,
    });
    const { jobId } = await startInstall(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
    for (let i = 0; i < 300 && !(await sandbox.admin.faults()).find((f) => f.id === held.id)?.hits; i++)
      await new Promise((r) => setTimeout(r, 20));
    const token = await sandbox.admin.token({ audience: 'dataPlatform' });
    const gone = await fetch(`${sandbox.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${platformWs}/items/${notebook.result.resourceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(gone.status, 200, await gone.text());

    const second = await follow(h, tenant, jobId);
    assert.equal(
      second.status,
      'done',
      JSON.stringify(second.provision.steps.map((s: any) => [s.displayName, s.result.status, s.result.error])),
    );
    const again = stepOf(second, 'notebook', 'Scan Table Inventory');
    assert.equal(again.result.status, 'created', JSON.stringify(again.result));
    assert.notEqual(again.result.resourceId, notebook.result.resourceId, 'a new notebook');
    assert.ok(
      again.result.steps.some((l: string) => /deleted meanwhile/.test(l)),
      again.result.steps.join('\n'),
    );
    const live = (await sandbox.admin.state()).dataPlatform.workspaces
      .find((w: any) => w.id === platformWs)!
      .items.filter((i: any) => i.displayName === 'Scan Table Inventory');
    assert.deepEqual(
      live.map((i: any) => i.id),
      [again.result.resourceId],
      'one live notebook of that name',
    );
  },
);
