import { TENANT_SCOPES, type TenantScope } from '../auth/scopes.js';
import { ConfigError, list, type Section, text, url, type Values, WEB } from './setting.js';

const serviceTenant = (pair: string): [string, string] => {
  const m = /^([0-9a-f-]{36})=([A-Za-z0-9_-]{1,64})$/i.exec(pair);
  if (!m) throw new ConfigError('SVC_OIDC_TENANTS', `"${pair}" is not <directory tenant id>=<service tenant id>`);
  return [m[1]!.toLowerCase(), m[2]!];
};
const tenantScope = (scope: string): TenantScope => {
  if (!(TENANT_SCOPES as readonly string[]).includes(scope))
    throw new ConfigError('SVC_OIDC_SCOPES', `"${scope}" is not one of ${TENANT_SCOPES.join(', ')}`);
  return scope as TenantScope;
};

/** Console sign-in with the identity provider (OpenID Connect). */
export const OIDC = {
  clientId: text('SVC_OIDC_CLIENT_ID', {
    shown: "– (the sandbox sets its console app's)",
    meaning: 'the console\'s app registration: turns on "Sign in with …" (see [Console sign-in](#console-sign-in))',
  }),
  clientSecret: text('SVC_OIDC_CLIENT_SECRET', { meaning: 'its client secret; unset for a public client (PKCE alone)' }),
  tenant: text('SVC_OIDC_TENANT', {
    shown: '`SVC_TENANT_ID`, else `organizations`',
    meaning:
      'directory tenant id (or domain) in the authority path; `organizations`/`common` only at login.microsoftonline.com and with `SVC_OIDC_TENANTS`',
  }),
  issuer: url('SVC_OIDC_ISSUER', WEB, {
    shown: '`{auth_url}/{tenant}/v2.0`',
    meaning: 'the issuer whose discovery document is read (when the derived one is wrong)',
  }),
  tenants: list('SVC_OIDC_TENANTS', serviceTenant, {
    meaning:
      '`<tid>=<service tenant>,…`: which service tenant each directory tenant signs into (default: the `default` tenant for the one tenant of a single-tenant registration)',
  }),
  userScopes: list<TenantScope>('SVC_OIDC_SCOPES', tenantScope, {
    fallback: ['read', 'write', 'install', 'reports', 'tokens'],
    meaning: 'what a signed-in user who is not an admin may do',
  }),
  admins: list('SVC_OIDC_ADMINS', (s) => s.toLowerCase(), {
    meaning: 'object ids or user names made admins (every tenant scope, never `operator`) of their service tenant when they sign in',
  }),
} satisfies Section;

export type OidcConfig = Omit<Values<typeof OIDC>, 'tenants' | 'admins' | 'tenant'> & {
  /** The directory tenant of the authority path: SVC_OIDC_TENANT, else SVC_TENANT_ID, else organizations. */
  tenant: string;
  /** Directory tenant id (tid) → the service's tenant. */
  tenants: ReadonlyMap<string, string>;
  admins: ReadonlySet<string>;
};
