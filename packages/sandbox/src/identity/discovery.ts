import type { SandboxCore } from '../core.js';
import type { Router } from '../http/router.js';
import { checkTenant } from './token-endpoint.js';

/** OIDC discovery (v2 and v1), JWKS, MSAL instance discovery and the logout endpoint. */
export function discoveryRoutes(core: SandboxCore, router: Router): void {
  // Every address names the one the caller used (MSAL checks the issuer against the authority's scheme and host).
  const config = (base: string, tenant: string, v2: boolean) => {
    const tid = ['common', 'organizations'].includes(tenant.toLowerCase()) ? '{tenantid}' : core.ids.tenantId;
    const ver = v2 ? '/v2.0' : '';
    return {
      token_endpoint: `${base}/${tenant}/oauth2${ver}/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${base}/${tenant}/discovery${ver}/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: v2 ? `${base}/${tid}/v2.0` : `https://sts.windows.net/${tid}/`,
      request_uri_parameter_supported: false,
      userinfo_endpoint: 'https://graph.microsoft.com/oidc/userinfo',
      authorization_endpoint: `${base}/${tenant}/oauth2${ver}/authorize`,
      device_authorization_endpoint: `${base}/${tenant}/oauth2${ver}/devicecode`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      end_session_endpoint: `${base}/${tenant}/oauth2${ver}/logout`,
      claims_supported: [
        'sub',
        'iss',
        'cloud_instance_name',
        'cloud_instance_host_name',
        'cloud_graph_host_name',
        'msgraph_host',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'acr',
        'nonce',
        'preferred_username',
        'name',
        'tid',
        'ver',
        'at_hash',
        'c_hash',
        'email',
      ],
      code_challenge_methods_supported: ['plain', 'S256'],
      kerberos_endpoint: `${base}/${tenant}/kerberos`,
      tenant_region_scope: 'NA',
      cloud_instance_name: 'microsoftonline.com',
      cloud_graph_host_name: 'graph.windows.net',
      msgraph_host: 'graph.microsoft.com',
      rbac_url: 'https://pas.windows.net',
    };
  };
  router.get(
    '/:tenant/v2.0/.well-known/openid-configuration',
    (ctx) => (checkTenant(core, ctx.params.tenant!), { status: 200, body: config(ctx.origin, ctx.params.tenant!, true) }),
  );
  router.get(
    '/:tenant/.well-known/openid-configuration',
    (ctx) => (checkTenant(core, ctx.params.tenant!), { status: 200, body: config(ctx.origin, ctx.params.tenant!, false) }),
  );
  for (const p of ['/:tenant/discovery/v2.0/keys', '/:tenant/discovery/keys']) {
    router.get(
      p,
      (ctx) => (checkTenant(core, ctx.params.tenant!), { status: 200, body: core.tokens.jwks(`${ctx.origin}/${core.ids.tenantId}/v2.0`) }),
    );
  }
  router.get('/common/discovery/instance', (ctx) => {
    const host = new URL(ctx.origin).host;
    return {
      status: 200,
      body: {
        tenant_discovery_endpoint: `${ctx.origin}/${core.ids.tenantId}/v2.0/.well-known/openid-configuration`,
        'api-version': '1.1',
        metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
      },
    };
  });
  router.get('/:tenant/oauth2/v2.0/logout', (ctx) => {
    const target = ctx.query('post_logout_redirect_uri');
    return target
      ? { status: 302, headers: { location: target } }
      : { status: 200, contentType: 'text/html; charset=utf-8', raw: '<!doctype html><p>You signed out of your account.</p>' };
  });
}
