import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import type { OidcConfig } from '../config/oidc.js';
import { ConfigError } from '../config/setting.js';
import { COMMERCIAL_AUTH_URL, type CloudProfile } from '../cloud/profiles.js';
import type { Db } from '../store/db.js';
import { AuthenticationError, ForbiddenError, InputError, ServiceError } from '../errors.js';
import type { Caller } from './caller.js';
import { PrincipalService } from '../access/principal-service.js';
import { GUID_PATTERN } from '../values.js';
import { sameOriginPath } from './return-path.js';
import { TENANT_SCOPES, type Scope } from './scopes.js';
import { DEFAULT_TENANT } from './token-service.js';
import type { SignInSubject } from '../audit/audit-types.js';

/** How long a started sign-in may take before its state is refused. */
export const LOGIN_TTL_SECONDS = 600;
const MULTI_TENANT = ['organizations', 'common'];

/** Console sign-in through the cloud's identity provider (authorization code with PKCE), from the SVC_OIDC_* settings. */
export interface OidcSettings {
  clientId: string;
  /** Absent for a public client (PKCE alone). */
  clientSecret?: string;
  /** The directory tenant in the authority path: an id or domain, or organizations/common. */
  tenant: string;
  multiTenant: boolean;
  /** The issuer the discovery document is read from: {auth_url}/{tenant}/v2.0 unless SVC_OIDC_ISSUER says otherwise. */
  issuer: string;
  issuerOverridden: boolean;
  /** <SVC_PUBLIC_URL>/api/auth/callback; absent only in the sandbox, where the request's own address is used. */
  redirectUri?: string;
  /** Directory tenant id (tid) → the service's tenant. */
  tenants: Map<string, string>;
  /** What a signed-in user who is not an admin may do. */
  userScopes: Scope[];
  /** Object ids or user names whose sign-in makes them admins of their service tenant. */
  admins: Set<string>;
  providerName: string;
  /** Plain http to the identity provider: only the sandbox's loopback one. */
  allowHttp: boolean;
}

/**
 * The sign-in settings for the selected cloud; undefined when SVC_OIDC_CLIENT_ID is not set (sign-in with the identity
 * provider is off). What depends on the cloud is checked here and stops the start naming the variable.
 */
