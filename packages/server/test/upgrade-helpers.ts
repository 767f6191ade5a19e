import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { startSandbox } from '@svc/sandbox';
import { CATALOG_V2_DIR } from './catalog-v2-fixture.js';
import { build, type TestApp, type TestTenant } from './helpers.js';
import { giveSandbox, install, type Sandbox, workspace } from './install-helpers.js';
import { appItem, call } from './lifecycle-helpers.js';

export const APP = 'app-lakehouse-inspector';

/** The service on one data dir, closed by `close` (a later build on the same store needs the first one closed). */
async function serviceOn(_t: TestContext, sandbox: Sandbox, dataDir: string, catalogDir?: string) {
  const closers: Array<() => Promise<void>> = [];
  const h = await build(
    { after: (fn: () => Promise<void>) => void closers.push(fn) },
    { ...sandbox.env, SVC_WORKER_POLL_MS: '100', SVC_DATA_DIR: dataDir, ...(catalogDir ? { SVC_CATALOG_DIR: catalogDir } : {}) },
  );
  const close = async () => {
    for (const c of closers.splice(0)) await c();
  };
  return { h, close };
}

/**
 * Installs the shipped app-lakehouse-inspector (1.0.0) in a new workspace, lets `edit` change its stored items, then
 * restarts the service on the same store with the version-2 fixture catalog (1.1.0), or `catalogDir`: answers the
 * second service.
 */
export async function installedThenV2(
  t: TestContext,
  edit: (h: TestApp, tenant: TestTenant, ws: string) => Promise<void> = async () => {},
  catalogDir = CATALOG_V2_DIR,
): Promise<{ h: TestApp; sandbox: Sandbox; tenant: TestTenant; ws: string }> {
  const sandbox = await startSandbox({});
  t.after(() => sandbox.stop());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-upgrade-'));
  const services: Array<() => Promise<void>> = [];
  // The store is closed before its files are removed.
  t.after(async () => {
    for (const close of services) await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  process.env.IDENTITY_ENDPOINT = sandbox.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sandbox.env.IDENTITY_HEADER;
  const first = await serviceOn(t, sandbox, dataDir);
  services.push(first.close);
  const tenant = await first.h.tenant();
  await giveSandbox(first.h, tenant.tenantId, sandbox);
  const ws = await workspace(first.h, tenant);
  const job = await install(first.h, tenant, APP, { workspaceId: ws });
  assert.equal(job.status, 'done', JSON.stringify(job.provision?.steps));
  await edit(first.h, tenant, ws);
  await first.close();
  const second = await serviceOn(t, sandbox, dataDir, catalogDir);
  services.push(second.close);
  return { h: second.h, sandbox, tenant, ws };
}

/** Reads an app item's stored content and saves `change(content)` over it, as the console's editor does. */
export async function editContent(h: TestApp, tenant: TestTenant, ws: string, key: string, change: (content: any) => void) {
  const item = await appItem(h, tenant, ws, APP, key);
  const url = `/api/workspaces/${ws}/items/${item.itemId}/content`;
  const read = await h.app.inject({ method: 'GET', url, headers: tenant.auth });
  assert.equal(read.statusCode, 200, read.body);
  const content = read.json().content;
  change(content);
  await call(h, tenant, 'PUT', url, 200, { content }, { 'if-match': read.headers.etag });
  return content;
}

/** The stored content and ETag of an app item. */
export async function storedContent(h: TestApp, tenant: TestTenant, ws: string, itemId: string) {
  const r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items/${itemId}/content`, headers: tenant.auth });
  assert.equal(r.statusCode, 200, r.body);
  return { content: r.json().content, etag: r.headers.etag };
}

/** The sandbox's data-platform items with this display name (to count duplicates). */
export async function liveNamed(sandbox: Sandbox, displayName: string): Promise<any[]> {
  return (await sandbox.admin.state()).dataPlatform.workspaces
    .flatMap((w: any) => w.items)
    .filter((i: any) => i.displayName === displayName);
}

/** The notebook-content.py part of a live notebook's definition, read from the sandbox's data platform. */
export async function notebookSource(h: TestApp, sandbox: Sandbox, resourceId: string): Promise<string> {
  const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.dataPlatformAudience);
  const ws = sandbox.ids.platformWorkspaceId;
  const r = await fetch(`${sandbox.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${ws}/items/${resourceId}/getDefinition`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(r.status, 200, await r.clone().text());
  const def = (await r.json()).definition;
  const part = def.parts.find((p: any) => p.path === 'notebook-content.py');
  return Buffer.from(part.payload, 'base64').toString();
}

/**
 * A catalog folder (removed when the test ends) holding a copy of the version-2 fixture's app changed by `change`
 * (its app.json and item files, by path; a file left out is removed), or (`apps` given) copies of those shipped apps only.
 */
export function catalogVariant(t: TestContext, change?: (files: Map<string, any>) => void, apps?: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-upgrade-catalog-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  if (apps) {
    const shipped = path.resolve(import.meta.dirname, '../../../catalog/apps');
    for (const app of apps) fs.cpSync(path.join(shipped, app), path.join(dir, app), { recursive: true });
    return dir;
  }
  const appDir = path.join(dir, APP);
  fs.cpSync(path.join(CATALOG_V2_DIR, APP), appDir, { recursive: true });
  const files = new Map<string, any>();
  for (const f of ['app.json', ...fs.readdirSync(path.join(appDir, 'items')).map((n) => `items/${n}`)])
    files.set(f, JSON.parse(fs.readFileSync(path.join(appDir, f), 'utf8')));
  const before = [...files.keys()];
  change?.(files);
  for (const f of before) if (!files.has(f)) fs.rmSync(path.join(appDir, f));
  for (const [f, json] of files) fs.writeFileSync(path.join(appDir, f), JSON.stringify(json, null, 2));
  return dir;
}
