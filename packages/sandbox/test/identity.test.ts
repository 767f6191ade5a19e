import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { ManagedIdentityCredential } from '@azure/identity';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { call, claims, sandbox } from './helpers.js';

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
  );

test('ManagedIdentityCredential gets signed tokens from the managed-identity endpoint, accepted by the emulators', async (t) => {
  const sb = await sandbox(t);
  process.env.IDENTITY_ENDPOINT = sb.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sb.env.IDENTITY_HEADER;
  const credential = new ManagedIdentityCredential();
  const fabric = await credential.getToken('https://api.fabric.microsoft.com/.default');
  assert.ok(fabric.expiresOnTimestamp > Date.now());
  const c = claims(fabric.token);
  assert.equal(c.aud, 'https://analysis.windows.net/powerbi/api', 'Fabric scope, Power BI audience');
  assert.equal(c.tid, sb.ids.tenantId);
  assert.equal(c.oid, sb.ids.serviceIdentity.objectId);
  assert.equal(c.appid, sb.ids.serviceIdentity.appId);
  assert.equal(c.idtyp, 'app');
  assert.deepEqual(c.roles, []);
  assert.ok(c.exp > Date.now() / 1000);
  const jwks = createRemoteJWKSet(new URL(`${sb.urls.identity}/${sb.ids.tenantId}/discovery/v2.0/keys`));
  await jwtVerify(fabric.token, jwks, {
    issuer: `https://sts.windows.net/${sb.ids.tenantId}/`,
    audience: 'https://analysis.windows.net/powerbi/api',
  });
  const ws = await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`, { token: fabric.token });
  assert.equal(ws.status, 200);
  const arm = await credential.getToken('https://management.azure.com/.default');
  assert.equal(claims(arm.token).aud, 'https://management.azure.com');
  const log = await sb.admin.requests({ service: 'identity' });
  assert.ok(log.some((r) => r.path.startsWith('/msi/token?api-version=2019-08-01&resource=') && r.status === 200));
});

test('a second sandbox in the same process serves the credential MSAL has pinned to the first endpoint', async (t) => {
  const first = await sandbox(t);
  await first.stop();
  const second = await sandbox(t);
  process.env.IDENTITY_ENDPOINT = second.env.IDENTITY_ENDPOINT;
  const token = await new ManagedIdentityCredential().getToken('https://search.azure.com/.default');
  assert.equal(claims(token.token).aud, 'https://search.azure.com');
  assert.ok((await second.admin.requests({ service: 'identity' })).length >= 1, 'the newest sandbox answered');
});

test("client credentials: a token, then Entra's errors for a wrong secret, an unknown app, an expired secret, an unknown resource", async (t) => {
  const sb = await sandbox(t);
  const url = `${sb.urls.identity}/${sb.ids.tenantId}/oauth2/v2.0/token`;
  const [ci, , legacy] = sb.ids.servicePrincipals;
  const ok = await form(url, {
    grant_type: 'client_credentials',
    client_id: ci!.appId,
    client_secret: ci!.secret,
    scope: 'https://management.azure.com/.default',
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.token_type, 'Bearer');
  assert.ok(ok.body.expires_in > 3000 && ok.body.ext_expires_in);
  assert.equal(ok.body.refresh_token, undefined, 'client credentials give no refresh token');
  assert.equal(claims(ok.body.access_token).appid, ci!.appId);
  assert.deepEqual(claims(ok.body.access_token).roles, ['Tenant.Read.All'], 'app permissions travel in roles');
  const cases: Array<[Record<string, string>, number, string, number]> = [
    [{ client_id: ci!.appId, client_secret: 'nope', scope: 'https://search.azure.com/.default' }, 401, 'invalid_client', 7000215],
    [
      { client_id: '00000000-0000-0000-0000-00000000abcd', client_secret: 'x', scope: 'https://search.azure.com/.default' },
      400,
      'unauthorized_client',
      700016,
    ],
    [
      { client_id: legacy!.appId, client_secret: legacy!.secret, scope: 'https://search.azure.com/.default' },
      401,
      'invalid_client',
      7000222,
    ],
    [{ client_id: ci!.appId, client_secret: ci!.secret, scope: 'https://nothing.example.com/.default' }, 400, 'invalid_resource', 500011],
    [
      { client_id: ci!.appId, client_secret: ci!.secret, scope: 'https://search.azure.com/user_impersonation' },
      400,
      'invalid_scope',
      1002012,
    ],
  ];
  for (const [fields, status, error, code] of cases) {
    const r = await form(url, { grant_type: 'client_credentials', ...fields });
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.error, error);
    assert.deepEqual(r.body.error_codes, [code]);
    assert.match(r.body.error_description, new RegExp(`^AADSTS${code}: .+\\r\\nTrace ID: .+\\r\\nCorrelation ID: .+\\r\\nTimestamp: `));
    assert.ok(r.body.trace_id && r.body.correlation_id && r.body.timestamp);
  }
  const tenant = await form(`${sb.urls.identity}/contoso.example/oauth2/v2.0/token`, {
    grant_type: 'client_credentials',
    client_id: ci!.appId,
  });
  assert.deepEqual(tenant.body.error_codes, [90002]);
});

test('failure switches make sign-in fail like Entra, for one principal or for the managed identity', async (t) => {
  const sb = await sandbox(t);
  const url = `${sb.urls.identity}/${sb.ids.tenantDomain}/oauth2/v2.0/token`;
  const ci = sb.ids.servicePrincipals[0]!;
  await sb.admin.setSwitch('identity.failure', { code: 'AADSTS53003', principal: 'ci-deployer' });
  const blocked = await form(url, {
    grant_type: 'client_credentials',
    client_id: ci.appId,
    client_secret: ci.secret,
    scope: 'https://search.azure.com/.default',
  });
  assert.equal(blocked.status, 400);
  assert.equal(blocked.body.error, 'invalid_grant');
  assert.deepEqual(blocked.body.error_codes, [53003]);
  assert.match(blocked.body.error_description, /Conditional Access/);
  const mi = await fetch(`${sb.env.IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=https://search.azure.com`, {
    headers: { 'X-IDENTITY-HEADER': sb.env.IDENTITY_HEADER },
  });
  assert.equal(mi.status, 200, 'the switch names another principal');
  await sb.admin.setSwitch('identity.failure', { code: 'AADSTS50076', principal: sb.ids.serviceIdentity.objectId });
  const refused = await fetch(`${sb.env.IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=https://search.azure.com`, {
    headers: { 'X-IDENTITY-HEADER': sb.env.IDENTITY_HEADER },
  });
  assert.equal(refused.status, 400);
  assert.deepEqual((await refused.json()).error_codes, [50076]);
  const wrongHeader = await fetch(`${sb.env.IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=https://search.azure.com`, {
    headers: { 'X-IDENTITY-HEADER': 'forged' },
  });
  assert.equal(wrongHeader.status, 401);
});

