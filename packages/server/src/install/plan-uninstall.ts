import type { CloudProfile } from '../cloud/profiles.js';
import type { Caller } from '../auth/caller.js';
import { NotFoundError } from '../errors.js';
import { isItemTypeId, removerOf } from '../item-types/index.js';
import { searchedAfterFailure } from '../lifecycle/uninstall-kind.js';
import type { LiveRecord } from '../lifecycle/item-state.js';
import { reverseDependencyOrder } from '../lifecycle/uninstall-service.js';
import type { Db } from '../store/db.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import type { InstallPlan, PlanItem } from './plan-service.js';

/**
 * The plan of an uninstall of an installed app, in the order the uninstall deletes (dependants first): each item
 * `delete` (with the delete calls its type makes; `dataLoss` on a data store deleted under purgeData) or `keep` (a data
 * store without purgeData). Reads the store only: nothing is called or changed.
 */
export async function planUninstall(
  deps: { db: Db; profile: CloudProfile; workspaces: WorkspaceService },
  caller: Caller,
  appId: string,
  body: { workspaceId: string; purgeData?: boolean },
): Promise<InstallPlan> {
  await deps.workspaces.get(caller, body.workspaceId);
  const app = await deps.db
    .selectFrom('installed_apps')
    .select(['version', 'mode'])
    .where('tenant_id', '=', caller.tenantId)
    .where('workspace_id', '=', body.workspaceId)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  if (!app) throw new NotFoundError('Installed app', appId);
  const rows = await deps.db
    .selectFrom('installed_app_items as a')
    .innerJoin('items', 'items.id', 'a.item_id')
    .select(['a.item_key', 'items.item_type', 'items.display_name', 'items.content', 'items.provisioning'])
    .where('a.workspace_id', '=', body.workspaceId)
    .where('a.app_id', '=', appId)
    .orderBy('a.item_key')
    .execute();
  const items = reverseDependencyOrder(
    rows.map((r) => ({ ...r, key: r.item_key, itemType: r.item_type })),
    deps.profile,
  );
  return {
    appId,
    version: app.version,
    workspaceId: body.workspaceId,
    mode: app.mode,
    items: items.map((r) => planItem(r, deps.profile, body.purgeData ?? false)),
  };
}

function planItem(
  r: { key: string; itemType: string; display_name: string; content: unknown; provisioning: unknown },
  profile: CloudProfile,
  purgeData: boolean,
): PlanItem {
  const head = { key: r.key, itemType: r.itemType, displayName: r.display_name };
  const live = r.provisioning as LiveRecord | null;
  const remover = isItemTypeId(r.itemType) ? removerOf(r.itemType, profile, live?.backend) : undefined;
  const resourceId = live?.resourceId ?? undefined;
  if (remover && searchedAfterFailure(live))
    return {
      ...head,
      action: 'delete',
      calls: [...remover.findCalls(r.content), ...remover.calls(r.content).map((c) => ({ ...c, when: c.when ?? ('existing' as const) }))],
      message: 'its last step failed: what it may have made is looked up by name and deleted',
    };
  if (!remover || !resourceId) return { ...head, action: 'delete', calls: [], message: 'nothing live: only the stored item is deleted' };
  if (remover.holdsData && !purgeData)
    return { ...head, action: 'keep', resourceId, calls: [], message: `kept: a ${r.itemType} holds data (pass purgeData to delete it)` };
  return {
    ...head,
    action: 'delete',
    resourceId,
    calls: [...remover.calls(r.content)],
    ...(remover.holdsData ? { dataLoss: true } : {}),
  };
}
