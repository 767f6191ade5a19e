import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** power-bi-report: stored in the service only. */
export const powerBiReport: StoredItemType<'power-bi-report', typeof StoredContent> = {
  id: 'power-bi-report',
  displayName: 'Report',
  description: 'an interactive report definition',
  icon: 'ChartMultiple',
  ...STORED,
  edges: { from: ['reads-from', 'visualizes'], to: [] },
};
