import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { callerFrom, type Caller } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import { armError, badRequest } from './errors.js';

const API_VERSIONS = ['2024-04-13', '2023-08-15', '2023-05-02', '2022-12-29', '2022-11-11', '2022-07-07', '2022-02-01'];

/**
 * Authenticates an ARM call (bearer token for management.azure.com), then checks api-version against the provider's
 * versions (Microsoft.Kusto's unless `versions` names another provider's).
 */
export async function armCaller(
  core: SandboxCore,
  ctx: RequestContext,
  resourceType = 'clusters',
  versions: readonly string[] = API_VERSIONS,
): Promise<Caller> {
  const www = {
    'www-authenticate': `Bearer authorization_uri="${core.urls.identity}/${core.ids.tenantId}", error="invalid_token", error_description="The authentication failed because of missing 'Authorization' header."`,
  };
  const v = await core.tokens.verifyBearer(ctx.header('authorization'), [...AUDIENCES.arm]);
  if (!v.ok) {
    if (v.reason === 'missing')
      throw armError(401, 'AuthenticationFailed', "Authentication failed. The 'Authorization' header is missing.", www);
    if (v.reason === 'expired') {
      const exp = new Date(Number(v.claims?.exp ?? 0) * 1000).toISOString();
      throw armError(
        401,
        'ExpiredAuthenticationToken',
        `The access token expiry UTC time '${exp}' is earlier than current UTC time '${new Date().toISOString()}'.`,
        www,
      );
    }
    if (v.reason === 'audience') {
      throw armError(
        401,
        'InvalidAuthenticationTokenAudience',
        `The access token has been obtained for wrong audience or resource '${v.claims?.aud}'. It should exactly match with one of the allowed audiences 'https://management.core.windows.net/','https://management.core.windows.net','https://management.azure.com/','https://management.azure.com'.`,
        www,
      );
    }
    throw armError(401, 'InvalidAuthenticationToken', `The access token is invalid. ${v.detail}`, www);
  }
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  const version = ctx.queryCi('api-version');
  if (!version)
    throw badRequest('The api-version query parameter (?api-version=) is required for all requests.', 'MissingApiVersionParameter');
  if (!versions.includes(version)) {
    throw badRequest(
      `No registered resource provider found for location '${core.ids.kqlLocation}' and API version '${version}' for type '${resourceType}'. The supported api-versions are '${versions.join(', ')}'. The supported locations are 'eastus, westus, westeurope'.`,
      'NoRegisteredProviderFound',
    );
  }
  return caller;
}

/** RBAC: Owner and Contributor may do everything, Reader only reads. 403 AuthorizationFailed otherwise. */
export function armAuthorize(core: SandboxCore, caller: Caller, action: string, scope: string): void {
  const roles = core.arm.rolesAt(caller.objectId, scope);
  const ok = roles.includes('Owner') || roles.includes('Contributor') || (action.endsWith('/read') && roles.includes('Reader'));
  if (ok) return;
  const who = caller.isApp ? caller.appId : (caller.upn ?? caller.objectId);
  throw armError(
    403,
    'AuthorizationFailed',
    `The client '${who}' with object id '${caller.objectId}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
  );
}

/** Checks subscription, authorization, resource group and cluster of a cluster-scoped path, in ARM's order. */
export function resolveCluster(core: SandboxCore, ctx: RequestContext, caller: Caller, action: string, scopeSuffix = ''): void {
  const { sub, rg, cluster } = ctx.params;
  const ids = core.ids;
  if (sub!.toLowerCase() !== ids.subscriptionId)
    throw armError(404, 'SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
  const scope = `/subscriptions/${sub}/resourceGroups/${rg}/providers/Microsoft.Kusto/clusters/${cluster}${scopeSuffix}`;
  armAuthorize(core, caller, action, scope);
  if (rg!.toLowerCase() !== ids.resourceGroup.toLowerCase())
    throw armError(404, 'ResourceGroupNotFound', `Resource group '${rg}' could not be found.`);
  if (cluster!.toLowerCase() !== ids.kqlClusterName.toLowerCase()) {
    throw armError(
      404,
      'ResourceNotFound',
      `The Resource 'Microsoft.Kusto/clusters/${cluster}' under resource group '${rg}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
    );
  }
}
