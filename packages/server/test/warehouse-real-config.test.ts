import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { startTdsServer, type SqlTable } from '../../sandbox/src/sql/index.js';

const HOST = 'popmgt-ws.sql.azuresynapse.net';
const MI = 'svc-workspace-mi';
const src = (p: string) => fileURLToPath(new URL(`../src/${p}`, import.meta.url));

/** A test CA and a certificate for HOST signed by it (openssl CLI). */
function certificates(dir: string) {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=DNS:${HOST}\n`);
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=Warehouse Test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${HOST}`, '-keyout', 'server.key', '-out', 'server.csr');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    'server.pem',
    '-extfile',
    'ext.cnf',
  );
}

/**
 * The child is a service process configured for the commercial cloud: the warehouse is a Synapse host, the token's
 * audience is the cloud's SQL audience, TLS is validated against the trust store (NODE_EXTRA_CA_CERTS). Only DNS is
 * pointed at loopback, as a hosts-file entry would.
 */
const CHILD = `
import dns from 'node:dns';
const lookup = dns.lookup;
dns.lookup = (host, options, cb) => host === process.env.WAREHOUSE_HOST ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : lookup(host, options, cb);
const { selectCloud } = await import(process.env.SRC_PROFILES);
const { loadConfig } = await import(process.env.SRC_CONFIG);
const { BackingPipeline } = await import(process.env.SRC_PIPELINE);
const { OneLakeClient } = await import(process.env.SRC_ONELAKE);
const { resolveTarget } = await import(process.env.SRC_TARGETS);
const { runProvisioner } = await import(process.env.SRC_RUNNER);
const { loadApp, DEFAULT_CATALOG_DIR } = await import(process.env.SRC_CATALOG);
const { expandSeedTokens } = await import(process.env.SRC_SEEDS);
const app = loadApp(DEFAULT_CATALOG_DIR + '/app-healthcare-popmgt');
const item = app.items.find((i) => i.itemType === 'warehouse');
const config = loadConfig({ SVC_CLOUD: 'commercial', SVC_WAREHOUSE_WORKSPACE: 'popmgt-ws', SVC_WAREHOUSE_DEDICATED_POOL: 'popmgtpool', SVC_WAREHOUSE_SERVER: process.env.WAREHOUSE_HOST + ':' + process.env.WAREHOUSE_PORT });
const profile = selectCloud(config.cloud);
const credential = { principal: 'managed', getToken: async (aud) => { if (aud !== profile.sqlAudience) throw new Error('unexpected audience ' + aud); return process.env.TOKEN; } };
const target = resolveTarget(profile, config.sharedSet, 'shared');
const pipeline = new BackingPipeline(profile, credential, { timeoutMs: 5000, retryDelayMs: 10, concurrencyPerService: 4 });
const result = await runProvisioner({ app, item, content: expandSeedTokens(item.content, new Date()), storedItemId: 'i', target, profile, backends: { pipeline, oneLake: new OneLakeClient(pipeline, profile.oneLakeUrl, profile.storageAudience) }, dependency: (k) => (k === 'clinical-lakehouse' ? { status: 'created', resourceId: 'lh-1', secondaryIds: { platformWorkspaceId: 'ws-1' }, steps: [] } : undefined), contentOf: (k) => app.items.find((i) => i.key === k)?.content });
process.stdout.write(JSON.stringify(result));
`;

test('the same provisioner reaches a real-cloud-shaped server (commercial cloud, Synapse host, validated TLS) by configuration alone', async (t) => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
  } catch {
    return t.skip('openssl CLI not available');
  }
  const dir = mkdtempSync(join(tmpdir(), 'warehouse-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  certificates(dir);
  const keys = await generateKeyPair('RS256');
  const server = await startTdsServer({
    databases: ['popmgtpool'],
    grants: [MI],
    requireEncryption: true,
    tls: { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) },
    verifyToken: async (jwt) => (await jwtVerify(jwt, keys.publicKey)).payload as any,
  });
  t.after(() => server.stop());
  const token = await new SignJWT({ aud: 'https://database.windows.net/', oid: 'oid-mi', appid: 'app-mi', name: MI })
    .setProtectedHeader({ alg: 'RS256' })
    .setExpirationTime('1h')
    .sign(keys.privateKey);

  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      TOKEN: token,
      WAREHOUSE_HOST: HOST,
      WAREHOUSE_PORT: String(server.port),
      SRC_PROFILES: src('cloud/profiles.ts'),
      SRC_PIPELINE: src('backends/http-pipeline.ts'),
      SRC_ONELAKE: src('backends/onelake.ts'),
      SRC_TARGETS: src('provisioning/targets.ts'),
      SRC_CONFIG: src('config.ts'),
      SRC_RUNNER: src('install/runner.ts'),
      SRC_CATALOG: src('catalog/index.ts'),
      SRC_SEEDS: src('catalog/seed-tokens.ts'),
    },
  });
  const result = JSON.parse(stdout);
  assert.equal(result.status, 'created', stdout);
  assert.match(result.steps[0], new RegExp(`^connected to ${HOST.replace(/\./g, '\\.')}:\\d+, database popmgtpool \\(TLS\\)$`));
  assert.deepEqual(
    server.logins.map((l) => [l.ok, l.encrypted]),
    [[true, true]],
  );
  assert.equal((server.object('popmgtpool', 'mart.care_gaps') as SqlTable).rows.length, 12);
  // The lakehouse is read through OneLake's public host, the platform workspace its container.
  assert.deepEqual(server.view().databases[0]!.dataSources, [
    { name: 'onelake_ws1', type: 'HADOOP', location: 'abfss://ws-1@onelake.dfs.fabric.microsoft.com' },
  ]);
});
