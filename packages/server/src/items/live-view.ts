import type { CloudProfile } from '../cloud/profiles.js';
import type { BackendId } from '../item-types/descriptor.js';
import { backendIdOf, isItemTypeId, liveItemType } from '../item-types/index.js';
import { portalLink, type PortalLink } from '../item-types/portal-links.js';
import { type LiveRecord, type LiveState, liveStateOf } from '../lifecycle/item-state.js';

/** What an item shows of its live resource in this cloud. */
export interface LiveView {
  /** The live resource's state: stored only, not provisioned, created, changed since provisioned, drifted, missing, deleted, remediation, failed. */
  liveState: LiveState;
  /** Where the item lives in this cloud: its backend (the live record's, else the cloud's choice); null for a stored-only type. */
  backend: BackendId | null;
  /** The portal of the cloud that shows its live resource, when it has one. */
  portal: PortalLink | null;
}

/** An item's live view, from its type, its content's ETag and its live record (null when none). */
export function liveView(itemType: string, etag: string, live: LiveRecord | null, profile: CloudProfile): LiveView {
  const backend =
    live?.status === 'stored'
      ? 'stored'
      : isItemTypeId(itemType) && liveItemType(itemType)
        ? backendIdOf(itemType, profile, live?.backend)
        : null;
  return {
    liveState: liveStateOf(itemType, etag, live, profile),
    backend,
    portal: (backend && live && portalLink(profile, backend, live)) || null,
  };
}
