import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { callerFrom } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import type { SearchRole } from './store.js';

/** What a search operation needs: index schema management, document writes, or document reads. */
export type SearchAccess = 'manage' | 'write' | 'read';

const ROLE_GRANTS: Record<SearchRole, SearchAccess[]> = {
  'Search Service Contributor': ['manage'],
  'Search Index Data Contributor': ['write', 'read'],
  'Search Index Data Reader': ['read'],
};

const searchError = (status: number, message: string, headers: Record<string, string> = {}) =>
  new ServiceError(status, '', message, {}, headers);

/** api-key (admin: everything; query: reads) or a bearer token for https://search.azure.com gated by the Search roles. */
export async function authorizeSearch(core: SandboxCore, ctx: RequestContext, access: SearchAccess): Promise<void> {
  const apiKey = ctx.header('api-key');
  const authorization = ctx.header('authorization');
  if (apiKey !== undefined) {
    if (apiKey === core.ids.searchAdminKey) return;
    if (apiKey === core.ids.searchQueryKey && access === 'read') return;
    throw searchError(
      403,
      apiKey === core.ids.searchQueryKey
        ? 'The query api-key does not allow this operation; use an admin api-key.'
        : 'The api-key is invalid.',
    );
  }
  const www = {
    'www-authenticate': `Bearer authorization_uri="${ctx.sibling(core.urls.identity)}/${core.ids.tenantId}/oauth2/authorize", resource_id="https://search.azure.com"`,
  };
  if (!authorization) throw searchError(401, 'Authorization failed: the request has neither an api-key header nor a bearer token.', www);
  if (core.switches['search.authMode'] === 'apiKeyOnly')
    throw searchError(
      401,
      'Authentication with bearer tokens is not enabled on this search service (API access control is set to API keys only).',
      www,
    );
  const v = await core.tokens.verifyBearer(authorization, [...AUDIENCES.search]);
  if (!v.ok) throw searchError(401, `Authorization failed: ${v.detail}`, www);
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  const granted = core.search.rolesOf(caller.objectId).some((r) => ROLE_GRANTS[r].includes(access));
  if (!granted) throw searchError(403, 'Authorization failed.');
}
