import { validateKqlDatabase } from '../catalog/validate-stores.js';
import { kqlContentCalls } from '../provisioning/kql.js';
import type { LiveItemType } from './descriptor.js';
import { KqlDatabaseContent, kqlDatabaseLifecycle, provisionKqlDatabase } from './kql-database.js';

/** eventhouse: provisioned as a KQL database (the eventhouse is the KQL cluster), with the same content. */
export const eventhouse: LiveItemType<'eventhouse', typeof KqlDatabaseContent> = {
  id: 'eventhouse',
  displayName: 'Eventhouse',
  description: 'a KQL cluster database for streaming data',
  icon: 'DatabaseMultiple',
  editor: 'kql-schema',
  backing: 'kql',
  content: KqlDatabaseContent,
  validate: validateKqlDatabase,
  edges: { from: ['feeds'], to: ['feeds', 'reads-from', 'visualizes', 'triggers-on'] },
  calls: kqlContentCalls,
  provision: provisionKqlDatabase,
  ...kqlDatabaseLifecycle,
};
