import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claims, sandbox } from './helpers.js';
import { httpsJson, runSdkScript } from './sdk-helpers.js';

test('@azure/identity against the https sandbox: ClientSecretCredential (127.0.0.1 and localhost authorities), ManagedIdentityCredential, a wrong secret → AADSTS7000215', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-identity-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const sb = await sandbox(t, { tls: true, dataDir: dir });
  const sp = sb.ids.servicePrincipals[0]!;
  const out = await runSdkScript(sb, 'identity.ts');

  assert.ok('ok' in out.clientSecret!, JSON.stringify(out.clientSecret));
  const secretToken = out.clientSecret.ok as string;
  const c = claims(secretToken);
  assert.deepEqual([c.aud, c.appid, c.tid, c.appidacr, c.idtyp], ['https://search.azure.com', sp.appId, sb.ids.tenantId, '1', 'app']);
  // The token is the sandbox's own: the search emulator accepts it (403 without a role, not 401).
  assert.equal(
    (
      await httpsJson(`${sb.urls.search}/indexes?api-version=2024-07-01`, sb.tls!.ca, {
        headers: { authorization: `Bearer ${secretToken}` },
      })
    ).status,
    403,
  );

  assert.ok(
    'ok' in out.clientSecretAtLocalhost!,
    `MSAL validates the discovered issuer against the authority's host: ${JSON.stringify(out.clientSecretAtLocalhost)}`,
  );
  assert.equal(claims(out.clientSecretAtLocalhost.ok as string).aud, 'https://management.azure.com');

  assert.ok('ok' in out.managedIdentity!, JSON.stringify(out.managedIdentity));
  const mi = claims(out.managedIdentity.ok as string);
  assert.deepEqual([mi.aud, mi.oid, mi.appid], ['https://search.azure.com', sb.ids.serviceIdentity.objectId, sb.ids.serviceIdentity.appId]);

  // MSAL throws a ServerError for the 401; @azure/identity 4.x wraps it as AuthenticationRequiredError with MSAL's text.
  assert.ok('error' in out.wrongSecret!, 'a wrong secret fails');
  const e = out.wrongSecret.error;
  assert.equal(e.name, 'AuthenticationRequiredError');
  assert.match(
    e.message,
    /^invalid_client: Error\(s\): 7000215 - .*AADSTS7000215: Invalid client secret provided\. .*for a secret added to app '[0-9a-f-]{36}'/,
  );
  assert.ok(e.message.includes(sp.appId) && !e.message.includes(sp.secret), 'names the app, never the secret');

  const log = await sb.admin.requests({ service: 'identity' });
  const paths = log.map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`);
  assert.ok(paths.includes(`GET /${sb.ids.tenantId}/v2.0/.well-known/openid-configuration 200`), paths.join('\n'));
  assert.ok(paths.includes(`POST /${sb.ids.tenantId}/oauth2/v2.0/token 401`), paths.join('\n'));
  assert.ok(paths.includes('GET /msi/token 200'), paths.join('\n'));
});
