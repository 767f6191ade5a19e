// The deployment templates under infra/: the ARM JSON is well formed, it sets only settings the service reads, with
// values loadConfig and the cloud selection accept for every cloud it offers, it matches its Bicep source, and the
// dedicated set's output is a valid targetOverrides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, SETTINGS } from '../src/config.js';
import { selectCloud } from '../src/cloud/profiles.js';
import { cloudOf } from './helpers.js';
import { TargetOverridesSchema } from '../src/install/schemas.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const infra = (name: string) => path.join(root, 'infra', name);
const readJson = (name: string) => JSON.parse(fs.readFileSync(infra(name), 'utf8'));

/** Settings of the App Service platform itself, not read by the service. */
const PLATFORM_SETTINGS = new Set(['SCM_DO_BUILD_DURING_DEPLOYMENT']);

/** Every string in a template, with where it is. */
function* strings(value: unknown, at = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${at}[${i}]`);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, `${at}.${k}`);
}

function checkTemplate(name: string) {
  const t = readJson(name);
  assert.match(t.$schema, /deploymentTemplate\.json#$/, `${name}: $schema`);
  const params = new Set(Object.keys(t.parameters));
  const variables = new Set(Object.keys(t.variables ?? {}));
  for (const [at, s] of strings({ variables: t.variables, resources: t.resources, outputs: t.outputs, parameters: t.parameters })) {
    if (!s.startsWith('[') || s.startsWith('[[')) continue;
    assert.ok(s.endsWith(']'), `${name}${at}: an expression ends with ]`);
    let depth = 0;
    for (const ch of s.replace(/'(?:[^']|'')*'/g, "''")) {
      depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
      assert.ok(depth >= 0, `${name}${at}: parentheses`);
    }
    assert.equal(depth, 0, `${name}${at}: parentheses balance in ${s}`);
    for (const m of s.matchAll(/parameters\('([^']+)'\)/g)) assert.ok(params.has(m[1]!), `${name}${at}: unknown parameter ${m[1]}`);
    for (const m of s.matchAll(/variables\('([^']+)'\)/g)) assert.ok(variables.has(m[1]!), `${name}${at}: unknown variable ${m[1]}`);
  }
  // Every dependsOn names a resource the template declares.
  const declared = t.resources.map((r: any) => r.type);
  for (const r of t.resources) {
    for (const d of r.dependsOn ?? []) {
      const type = /resourceId\('([^']+)'/.exec(d)?.[1];
      assert.ok(type && declared.includes(type), `${name}: ${r.type} depends on undeclared ${d}`);
    }
  }
  return t;
}

/** What the parameters whose default is an expression default to, deployed in commercial Azure in East US. */
const EXPRESSION_DEFAULTS: Record<string, string> = { cloud: 'commercial', location: 'eastus', kqlLocation: 'eastus' };

/** The value an app setting takes at deployment, for settings whose value is a plain parameter or literal. */
function settingValue(t: any, raw: string, overrides: Record<string, unknown>): string | undefined {
  if (!raw.startsWith('[')) return raw;
  const param = /^\[(string\()?parameters\('([^']+)'\)\)?\]$/.exec(raw);
  if (!param) return undefined;
  const name = param[2]!;
  const value = name in overrides ? overrides[name] : t.parameters[name].defaultValue;
  if (typeof value === 'string' && value.startsWith('[')) {
    assert.ok(name in EXPRESSION_DEFAULTS, `parameter ${name}: give the test the value its default "${value}" takes`);
    return EXPRESSION_DEFAULTS[name];
  }
  return value === undefined ? undefined : String(value);
}

/** Values for the settings computed at deployment (resource references), as they look once deployed. */
const DEPLOYED: Record<string, string> = {
  DATABASE_URL: 'postgres://svcadmin:p%40ss@svcprod-pg.postgres.database.azure.com:5432/svc?sslmode=require',
  SVC_BOOTSTRAP_TOKEN: `svc_pat_abcdef12_${'A1'.repeat(20)}`,
  SVC_PUBLIC_URL: 'https://svcprod-svc.azurewebsites.net',
  SVC_TENANT_ID: '00000000-0000-0000-0000-000000000001',
};

test('the service template is well formed and its app settings are settings the service reads', () => {
  const t = checkTemplate('main.json');
  const config = t.resources.find((r: any) => r.type === 'Microsoft.Web/sites/config' && /'appsettings'/.test(r.name));
  assert.ok(config, 'an appsettings resource');
  const names = Object.keys(config.properties);
  for (const name of names) {
    if (PLATFORM_SETTINGS.has(name)) continue;
    assert.ok(SETTINGS.includes(name), `${name} is not a setting the service reads (config.ts SETTINGS)`);
  }
  for (const name of ['SVC_CLOUD', 'SVC_PUBLIC_URL', 'DATABASE_URL', 'SVC_BOOTSTRAP_TOKEN', 'SVC_IDENTITY', 'SVC_TRUST_PROXY'])
    assert.ok(names.includes(name), `sets ${name}`);
  // The secrets are key vault references, never values in the template.
  for (const name of ['DATABASE_URL', 'SVC_BOOTSTRAP_TOKEN']) assert.match(config.properties[name], /@Microsoft\.KeyVault\(SecretUri=/);
  assert.equal(t.parameters.postgresAdminPassword.type, 'securestring');
  assert.equal(t.parameters.bootstrapToken.type, 'securestring');

  // For every cloud the template offers and each end of the ranges it allows, the service accepts the settings.
  const variants: Array<Record<string, unknown>> = [
    ...t.parameters.cloud.allowedValues.map((cloud: string) => ({ cloud })),
    ...t.parameters.logLevel.allowedValues.map((logLevel: string) => ({ logLevel })),
    { provisionConcurrency: t.parameters.provisionConcurrency.minValue },
    { provisionConcurrency: t.parameters.provisionConcurrency.maxValue },
    {
      kqlClusterUri: 'https://svcprodkql.eastus.kusto.windows.net',
      kqlClusterResourceId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Kusto/clusters/svcprodkql',
    },
  ];
  for (const overrides of variants) {
    const env: Record<string, string> = {};
    for (const [name, raw] of Object.entries(config.properties as Record<string, string>)) {
      if (PLATFORM_SETTINGS.has(name)) continue;
      const value = settingValue(t, raw, overrides) ?? DEPLOYED[name];
      assert.ok(value !== undefined, `${name}: give the test the value "${raw}" takes once deployed`);
      env[name] = value;
    }
    const loaded = loadConfig(env);
    const profile = selectCloud(loaded.cloud);
    if ('cloud' in overrides) assert.equal(profile.name, overrides.cloud);
    if ('provisionConcurrency' in overrides) assert.equal(loaded.install.concurrency, overrides.provisionConcurrency);
    assert.equal(loaded.store.databaseUrl, DEPLOYED.DATABASE_URL);
    assert.equal(loaded.auth.bootstrapToken, DEPLOYED.SVC_BOOTSTRAP_TOKEN);
  }
});

test('the ARM JSON and its Bicep source declare the same parameters, app settings and outputs', () => {
  for (const [json, bicep] of [
    ['main.json', 'main.bicep'],
    ['dedicated-set.json', 'dedicated-set.bicep'],
  ] as const) {
    const t = readJson(json);
    const source = fs.readFileSync(infra(bicep), 'utf8');
    const bicepParams = [...source.matchAll(/^param (\w+) /gm)].map((m) => m[1]).sort();
    assert.deepEqual(Object.keys(t.parameters).sort(), bicepParams, `${json} parameters`);
    const bicepOutputs = [...source.matchAll(/^output (\w+) /gm)].map((m) => m[1]).sort();
    assert.deepEqual(Object.keys(t.outputs).sort(), bicepOutputs, `${json} outputs`);
    const types = (t.resources as any[]).map((r) => r.type).sort();
    const bicepTypes = [...source.matchAll(/^resource \w+ '([^@']+)@/gm)].map((m) => m[1]).sort();
    assert.deepEqual(types, bicepTypes, `${json} resource types`);
    for (const r of t.resources as any[]) {
      const version = [...source.matchAll(new RegExp(`'${r.type.replace(/\//g, '\\/')}@([0-9-]+(?:-preview)?)'`, 'g'))].map((m) => m[1]);
      assert.ok(version.includes(r.apiVersion), `${json}: ${r.type} at ${r.apiVersion} as in ${bicep}`);
    }
  }
  const settings = readJson('main.json').resources.find((r: any) => r.type === 'Microsoft.Web/sites/config').properties;
  const block = /resource appSettings[\s\S]*?properties: \{([\s\S]*?)\n {2}\}/.exec(fs.readFileSync(infra('main.bicep'), 'utf8'))![1]!;
  const bicepSettings = [...block.matchAll(/^\s+(\w+):/gm)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(settings).sort(), bicepSettings);
});

test('the dedicated set is well formed and its targetOverrides output is a valid install targetOverrides', () => {
  const t = checkTemplate('dedicated-set.json');
  const value: string = t.outputs.targetOverrides.value;
  // createObject('name', value, …): the quoted words followed by a comma are the field names.
  const fields = [...value.matchAll(/'(\w+)', /g)].map((m) => m[1]!);
  const allowed = Object.keys(TargetOverridesSchema.properties);
  assert.ok(fields.length >= 5);
  for (const f of fields) assert.ok(allowed.includes(f), `${f} is a targetOverrides field`);
  for (const f of [
    'kqlClusterUri',
    'kqlDatabase',
    'searchService',
    'lakeAccount',
    'lakeContainer',
    'warehouseWorkspace',
    'warehouseServer',
    'warehouseDatabase',
  ]) {
    assert.ok(fields.includes(f), `the output fills ${f}`);
  }
  // The identity gets each grant a gate asks for.
  const grants = t.resources
    .filter((r: any) => r.type === 'Microsoft.Authorization/roleAssignments')
    .map((r: any) => /variables\('roles'\)\.(\w+)/.exec(r.properties.roleDefinitionId)![1]);
  assert.deepEqual(grants.sort(), ['contributor', 'searchIndexDataContributor', 'searchServiceContributor', 'storageBlobDataContributor']);
  const admin = t.resources.find((r: any) => r.type === 'Microsoft.Kusto/clusters/principalAssignments');
  assert.equal(admin.properties.role, 'AllDatabasesAdmin');
  assert.equal(admin.properties.principalType, 'App');
  assert.deepEqual(t.parameters.cloud.allowedValues, ['commercial', 'gcc', 'gcc-high', 'dod']);
  for (const cloud of t.parameters.cloud.allowedValues) {
    // The search address the output builds is one the cloud lets the service's token go to.
    const suffix = t.variables.searchSuffix[cloud];
    assert.ok(
      cloudOf({ SVC_CLOUD: cloud }).allowedSuffixes.some((s) => `x.${suffix}`.endsWith(s)),
      `${cloud}: ${suffix}`,
    );
  }
});

test('every setting the service reads is documented in README "Configuration"', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
  for (const name of SETTINGS) assert.ok(section.includes(`\`${name}\``), `${name} in README`);
});
