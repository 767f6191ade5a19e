import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** dashboard: stored in the service only. */
export const dashboard: StoredItemType<'dashboard', typeof StoredContent> = {
  id: 'dashboard',
  displayName: 'Dashboard',
  description: 'tiles over the workspace’s data',
  icon: 'Board',
  ...STORED,
  edges: { from: ['reads-from', 'visualizes'], to: [] },
};
