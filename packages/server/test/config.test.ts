// The configuration: config.ts alone reads the environment, every setting it reads is declared once and listed in
// README "Configuration" (generated from the declarations), and a bad value stops the start naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, DECLARED, loadConfig, SETTINGS } from '../src/config.js';
import type { SettingKind } from '../src/config/setting.js';
import { traceExport } from '../src/config/tracing.js';
import { configTable, README_PATH, tableIn } from '../../../scripts/gen-readme-config.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** Every TypeScript file of the service, as [path relative to src, text]; cli/ is the `svc` command, a program of its own. */
function serviceFiles(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== path.join(SRC, 'cli')) walk(p);
        continue;
      }
      if (p.endsWith('.ts')) out.push([path.relative(SRC, p), fs.readFileSync(p, 'utf8')]);
    }
  };
  walk(SRC);
  return out;
}

// process.env (also as process['env'] or an import of env from node:process), or a member read on anything named env.
const READS_ENVIRONMENT =
  /process\s*\.\s*env\b|process\s*\[\s*['"]env['"]\s*\]|\{[^}]*\benv\b[^}]*\}\s*from\s*['"](?:node:)?process['"]|(?<![\w$])env\s*(?:\?\.|\.|\[)/g;

test('only config.ts reads the environment; main.ts writes it once, for @azure/identity', () => {
  const files = serviceFiles();
  assert.ok(files.length > 100, `walked ${files.length} files`);
  const config = files.find(([f]) => f === 'config.ts')![1];
  assert.ok((config.match(READS_ENVIRONMENT) ?? []).length >= 2, 'the check finds config.ts’s own reads (process.env, env[name])');
  for (const [file, text] of files) {
    if (file === 'config.ts') continue;
    const found = [...text.matchAll(READS_ENVIRONMENT)].map((m) => text.slice(m.index, text.indexOf('\n', m.index)).trim());
    if (file === 'main.ts') {
      // The one write: the in-process sandbox's managed-identity endpoint, for @azure/identity's ManagedIdentityCredential.
      assert.deepEqual(found, ['process.env[name] = sandboxEnv[name];'], 'main.ts only assigns process.env, in pointManagedIdentityAt');
      continue;
    }
    assert.deepEqual(found, [], `${file} reads the environment: read and type the setting in config.ts and pass the typed piece`);
  }
});

test('the check above catches each way of reading the environment', () => {
  const reads = [
    'const a = process.env.SVC_X;',
    "process['env'].X",
    "import { env } from 'node:process';",
    'options.env.SVC_X',
    'env[name]',
    'env?.SVC_X',
  ];
  for (const line of reads) assert.ok(line.match(READS_ENVIRONMENT), line);
  for (const line of ['const sandboxEnv = started.env;', 'this.envSet = set;', 'loadConfigOver(started.env)'])
    assert.equal(line.match(READS_ENVIRONMENT), null, line);
});

test('README "Configuration" lists exactly the declared settings, each once, as config.ts describes them', () => {
  const readme = fs.readFileSync(README_PATH, 'utf8').split('\n');
  const { start, end } = tableIn(readme);
  const rows = readme.slice(start + 2, end);
  const listed = rows.map((r) => [...r.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)).flat();
  assert.equal(new Set(SETTINGS).size, SETTINGS.length, 'each setting is declared once');
  assert.equal(new Set(listed).size, listed.length, 'each setting is listed once');
  assert.deepEqual([...listed].sort(), [...SETTINGS].sort(), 'README lists the declared settings, no more, no fewer');
  assert.deepEqual(readme.slice(start, end), configTable(), 'README differs from the declarations: run npm run gen:readme-config');
});

/** A value each kind of validated setting refuses. */
const REFUSED: Partial<Record<SettingKind, string>> = {
  integer: 'twelve',
  url: 'not a url',
  choice: 'no-such-choice',
  flag: 'yes',
  pattern: 'short',
  directory: '/no/such/svc-directory',
};

test('a value a setting refuses stops the start with a ConfigError naming that setting', () => {
  let tried = 0;
  for (const s of DECLARED) {
    const bad = REFUSED[s.kind];
    if (!bad) continue;
    // With a client id, an SVC_OIDC_* value is read for itself (without one, any of them names SVC_OIDC_CLIENT_ID).
    assert.throws(
      () => loadConfig({ SVC_OIDC_CLIENT_ID: 'c', [s.name]: bad }),
      (e: unknown) => e instanceof ConfigError && e.variable === s.name,
      `${s.name}=${bad}`,
    );
    tried++;
  }
  assert.ok(tried >= 35, `${tried} validated settings`);
  for (const [name, bad] of [
    ['PORT', '70000'],
    ['SVC_OIDC_TENANTS', 'contoso=default'],
    ['SVC_OIDC_SCOPES', 'read,operator'],
    ['DATABASE_URL', 'mysql://db/svc'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'api-key'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'api-key=%zz'],
    ['SVC_TRACE_SAMPLE_PERCENT', '101'],
  ]) {
    assert.throws(
      () => loadConfig({ SVC_OIDC_CLIENT_ID: 'c', [name!]: bad }),
      (e: unknown) => e instanceof ConfigError && e.variable === name,
      `${name}=${bad}`,
    );
  }
});

test('defaults, empty values and the settings that depend on others', () => {
  const none = loadConfig({});
  assert.equal(none.server.port, 8080);
  assert.equal(none.server.trustProxy, false);
  assert.equal(none.cloud.name, 'sandbox');
  assert.deepEqual(none.identity, { kind: 'managed', clientId: undefined });
  assert.equal(none.sharedSet.kqlLocation, 'eastus');
  assert.deepEqual(none.oidc.userScopes, ['read', 'write', 'install', 'reports', 'tokens']);
  assert.equal(none.oidc.tenant, 'organizations');
  assert.equal(none.store.dataDir, path.resolve('.svc-data'));
  // An empty value is unset.
  assert.equal(loadConfig({ PORT: '', SVC_LOG_LEVEL: '', SVC_DEFAULT_PLATFORM_WORKSPACE: '' }).server.port, 8080);
  assert.equal(loadConfig({ SVC_LOG_LEVEL: '' }).server.logLevel, 'info');
  assert.equal(loadConfig({ SVC_DEFAULT_PLATFORM_WORKSPACE: '' }).sharedSet.platformWorkspaceId, undefined);
  // Tracing is off unless an exporter is named; the OTLP endpoint takes spans at /v1/traces unless the traces one is set.
  assert.deepEqual(traceExport(none.tracing), {});
  const otlp = loadConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
    OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db, x-team = ops',
  });
  assert.deepEqual(traceExport(otlp.tracing), { otlpUrl: 'http://collector:4318/v1/traces' });
  assert.deepEqual(otlp.tracing.otlpHeaders, [
    ['api-key', 'a=b'],
    ['x-team', 'ops'],
  ]);
  assert.equal(
    traceExport(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/traces' }).tracing,
    ).otlpUrl,
    'https://c/traces',
  );

  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://analytics.agency.gov/' }).cloud.name, 'gcc', 'the cloud from the deployment address');
  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://analytics.agency.gov/' }).server.publicUrl, 'https://analytics.agency.gov');
  assert.equal(loadConfig({ SVC_TENANT_ID: 'tid-1' }).oidc.tenant, 'tid-1', 'the sign-in tenant defaults to SVC_TENANT_ID');
  assert.equal(loadConfig({ SVC_TENANT_ID: 'tid-1', SVC_OIDC_CLIENT_ID: 'c', SVC_OIDC_TENANT: ' tid-2 ' }).oidc.tenant, 'tid-2');
  assert.throws(
    () => loadConfig({ SVC_OIDC_ISSUERR: 'https://x' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_OIDC_CLIENT_ID' && /SVC_OIDC_ISSUERR/.test(e.message),
    'a misspelt SVC_OIDC_* means sign-in was meant',
  );
  const oidc = loadConfig({
    SVC_OIDC_CLIENT_ID: 'c',
    SVC_OIDC_TENANTS: '6F0C7C4D-0D5B-4E9C-9B3C-2E1A7E2D1C00=contoso',
    SVC_OIDC_ADMINS: 'Ada@Example.com, 1234',
  }).oidc;
  assert.deepEqual([...oidc.tenants], [['6f0c7c4d-0d5b-4e9c-9b3c-2e1a7e2d1c00', 'contoso']]);
  assert.deepEqual([...oidc.admins], ['ada@example.com', '1234']);

  const pool = loadConfig({
    SVC_WAREHOUSE_WORKSPACE: 'ws',
    SVC_WAREHOUSE_DEDICATED_POOL: 'pool1',
    SVC_KQL_CLUSTER_URI: 'https://c.kusto.windows.net/',
  }).sharedSet;
  assert.equal(pool.warehouseDatabase, 'pool1', 'the warehouse database defaults to the pool');
  assert.equal(pool.kqlClusterUri, 'https://c.kusto.windows.net');
  assert.equal(loadConfig({ SVC_WAREHOUSE_DEDICATED_POOL: 'pool1', SVC_WAREHOUSE_DATABASE: 'db1' }).sharedSet.warehouseDatabase, 'db1');

  const secret = { SVC_IDENTITY: 'client-secret', AZURE_TENANT_ID: 't', AZURE_CLIENT_ID: 'c', AZURE_CLIENT_SECRET: 's' };
  assert.deepEqual(loadConfig(secret).identity, { kind: 'client-secret', tenantId: 't', clientId: 'c', clientSecret: 's' });
  assert.throws(
    () => loadConfig({ ...secret, AZURE_CLIENT_SECRET: '' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_IDENTITY' && /AZURE_CLIENT_SECRET/.test(e.message),
  );
  assert.throws(
    () => loadConfig({ SVC_IDENTITY: 'client-certificate', AZURE_TENANT_ID: 't', AZURE_CLIENT_ID: 'c' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_IDENTITY' && /AZURE_CLIENT_CERTIFICATE_PATH/.test(e.message),
  );
  assert.equal(loadConfig({ SVC_TRUST_PROXY: 'true' }).server.trustProxy, true);
  assert.equal(
    loadConfig({ SVC_DATA_PLATFORM_API_URL: 'https://api.fabric.example.us/v1/' }).cloud.overrides.dataPlatformApiUrl,
    'https://api.fabric.example.us/v1',
  );
});
