import type { PlannedCall } from '../item-types/calls.js';
import { planText } from '../item-types/calls.js';
import type { Backing, Provisioning } from '../item-types/descriptor.js';
import { liveItemType, type ItemTypeId } from '../item-types/index.js';
import type { CuratedApp } from './types.js';

/** What installing one item does: stored only, or provisioned live in a backing service by the calls its type declares. */
export interface PlannedItem {
  key: string;
  itemType: ItemTypeId;
  displayName: string;
  provisioning: Provisioning;
  backing?: Backing;
  /** The backing calls, in order (none for a stored item). */
  calls: PlannedCall[];
  /** The calls as text, or that the item is stored only. */
  action: string;
}

/** What installing an app provisions: per item live or stored and where, and the thread edges it records. */
export interface InstallPlan {
  appId: string;
  displayName: string;
  totalItems: number;
  live: number;
  stored: number;
  edges: number;
  items: PlannedItem[];
}

/** What installing `app` will provision: each item live (with its backing service and calls) or stored. */
export function describeApp(app: CuratedApp): InstallPlan {
  const items = app.items.map((i): PlannedItem => {
    const type = liveItemType(i.itemType);
    const base = { key: i.key, itemType: i.itemType, displayName: i.displayName, provisioning: i.provisioning };
    if (!type) return { ...base, calls: [], action: 'stored in the service only' };
    const calls = [...type.calls(i.content)];
    return { ...base, backing: type.backing, calls, action: planText(calls) };
  });
  const live = items.filter((i) => i.provisioning === 'live').length;
  return {
    appId: app.id,
    displayName: app.displayName,
    totalItems: items.length,
    live,
    stored: items.length - live,
    edges: app.edges.length,
    items,
  };
}
