import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from 'tedious';
import { sandbox } from './helpers.js';
import { httpsJson } from './sdk-helpers.js';

const tempDir = (t: { after(fn: () => void): void }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-tls-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

test('with tls every HTTP emulator answers https under a test CA the sandbox writes to its data directory and names in NODE_EXTRA_CA_CERTS', async (t) => {
  const dir = tempDir(t);
  const sb = await sandbox(t, { tls: true, dataDir: dir });
  assert.equal(sb.env.NODE_EXTRA_CA_CERTS, path.join(dir, 'tls', 'ca.pem'));
  assert.equal(fs.readFileSync(sb.env.NODE_EXTRA_CA_CERTS, 'utf8'), sb.tls!.ca);
  const ca = new X509Certificate(sb.tls!.ca);
  assert.equal(ca.ca, true);
  const server = new X509Certificate(fs.readFileSync(path.join(dir, 'tls', 'server.pem')));
  assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey), 'the server certificate is signed by the CA');
  assert.equal(server.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  // The TDS endpoints (the warehouse's, the serverless pool's) are host:port; they offer TLS inside TDS.
  const { managedIdentity, sql, sqlServerless, ...https } = sb.urls;
  assert.match(managedIdentity, /^http:\/\/127\.0\.0\.1:\d+$/, "the managed-identity endpoint stays http, as App Service's and IMDS are");
  for (const [name, url] of Object.entries(https)) {
    assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/, name);
    const localhost = url.replace('127.0.0.1', 'localhost');
    for (const u of [url, localhost]) assert.ok((await httpsJson(`${u}/`, sb.tls!.ca)).status > 0, `${name} at ${u}`);
  }
  await assert.rejects(
    httpsJson(`${sb.urls.identity}/`, undefined),
    /unable to verify the first certificate|self-signed certificate|unable to get local issuer/,
    'untrusted without the CA',
  );
});

test('discovery documents name the address the request came to: issuer and endpoints, instance discovery, the KQL auth metadata', async (t) => {
  const sb = await sandbox(t, { tls: true, dataDir: tempDir(t) });
  const tid = sb.ids.tenantId;
  for (const origin of [sb.urls.identity, sb.urls.identity.replace('127.0.0.1', 'localhost')]) {
    const oidc = (await httpsJson(`${origin}/${tid}/v2.0/.well-known/openid-configuration`, sb.tls!.ca)).body;
    assert.equal(oidc.issuer, `${origin}/${tid}/v2.0`);
    assert.equal(oidc.token_endpoint, `${origin}/${tid}/oauth2/v2.0/token`);
    assert.equal(oidc.jwks_uri, `${origin}/${tid}/discovery/v2.0/keys`);
    assert.equal(oidc.authorization_endpoint, `${origin}/${tid}/oauth2/v2.0/authorize`);
    const keys = (await httpsJson(oidc.jwks_uri, sb.tls!.ca)).body;
    assert.equal(keys.keys[0].issuer, oidc.issuer);
    const instance = (
      await httpsJson(
        `${origin}/common/discovery/instance?api-version=1.1&authorization_endpoint=${origin}/${tid}/oauth2/v2.0/authorize`,
        sb.tls!.ca,
      )
    ).body;
    assert.equal(instance.tenant_discovery_endpoint, `${origin}/${tid}/v2.0/.well-known/openid-configuration`);
    assert.deepEqual(instance.metadata[0].aliases, [new URL(origin).host]);
  }
  const kqlLocal = sb.urls.kql.replace('127.0.0.1', 'localhost');
  const meta = (await httpsJson(`${kqlLocal}/v1/rest/auth/metadata`, sb.tls!.ca)).body;
  assert.equal(meta.AzureAD.LoginEndpoint, sb.urls.identity.replace('127.0.0.1', 'localhost'));
  assert.equal(meta.dSTS.KustoDnsHostName, new URL(kqlLocal).host);
  assert.equal((await httpsJson(`${sb.urls.kql}/v1/rest/auth/metadata`, sb.tls!.ca)).body.AzureAD.LoginEndpoint, sb.urls.identity);
});

test('the CA in the data directory is kept across restarts (an exported NODE_EXTRA_CA_CERTS stays valid); the server certificate is new', async (t) => {
  const dir = tempDir(t);
  const first = await sandbox(t, { tls: true, dataDir: dir });
  const firstServer = fs.readFileSync(path.join(dir, 'tls', 'server.pem'), 'utf8');
  await first.stop();
  const second = await sandbox(t, { tls: true, dataDir: dir });
  assert.equal(second.tls!.ca, first.tls!.ca);
  assert.notEqual(fs.readFileSync(path.join(dir, 'tls', 'server.pem'), 'utf8'), firstServer);
  assert.equal((await httpsJson(`${second.urls.identity}/`, first.tls!.ca)).status, 200);
});

test('the TDS endpoint offers TLS under the same CA to a client that asks for encryption and validates the certificate', async (t) => {
  const sb = await sandbox(t, { tls: true, dataDir: tempDir(t) });
  const token = await sb.admin.token({ audience: 'https://database.windows.net/' });
  const [host, port] = sb.urls.sql.split(':');
  const connect = (ca?: string) =>
    new Promise<Connection>((resolve, reject) => {
      const conn = new Connection({
        server: host!,
        authentication: { type: 'azure-active-directory-access-token', options: { token } },
        options: {
          port: Number(port),
          database: sb.ids.warehousePool,
          encrypt: true,
          trustServerCertificate: false,
          cryptoCredentialsDetails: ca ? { ca } : {},
          maxRetriesOnTransientErrors: 0,
          connectTimeout: 5000,
        },
      });
      conn.connect((err) => (err ? reject(err) : resolve(conn)));
    });
  const conn = await connect(sb.tls!.ca);
  conn.close();
  await assert.rejects(connect(), /unable to verify the first certificate|self-signed certificate|unable to get local issuer/);
});

test('without tls the sandbox serves http as before and writes no files', async (t) => {
  const sb = await sandbox(t);
  assert.match(sb.urls.identity, /^http:\/\//);
  assert.equal(sb.tls, undefined);
  assert.equal(sb.env.NODE_EXTRA_CA_CERTS, undefined);
});
