// What the uninstall tests share: which of an installed app's live resources the sandbox still holds, read through each
// type's read-only readLive (as the plan reads them), and the stored items and edges of a workspace.
import assert from 'node:assert/strict';
import type { CatalogItem } from '../src/catalog/types.js';
import type { StepResult } from '../src/install/types.js';
import { liveItemType, plannerOf } from '../src/item-types/index.js';
import type { TestApp, TestTenant } from './helpers.js';
import { call } from './lifecycle-helpers.js';
import { appOf, contextOf, targetOf } from './remove-helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

/** The app's live items as the install created them: key, type, resource id. */
export function liveItemsOf(appId: string, installJob: any) {
  const app = appOf(appId);
  const results = new Map<string, StepResult>();
  const items: Array<{ key: string; itemType: string; resourceId: string; item: CatalogItem }> = installJob.provision.steps
    .filter((s: any) => liveItemType(s.itemType))
    .map((s: any) => {
      const item = app.items.find((i) => i.itemType === s.itemType && i.displayName === s.displayName)!;
      assert.ok(item, `${appId}: no catalog item for ${s.itemType} ${s.displayName}`);
      results.set(item.key, s.result);
      return { key: item.key, itemType: item.itemType, resourceId: s.result.resourceId as string, item };
    });
  return { app, results, items };
}

/** The keys of the app's live items whose resource the sandbox still holds (read through each type's readLive). */
export async function stillLive(h: TestApp, tenant: TestTenant, appId: string, installJob: any): Promise<string[]> {
  const { app, results, items } = liveItemsOf(appId, installJob);
  const target = await targetOf(h, tenant);
  const out: string[] = [];
  for (const { item } of items)
    if (await plannerOf(item.itemType, PLATFORM_PROFILE)!.readLive(contextOf(h, app, item, target, results))) out.push(item.key);
  return out.sort();
}

/** The stored items of a workspace: display name → item. */
export async function storedItems(h: TestApp, tenant: TestTenant, ws: string) {
  const { items } = await call(h, tenant, 'GET', `/api/workspaces/${ws}/items?limit=200`, 200);
  return items as any[];
}

/** The workspace's lineage edges. */
export async function edges(h: TestApp, tenant: TestTenant, ws: string) {
  return (await call(h, tenant, 'GET', `/api/workspaces/${ws}/thread/edges`, 200)).edges as any[];
}
