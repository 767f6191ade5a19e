import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** data-product: stored in the service only. */
export const dataProduct: StoredItemType<'data-product', typeof StoredContent> = {
  id: 'data-product',
  displayName: 'Data product',
  description: 'a curated, owned set of data assets',
  icon: 'Box',
  ...STORED,
  edges: { from: ['reads-from'], to: [] },
};
