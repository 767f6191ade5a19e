import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { Directory, type Principal } from './directory.js';
import { aadstsNumber, entraError } from './entra-errors.js';
import { audienceFor, resourceOfScopes } from './resources.js';

/** The tenant a path names (id, domain, or organizations/common), else AADSTS90002. */
export function checkTenant(core: SandboxCore, tenant: string): void {
  const t = tenant.toLowerCase();
  if ([core.ids.tenantId, core.ids.tenantDomain, 'organizations', 'common'].includes(t)) return;
  throw entraError(90002, { tenant });
}

/** Throws the forced Entra failure (switch identity.failure) when it applies to this principal. */
export function checkForcedFailure(core: SandboxCore, p: Principal | undefined, vars: Record<string, string | undefined>): void {
  const f = core.forcedFailure(p);
  if (f)
    throw entraError(aadstsNumber(f.code) ?? 53003, { tenantName: core.ids.tenantDomain, user: p?.upn, appName: p?.displayName, ...vars });
}

function clientCredentials(ctx: RequestContext, form: URLSearchParams): { clientId?: string; secret?: string; assertion?: string } {
  const basic = /^Basic\s+(.+)$/i.exec(ctx.header('authorization') ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    return { clientId: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  return {
    clientId: form.get('client_id') ?? undefined,
    secret: form.get('client_secret') ?? undefined,
    assertion: form.get('client_assertion') ?? undefined,
  };
}

/** Authenticates a confidential client by secret or (unsigned-checked) JWT assertion. */
function authenticateClient(
  core: SandboxCore,
  app: Principal,
  c: { secret?: string; assertion?: string },
  tokenUrl: string,
  required: boolean,
): 'secret' | 'assertion' | 'none' {
  const vars = { clientId: app.appId, tenantName: core.ids.tenantDomain };
  if (c.assertion) {
    let claims: Record<string, any>;
    try {
      claims = decodeJwt(c.assertion);
    } catch {
      throw entraError(9002313);
    }
    if (claims.iss !== app.appId || claims.sub !== app.appId) throw entraError(7000215, vars);
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.some((a: string) => a?.split('?')[0] === tokenUrl)) throw entraError(9002313);
    if (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now()) throw entraError(700024);
    return 'assertion';
  }
  if (c.secret === undefined) {
    if (required) throw entraError(7000218);
    return 'none';
  }
  const match = app.secrets?.find((s) => s.value === c.secret);
  if (!match) throw entraError(7000215, vars);
  if (Date.parse(match.expiresAt) <= Date.now()) throw entraError(7000222, vars);
  return 'secret';
}

/** A pairwise subject for id tokens (stable per user and client). */
const pairwise = (oid: string, clientId: string) => createHash('sha256').update(`${oid}:${clientId}`).digest('base64url').slice(0, 43);

async function userTokens(
  core: SandboxCore,
  ctx: RequestContext,
  user: Principal,
  clientId: string,
  scope: string,
  nonce?: string,
): Promise<Record<string, unknown>> {
  const { resource, scopes, oidc } = resourceOfScopes(scope);
  const audience =
    audienceFor(resource ?? 'https://graph.microsoft.com', core.extraResources()) ??
    (resource === `api://${clientId}` ? clientId : undefined);
  if (!audience) throw entraError(500011, { resource, tenantName: core.ids.tenantDomain });
  checkForcedFailure(core, user, { resource, clientId });
  if (user.mfaRequired) throw entraError(50076, { resource, clientId });
  const access = await core.userToken(user, clientId, audience, scopes.length ? scopes : ['openid', 'profile']);
  const out: Record<string, unknown> = {
    token_type: 'Bearer',
    scope: [
      ...scopes.map((s) => (resource && s !== '.default' ? `${resource}/${s}` : s === '.default' ? `${resource}/.default` : s)),
      ...oidc,
    ].join(' '),
    expires_in: access.expiresOn - Math.floor(Date.now() / 1000),
    ext_expires_in: access.expiresOn - Math.floor(Date.now() / 1000),
    access_token: access.token,
  };
  if (oidc.includes('openid')) {
    const id = await core.tokens.mint(
      {
        aud: clientId,
        oid: user.objectId,
        sub: pairwise(user.objectId, clientId),
        name: user.displayName,
        preferred_username: user.upn,
        ...(nonce ? { nonce } : {}),
        ...(oidc.includes('email') ? { email: user.upn } : {}),
        ...groupsClaim(core.ids.groups, user.objectId),
      },
      3600,
      '2.0',
      `${ctx.origin}/${core.ids.tenantId}/v2.0`,
    );
    out.id_token = id.token;
  }
  if (oidc.includes('offline_access')) out.refresh_token = core.identity.issueRefreshToken({ clientId, userId: user.objectId, scope });
  return out;
}

/** POST /{tenant}/oauth2/v2.0/token: client_credentials, authorization_code (PKCE) and refresh_token, form-encoded. */
export async function tokenEndpoint(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  checkTenant(core, ctx.params.tenant!);
  const form = await ctx.form();
  const grant = form.get('grant_type');
  if (!grant) throw entraError(900144, { param: 'grant_type' });
  const c = clientCredentials(ctx, form);
  if (!c.clientId) throw entraError(900144, { param: 'client_id' });
  const app = core.directory.byAppId(c.clientId);
  const vars = { clientId: c.clientId, tenantName: core.ids.tenantDomain };
  if (!app || !Directory.isApp(app) || app.kind === 'managedIdentity') throw entraError(700016, vars);
  const tokenUrl = `${ctx.origin}/${ctx.params.tenant}/oauth2/v2.0/token`;
  let body: Record<string, unknown>;
  switch (grant) {
    case 'client_credentials': {
      const how = authenticateClient(core, app, c, tokenUrl, true);
      // The v1 endpoint takes `resource`; the v2 endpoint takes `scope` (<resource>/.default).
      const scope = form.get('scope') ?? (form.get('resource') ? `${form.get('resource')}/.default` : null);
      if (!scope) throw entraError(900144, { param: 'scope' });
      if (!scope.trim().endsWith('/.default') || scope.trim().includes(' ')) throw entraError(1002012, { scope });
      const resource = scope.trim().slice(0, -'/.default'.length);
      const audience = audienceFor(resource, core.extraResources());
      if (!audience) throw entraError(500011, { resource, tenantName: core.ids.tenantDomain });
      checkForcedFailure(core, app, { resource, ...vars });
      const t = await core.appToken(app, audience, how === 'assertion' ? 'assertion' : 'secret');
      const expiresIn = t.expiresOn - Math.floor(Date.now() / 1000);
      body = { token_type: 'Bearer', expires_in: expiresIn, ext_expires_in: expiresIn, access_token: t.token };
      break;
    }
    case 'authorization_code': {
      authenticateClient(core, app, c, tokenUrl, false);
      const code = form.get('code');
      if (!code) throw entraError(900144, { param: 'code' });
      const grantRecord = core.identity.codes.get(code);
      if (!grantRecord || grantRecord.clientId !== app.appId) throw entraError(9002313);
      if (grantRecord.redeemed) throw entraError(54005);
      if (grantRecord.expiresAt < Date.now()) throw entraError(70008);
      if (form.get('redirect_uri') !== grantRecord.redirectUri)
        throw entraError(50011, { redirectUri: form.get('redirect_uri') ?? '', clientId: app.appId });
      if (grantRecord.codeChallenge) {
        const verifier = form.get('code_verifier');
        if (!verifier) throw entraError(900144, { param: 'code_verifier' });
        const computed = grantRecord.codeChallengeMethod === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
        if (computed !== grantRecord.codeChallenge) throw entraError(501481);
      }
      grantRecord.redeemed = true;
      const user = core.directory.byObjectId(grantRecord.userId)!;
      body = await userTokens(core, ctx, user, app.appId!, form.get('scope') ?? grantRecord.scope, grantRecord.nonce);
      break;
    }
    case 'refresh_token': {
      authenticateClient(core, app, c, tokenUrl, false);
      const value = form.get('refresh_token');
      if (!value) throw entraError(900144, { param: 'refresh_token' });
      const rt = core.identity.refreshTokens.get(value);
      if (!rt) throw entraError(9002313);
      if (rt.clientId !== app.appId) throw entraError(70000);
      if (rt.expiresAt < Date.now()) throw entraError(700082);
      const user = core.directory.byObjectId(rt.userId)!;
      const scope = form.get('scope') ?? rt.scope;
      body = await userTokens(core, ctx, user, app.appId!, scope.includes('offline_access') ? scope : `${scope} offline_access`);
      break;
    }
    default:
      throw entraError(70003, { grantType: grant });
  }
  return { status: 200, body, headers: { 'cache-control': 'no-store, no-cache', pragma: 'no-cache' } };
}

/** The `groups` claim of a user's id token: the object ids of its groups (absent when it is in none, as the directory does). */
function groupsClaim(groups: ReadonlyArray<{ objectId: string; members: string[] }>, userId: string): { groups?: string[] } {
  const ids = groups.filter((g) => g.members.includes(userId)).map((g) => g.objectId);
  return ids.length ? { groups: ids } : {};
}
