import { fileURLToPath } from 'node:url';

/** The version-2 fixture catalog (fixtures/catalog-v2/README.md): pass it as SVC_CATALOG_DIR to build the service on it. */
export const CATALOG_V2_DIR = fileURLToPath(new URL('./fixtures/catalog-v2', import.meta.url));
