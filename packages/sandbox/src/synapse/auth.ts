import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { callerFrom } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import { SYNAPSE_ROLES } from './store.js';

/** The api-versions the development endpoint answers for artifacts: the stable one, and the preview it replaced. */
export const SYNAPSE_API_VERSIONS = ['2020-12-01', '2019-06-01-preview'];

/** The request's api-version: 400 when missing or one the service does not have. */
export function checkApiVersion(ctx: RequestContext): string {
  const v = ctx.queryCi('api-version');
  if (!v)
    throw new ServiceError(
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required for all requests.',
    );
  if (!SYNAPSE_API_VERSIONS.includes(v))
    throw new ServiceError(
      400,
      'InvalidApiVersionParameter',
      `The api-version '${v}' is invalid. The supported versions are '${SYNAPSE_API_VERSIONS.join("','")}'.`,
    );
  return v;
}

/**
 * A bearer token for https://dev.azuresynapse.net whose principal holds a Synapse RBAC role on the workspace that allows
 * the access (reads: any artifact role; writes: Artifact Publisher, Contributor or Administrator).
 */
export async function authorizeSynapse(core: SandboxCore, ctx: RequestContext, access: 'read' | 'write'): Promise<void> {
  const authorization = ctx.header('authorization');
  const www = {
    'www-authenticate': `Bearer authorization_uri="${ctx.sibling(core.urls.identity)}/${core.ids.tenantId}/oauth2/authorize", resource_id="https://dev.azuresynapse.net"`,
  };
  if (!authorization)
    throw new ServiceError(401, 'Unauthorized', 'Token Authentication failed - the request has no bearer token.', {}, www);
  const v = await core.tokens.verifyBearer(authorization, [...AUDIENCES.synapse]);
  if (!v.ok) throw new ServiceError(401, 'Unauthorized', `Token Authentication failed - ${v.detail}`, {}, www);
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  const allowed = core.synapse.rolesOf(caller.objectId).some((r) => SYNAPSE_ROLES[r][access]);
  if (!allowed) {
    const action = `Microsoft.Synapse/workspaces/artifacts/${access}`;
    throw new ServiceError(
      403,
      'Unauthorized',
      `The principal '${caller.objectId}' does not have the required Synapse RBAC permission to perform this action. Required permission: Action: ${action}, Scope: workspaces/${core.synapse.workspace}.`,
    );
  }
}
