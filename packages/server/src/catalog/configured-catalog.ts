import { CATALOG } from '../config/catalog.js';
import { ConfigError } from '../config/setting.js';
import { CatalogError } from './catalog-error.js';
import { loadCatalog } from './load-catalog.js';
import type { Catalog } from './types.js';

/**
 * The catalog the service starts with: the folder SVC_CATALOG_DIR names, or the shipped one when unset. A broken app in
 * a configured folder is a ConfigError naming the setting, so the start says which setting to fix, not only which app.
 */
export function configuredCatalog(dir: string | undefined): Catalog {
  if (dir === undefined) return loadCatalog();
  try {
    return loadCatalog(dir);
  } catch (err) {
    if (err instanceof CatalogError) throw new ConfigError(CATALOG.dir.name, `folder ${dir}: ${err.message}`);
    throw err;
  }
}
