import type { AppCheck } from './app-check.js';
import type { CatalogItem } from './types.js';

const SQL_TYPES = ['lakehouse', 'warehouse'];

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
  if (ref[2] !== 'id' && !SQL_TYPES.includes(target.itemType)) check.fail(item, `token '\${${token}}': only a lakehouse or warehouse has a ${ref[2]}`);
}