test('authorization code with PKCE: the sign-in page lists users, the code redeems for id, access and refresh tokens', async (t) => {
  const sb = await sandbox(t);
  const base = `${sb.urls.identity}/${sb.ids.tenantId}/oauth2/v2.0`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirect = 'http://localhost:8080/api/auth/callback';
  const params = new URLSearchParams({
    client_id: sb.ids.consoleApp.appId,
    response_type: 'code',
    redirect_uri: redirect,
    scope: 'openid profile offline_access https://api.fabric.microsoft.com/.default',
    state: 's-1',
    nonce: 'n-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const pageRes = await fetch(`${base}/authorize?${params}`);
  assert.equal(pageRes.status, 200);
  const html = await pageRes.text();
  for (const u of sb.ids.users) assert.ok(html.includes(u.upn.replace(/#/g, '#')), u.upn);
  const signIn = async (user: string) =>
    fetch(`${base}/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...Object.fromEntries(params), user }),
    });
  const ada = sb.ids.users.find((u) => u.upn.startsWith('ada@'))!;
  const res = await signIn(ada.objectId);
  assert.equal(res.status, 302);
  const back = new URL(res.headers.get('location')!);
  assert.equal(back.origin + back.pathname, redirect);
  assert.equal(back.searchParams.get('state'), 's-1');
  const code = back.searchParams.get('code')!;
  const token = `${base}/token`;
  const redeem = (c: string, v: string) =>
    form(token, {
      grant_type: 'authorization_code',
      client_id: sb.ids.consoleApp.appId,
      code: c,
      redirect_uri: redirect,
      code_verifier: v,
    });
  const tokens = await redeem(code, verifier);
  assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  const id = claims(tokens.body.id_token);
  assert.equal(id.aud, sb.ids.consoleApp.appId);
  assert.equal(id.nonce, 'n-1');
  assert.equal(id.preferred_username, ada.upn);
  assert.equal(id.iss, `${sb.urls.identity}/${sb.ids.tenantId}/v2.0`);
  const discovery = (await call(`${sb.urls.identity}/${sb.ids.tenantId}/v2.0/.well-known/openid-configuration`)).body;
  assert.equal(discovery.issuer, id.iss);
  await jwtVerify(tokens.body.id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
    issuer: discovery.issuer,
    audience: sb.ids.consoleApp.appId,
  });
  assert.equal(claims(tokens.body.access_token).aud, 'https://analysis.windows.net/powerbi/api');
  assert.equal(claims(tokens.body.access_token).upn, ada.upn);
  assert.deepEqual((await redeem(code, verifier)).body.error_codes, [54005], 'a code is redeemed once');
  const second = new URL((await signIn(ada.objectId)).headers.get('location')!).searchParams.get('code')!;
  assert.deepEqual((await redeem(second, 'wrong-verifier')).body.error_codes, [501481]);
  const refreshed = await form(token, {
    grant_type: 'refresh_token',
    client_id: sb.ids.consoleApp.appId,
    refresh_token: tokens.body.refresh_token,
    scope: 'openid https://search.azure.com/.default',
  });
  assert.equal(refreshed.status, 200);
  assert.equal(claims(refreshed.body.access_token).aud, 'https://search.azure.com');
  assert.ok(refreshed.body.refresh_token);
});

test('sign-in refusals: MFA required (50076), a user not assigned to the app (50105), an unknown app (700016 on the page)', async (t) => {
  const sb = await sandbox(t);
  const base = `${sb.urls.identity}/${sb.ids.tenantId}/oauth2/v2.0/authorize`;
  const params = {
    client_id: sb.ids.consoleApp.appId,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:9/cb',
    scope: 'openid',
    state: 'x',
  };
  const signIn = (upn: string) =>
    fetch(base, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...params, user: sb.ids.users.find((u) => u.upn.startsWith(upn))!.objectId }),
    });
  const mfa = new URL((await signIn('mo@')).headers.get('location')!);
  assert.equal(mfa.searchParams.get('error'), 'interaction_required');
  assert.match(mfa.searchParams.get('error_description')!, /^AADSTS50076:/);
  const unassigned = new URL((await signIn('una@')).headers.get('location')!);
  assert.equal(unassigned.searchParams.get('error'), 'access_denied');
  assert.match(unassigned.searchParams.get('error_description')!, /^AADSTS50105:/);
  const guest = new URL((await signIn('pat_')).headers.get('location')!);
  assert.ok(guest.searchParams.get('code'), 'guests sign in');
  const unknown = await fetch(`${base}?${new URLSearchParams({ ...params, client_id: '11111111-1111-1111-1111-111111111111' })}`);
  assert.equal(unknown.status, 400);
  assert.match(await unknown.text(), /AADSTS700016/);
});

test("expired tokens are refused with each service's own 401", async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', -60);
  const fabric = await sb.admin.token({ audience: 'dataPlatform' });
  const dp = await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/items`, { token: fabric });
  assert.equal(dp.status, 401);
  assert.equal(dp.body.errorCode, 'TokenExpired');
  assert.equal(dp.headers.get('x-ms-public-api-error-code'), 'TokenExpired');
  const arm = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}?api-version=2024-04-13`, {
    token: await sb.admin.token({ audience: 'arm' }),
  });
  assert.equal(arm.status, 401);
  assert.equal(arm.body.error.code, 'ExpiredAuthenticationToken');
  const v1 = await form(`${sb.urls.identity}/${sb.ids.tenantId}/oauth2/token`, {
    grant_type: 'client_credentials',
    client_id: sb.ids.servicePrincipals[0]!.appId,
    client_secret: sb.ids.servicePrincipals[0]!.secret,
    resource: 'https://management.azure.com/',
  });
  assert.equal(claims(v1.body.access_token).aud, 'https://management.azure.com/', 'the v1 endpoint takes resource=');
});
