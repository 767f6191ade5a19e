import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** data-agent: stored in the service only. */
export const dataAgent: StoredItemType<'data-agent', typeof StoredContent> = {
  id: 'data-agent',
  displayName: 'Data agent',
  description: 'a conversational agent over the workspace’s data',
  icon: 'Bot',
  ...STORED,
  edges: { from: ['reads-from'], to: [] },
};
