import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** prompt-flow: stored in the service only. */
export const promptFlow: StoredItemType<'prompt-flow', typeof StoredContent> = {
  id: 'prompt-flow',
  displayName: 'Prompt flow',
  description: 'a retrieval-augmented prompt pipeline',
  icon: 'Sparkle',
  ...STORED,
  edges: { from: ['reads-from'], to: [] },
};
