import { oneOf, type Section, type Setting } from './setting.js';

const choice = <const V extends string>(type: string, values: readonly V[]): Setting<V | undefined> =>
  oneOf(`SVC_BACKEND_${type.toUpperCase().replace(/-/g, '_')}`, values, {
    shown: 'by the cloud',
    meaning: `where ${type} items are provisioned: ${values.map((v) => `\`${v}\``).join(' or ')} (unset: the data platform where the cloud has it, else the Azure-native one)`,
  });

/**
 * The backend of each item type that has more than one (issue 20), by type id; unset, the cloud chooses
 * (item-types/backends.ts). A test holds these lists to the item types' own backends.
 */
export const BACKENDS = {
  lakehouse: choice('lakehouse', ['data-platform', 'lake']),
  notebook: choice('notebook', ['data-platform', 'synapse']),
  'data-pipeline': choice('data-pipeline', ['data-platform', 'synapse']),
  eventstream: choice('eventstream', ['data-platform', 'event-hubs']),
  activator: choice('activator', ['data-platform', 'monitor']),
  'semantic-model': choice('semantic-model', ['data-platform', 'reporting']),
  'kql-dashboard': choice('kql-dashboard', ['data-platform', 'stored']),
  'mirrored-database': choice('mirrored-database', ['data-platform', 'synapse']),
} satisfies Section;
