import type { StoredItemType } from './descriptor.js';
import { STORED, type StoredContent } from './stored.js';

/** dataflow-spec: stored in the service only. */
export const dataflowSpec: StoredItemType<'dataflow-spec', typeof StoredContent> = {
  id: 'dataflow-spec',
  displayName: 'Dataflow spec',
  description: 'a declarative dataflow specification',
  icon: 'DataFunnel',
  ...STORED,
  edges: { from: ['feeds', 'reads-from'], to: [] },
};