export function oidcSettings(oidcConfig: OidcConfig, profile: CloudProfile, publicUrl?: string): OidcSettings | undefined {
  const { clientId, tenant } = oidcConfig;
  if (!clientId) return undefined;
  if (!publicUrl && profile.name !== 'sandbox') {
    throw new ConfigError(
      'SVC_PUBLIC_URL',
      'is required for sign-in with the identity provider: the redirect URI is <SVC_PUBLIC_URL>/api/auth/callback',
    );
  }
  const multiTenant = MULTI_TENANT.includes(tenant.toLowerCase());
  const issuer = oidcConfig.issuer ?? `${profile.authUrl}/${tenant}/v2.0`;
  if (multiTenant && new URL(issuer).origin !== COMMERCIAL_AUTH_URL) {
    throw new ConfigError(
      'SVC_OIDC_TENANT',
      `"${tenant}" (multi-tenant sign-in) is supported only at ${COMMERCIAL_AUTH_URL}; set it to your directory tenant id`,
    );
  }
  if (multiTenant && !oidcConfig.tenants.size) {
    throw new ConfigError(
      'SVC_OIDC_TENANTS',
      `is required with SVC_OIDC_TENANT=${tenant}: list which directory tenants may sign in and into which service tenant`,
    );
  }
  return {
    clientId,
    clientSecret: oidcConfig.clientSecret,
    tenant,
    multiTenant,
    issuer,
    issuerOverridden: oidcConfig.issuer !== undefined,
    redirectUri: publicUrl ? `${publicUrl}/api/auth/callback` : undefined,
    tenants: new Map(oidcConfig.tenants),
    userScopes: [...oidcConfig.userScopes],
    admins: new Set(oidcConfig.admins),
    providerName: profile.identityProviderName,
    allowHttp: profile.allowLoopback,
  };
}

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The identity provider could not be reached or answered something unusable (not the user's fault). */
export class IdentityProviderError extends ServiceError {
  constructor(message: string) {
    super(502, 'identity_provider_unavailable', message);
  }
}

/** The answer of a completed sign-in: who signed in, and whether their user was created now. */
export interface SignedIn {
  caller: Caller;
  returnTo: string;
  created: boolean;
}

/** Starts and completes console sign-ins with the identity provider; the started ones are kept in the store. */
export class OidcSignIn {
  private discovered?: Promise<oidc.Configuration>;

  constructor(
    private readonly db: Db,
    readonly settings: OidcSettings,
  ) {}

  /** Discovery (metadata and JWKS address), read once and kept; a failure is retried on the next sign-in. */
  private configuration(): Promise<oidc.Configuration> {
    const s = this.settings;
    this.discovered ??= (async () => {
      // A named tenant's metadata is read from its well-known document (its issuer is the tenant id even when the
      // path names a domain); organizations/common go by the issuer, which openid-client knows how to check per tid.
      const server = new URL(s.multiTenant || s.issuerOverridden ? s.issuer : `${s.issuer}/.well-known/openid-configuration`);
      const auth = s.clientSecret ? oidc.ClientSecretPost(s.clientSecret) : oidc.None();
      const config = await oidc.discovery(server, s.clientId, undefined, auth, {
        execute: s.allowHttp ? [oidc.allowInsecureRequests] : [],
        timeout: 15,
      });
      oidc.enableNonRepudiationChecks(config); // the id token's signature is checked against the provider's JWKS
      return config;
    })().catch((err: Error) => {
      this.discovered = undefined;
      throw new IdentityProviderError(`The identity provider's discovery document at ${s.issuer} could not be read: ${err.message}`);
    });
    return this.discovered;
  }

  /** Begins a sign-in: stores state, nonce and PKCE verifier, and answers the provider's authorize address. */
  async begin(redirectUri: string, returnTo: string): Promise<{ url: string; state: string }> {
    const config = await this.configuration();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const now = Date.now();
    await this.db.deleteFrom('oidc_logins').where('expires_at', '<', new Date(now)).execute();
    await this.db
      .insertInto('oidc_logins')
      .values({
        state_hash: hash(state),
        code_verifier: verifier,
        nonce,
        redirect_uri: redirectUri,
        return_to: returnTo,
        expires_at: new Date(now + LOGIN_TTL_SECONDS * 1000).toISOString(),
      })
      .execute();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      response_mode: 'query',
      scope: 'openid profile email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, state };
  }

  /**
   * Completes a sign-in from the provider's answer: the state must be this browser's (cookie) and unused; the code is
   * exchanged with the PKCE verifier; the id token's issuer, audience, nonce and signature are checked.
   */
  async complete(
    params: Record<string, string | undefined>,
    browserState: string | undefined,
    seen: SignInSubject = {},
  ): Promise<SignedIn> {
    const state = params.state;
    if (!state)
      throw new InputError('The identity provider’s answer has no state parameter; start the sign-in again', 'state', 'oidc_state_missing');
    if (!browserState || !sameText(state, browserState)) {
      throw new InputError(
        'The state parameter does not belong to a sign-in started in this browser; start the sign-in again',
        'state',
        'oidc_state_mismatch',
      );
    }
    const login = await this.db.deleteFrom('oidc_logins').where('state_hash', '=', hash(state)).returningAll().executeTakeFirst();
    if (!login)
      throw new InputError(
        'The sign-in this answer belongs to is unknown or was already completed; start the sign-in again',
        'state',
        'oidc_state_unknown',
      );
    if (login.expires_at.getTime() <= Date.now())
      throw new InputError(`The sign-in took longer than ${LOGIN_TTL_SECONDS / 60} minutes; start it again`, 'state', 'oidc_state_expired');
    if (params.error) {
      const description = (params.error_description ?? '').split('\n')[0]!.slice(0, 500);
      throw new AuthenticationError(
        `The identity provider refused the sign-in (${params.error})${description ? `: ${description}` : ''}`,
        'oidc_provider_error',
      );
    }
    const config = await this.configuration();
    const current = new URL(login.redirect_uri);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) current.searchParams.set(k, v);
    let claims: oidc.IDToken;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (err) {
      throw this.grantFailure(err);
    }
    // What is known of the user as the sign-in goes on: the audit trail names them even when it is refused.
    seen.userName = displayNameOf(claims);
    const tid = typeof claims.tid === 'string' ? claims.tid.toLowerCase() : undefined;
    if (!tid) throw new AuthenticationError('The id token has no tid (directory tenant) claim', 'oidc_invalid_token');
    const tenantId = this.tenantFor(tid);
    seen.tenantId = tenantId;
    const user = await this.user(tenantId, tid, claims);
    Object.assign(seen, { userId: user.id, userName: user.displayName });
    const scopes = user.isAdmin ? [...TENANT_SCOPES] : this.settings.userScopes;
    // Checked again: a sign-in started before returnTo was checked as strictly lands on the console's home.
    const returnTo = sameOriginPath(login.return_to) ?? '/';
    const groups = groupsOf(claims);
    await PrincipalService.recordGroups(this.db, tenantId, groups);
    return {
      caller: { tenantId, userId: user.id, userName: user.displayName, method: 'session', scopes, groups },
      returnTo,
      created: user.created,
    };
  }

  private grantFailure(err: unknown): ServiceError {
    if (err instanceof oidc.ResponseBodyError) {
      return new AuthenticationError(
        `The identity provider refused the authorization code (${err.error})${err.error_description ? `: ${err.error_description.split('\n')[0]}` : ''}`,
        'oidc_code_refused',
      );
    }
    const e = err as Error & { code?: string; cause?: unknown };
    if (e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || e.name === 'TypeError' || e.name === 'TimeoutError' || e.name === 'AbortError') {
      return new IdentityProviderError(`The identity provider's token endpoint did not answer usably: ${e.message}`);
    }
    const why = e.cause instanceof Error ? e.cause.message : e.message; // e.g. "JWT signature verification failed", "unexpected JWT "nonce" claim value"
    return new AuthenticationError(`The identity provider's answer was refused: ${why}`, 'oidc_invalid_token');
  }

  /** The service tenant of a directory tenant: SVC_OIDC_TENANTS, else the default tenant for a single-tenant registration. */
  private tenantFor(tid: string): string {
    const mapped = this.settings.tenants.get(tid);
    if (mapped) return mapped;
    // A single-tenant registration only ever yields its own tid (the issuer check guarantees it).
    if (!this.settings.multiTenant) return DEFAULT_TENANT;
    throw new ForbiddenError(`Directory tenant ${tid} is not mapped to a tenant of this service (SVC_OIDC_TENANTS)`, 'tenant_not_mapped');
  }

  /** The user of these claims in the service tenant, created on first sign-in; names and admin mark kept current. */
  private async user(tenantId: string, tid: string, claims: oidc.IDToken) {
    const oid = String(claims.oid ?? claims.sub);
    const userName = typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined;
    const displayName = displayNameOf(claims);
    const email = typeof claims.email === 'string' ? claims.email : (userName ?? null);
    const upn = upnOf(claims);
    const listedAdmin =
      this.settings.admins.has(oid.toLowerCase()) || (userName !== undefined && this.settings.admins.has(userName.toLowerCase()));
    const subject = `${tid}/${oid}`;
    await this.db
      .insertInto('tenants')
      .values({ id: tenantId, name: `Directory tenant ${tid}` })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const find = () =>
      this.db
        .selectFrom('users')
        .select(['id', 'is_admin'])
        .where('tenant_id', '=', tenantId)
        .where('oidc_subject', '=', subject)
        .executeTakeFirst();
    const existing = await find();
    if (existing) {
      const isAdmin = existing.is_admin || listedAdmin;
      await this.db
        .updateTable('users')
        .set({ display_name: displayName, email, upn, is_admin: isAdmin })
        .where('id', '=', existing.id)
        .execute();
      return { id: existing.id, displayName, isAdmin, created: false };
    }
    const id = randomUUID();
    try {
      await this.db
        .insertInto('users')
        .values({ id, tenant_id: tenantId, display_name: displayName, email, upn, oidc_subject: subject, is_admin: listedAdmin })
        .execute();
    } catch (err) {
      const raced = await find(); // the same person's first sign-in in two tabs at once
      if (!raced) throw err;
      return { id: raced.id, displayName, isAdmin: raced.is_admin, created: false };
    }
    return { id, displayName, isAdmin: listedAdmin, created: true };
  }
}

const GUID = new RegExp(GUID_PATTERN);

/** The group object ids of the id token's `groups` claim, lowercased; anything but a GUID is ignored. */
export function groupsOf(claims: Record<string, unknown>): string[] {
  const raw = Array.isArray(claims.groups) ? claims.groups : [];
  // Bounded: a directory sends at most a few hundred ids before it switches to an overage claim.
  const ids = raw.filter((g): g is string => typeof g === 'string' && GUID.test(g)).map((g) => g.toLowerCase());
  return [...new Set(ids)].slice(0, 500);
}

/** The name an id token gives its user: name, else preferred_username, else the object id. */
function displayNameOf(claims: oidc.IDToken): string {
  const userName = typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined;
  return (typeof claims.name === 'string' && claims.name) || userName || String(claims.oid ?? claims.sub);
}

/** The user principal name of an id token: the upn claim (Entra sends it as an optional claim), else preferred_username; null without either or with a space. */
function upnOf(claims: oidc.IDToken): string | null {
  const value = [claims.upn, claims.preferred_username].find((v): v is string => typeof v === 'string' && v.length > 0);
  return value && /^\S{1,256}$/.test(value) ? value : null;
}
