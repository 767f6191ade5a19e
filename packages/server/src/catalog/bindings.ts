import type { AppCheck } from './app-check.js';
import type { ItemTypeId } from '../item-types/index.js';
import type { CatalogItem } from './types.js';

const SQL_TYPES: readonly ItemTypeId[] = ['lakehouse', 'warehouse'];

/**
 * Checks the `${…}` install-time tokens of an item's content: clock tokens, `${item:<key>.id|sqlEndpoint|sqlEndpointId}`, `${workspace.id}`,
 * `${bi.apiHost}` and a mirror's `${connection.id}`. Stored items may carry other `${…}` text (prompt-flow references); live items may not.
 */
export function checkBindings(check: AppCheck, item: CatalogItem) {
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(/\$\{([^}]*)\}/g)) checkToken(check, item, m[1]!);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(item.content);
}

function checkToken(check: AppCheck, item: CatalogItem, token: string) {
  if (/^now(?:[+-]\d+[smhd])?$/.test(token)) return;
  if (token === 'workspace.id' || token === 'bi.apiHost') return;
  if (token === 'connection.id' && item.itemType === 'mirrored-database') return;
  const ref = /^item:([a-z0-9-]+)\.(id|sqlEndpoint|sqlEndpointId)$/.exec(token);
  if (!ref) {
    if (item.provisioning === 'stored' && !token.startsWith('item:')) return;
    check.fail(item, `unknown install-time token '\${${token}}'`);
  }
  const target = check.items.get(ref[1]!);
  if (!target) check.fail(item, `token '\${${token}}' names '${ref[1]}', which is not an item of this app`);
  if (ref[2] !== 'id' && !SQL_TYPES.includes(target.itemType))
    check.fail(item, `token '\${${token}}': only a lakehouse or warehouse has a ${ref[2]}`);
}

const BINDING = /\$\{(item:[a-z0-9-]+\.(?:id|sqlEndpoint|sqlEndpointId)|workspace\.id|bi\.apiHost|connection\.id)\}/g;

/** The item keys that `${item:<key>.…}` tokens name anywhere in `value` (what its provisioning needs first). */
export function boundItemKeys(value: unknown): string[] {
  const keys = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === 'string') for (const m of v.matchAll(/\$\{item:([a-z0-9-]+)\./g)) keys.add(m[1]!);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(value);
  return [...keys];
}

/** A copy of `value` whose binding tokens are replaced by `lookup(token)` (token without `${}`, e.g. `item:floor-model.id`); tokens it answers undefined for stay. */
export function resolveBindings<T>(value: T, lookup: (token: string) => string | undefined): T {
  if (typeof value === 'string') return value.replace(BINDING, (m, token: string) => lookup(token) ?? m) as T;
  if (Array.isArray(value)) return value.map((v) => resolveBindings(v, lookup)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveBindings(v, lookup)])) as T;
  return value;
}
