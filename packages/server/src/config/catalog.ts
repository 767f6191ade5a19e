import { directory, type Section, type Values } from './setting.js';

/** The app catalog. */
export const CATALOG = {
  dir: directory('SVC_CATALOG_DIR', {
    shown: 'the shipped catalog (`catalog/apps`)',
    meaning:
      'the folder of curated apps the service offers, one folder per app (its `app.json` and item files); every app in it is validated at start, and a missing folder or a broken app stops the start naming this setting',
  }),
} satisfies Section;

export type CatalogConfig = Values<typeof CATALOG>;
