// Reading the deployment templates under infra/ for test/infra.test.ts: the template checks every ARM JSON passes, and the
// service's environment main.json's app settings make.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
export const infra = (name: string) => path.join(root, 'infra', name);
export const readJson = (name: string) => JSON.parse(fs.readFileSync(infra(name), 'utf8'));

/** Settings of the App Service platform itself, not read by the service. */
export const PLATFORM_SETTINGS = new Set(['SCM_DO_BUILD_DURING_DEPLOYMENT']);

/** Every string in a template, with where it is. */
function* strings(value: unknown, at = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${at}[${i}]`);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, `${at}.${k}`);
}

/** Reads an ARM template of infra/ and checks its expressions, parameters, variables and dependsOn are well formed. */
export function checkTemplate(name: string) {
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
export const DEPLOYED: Record<string, string> = {
  DATABASE_URL: 'postgres://svcadmin:p%40ss@svcprod-pg.postgres.database.azure.com:5432/svc?sslmode=require',
  SVC_BOOTSTRAP_TOKEN: `svc_pat_abcdef12_${'A1'.repeat(20)}`,
  SVC_PUBLIC_URL: 'https://svcprod-svc.azurewebsites.net',
  SVC_TENANT_ID: '00000000-0000-0000-0000-000000000001',
};

/** The service's environment main.json's app settings make, with parameter values `overrides`. */
export function appSettings(t: any, overrides: Record<string, unknown>): Record<string, string> {
  const config = t.resources.find((r: any) => r.type === 'Microsoft.Web/sites/config');
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(config.properties as Record<string, string>)) {
    if (PLATFORM_SETTINGS.has(name)) continue;
    const value = settingValue(t, raw, overrides) ?? DEPLOYED[name];
    assert.ok(value !== undefined, `${name}: give the test the value "${raw}" takes once deployed`);
    env[name] = value;
  }
  return env;
}
