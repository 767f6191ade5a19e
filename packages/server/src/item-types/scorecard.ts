import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** scorecard: stored in the service only. */
export const scorecard: StoredItemType<'scorecard', typeof StoredContent> = {
  id: 'scorecard',
  displayName: 'Scorecard',
  description: 'goals and their status',
  icon: 'Target',
  ...STORED,
  edges: { from: ['reads-from', 'visualizes'], to: [] },
};
