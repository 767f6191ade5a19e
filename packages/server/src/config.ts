import path from 'node:path';
import { AUTH } from './config/auth.js';
import { BACKING } from './config/backing.js';
import { CATALOG, type CatalogConfig } from './config/catalog.js';
import { CLOUD, type CloudConfig, selectedCloud } from './config/cloud.js';
import { IDENTITY, type ServiceIdentity, serviceIdentity } from './config/identity.js';
import { IDENTITY_OPS, type IdentityOpsConfig } from './config/identity-ops.js';
import { INSTALL } from './config/install.js';
import { METRICS } from './config/metrics.js';
import { OIDC, type OidcConfig } from './config/oidc.js';
import { REPORTS, type ReportsConfig } from './config/reports.js';
import { SANDBOX } from './config/sandbox.js';
import { BACKENDS } from './config/backends.js';
import { NATIVE } from './config/native.js';
import { SERVER, type ServerConfig } from './config/server.js';
import { ConfigError, readSection, type Section, type Setting, type Values } from './config/setting.js';
import { SHARED_SET } from './config/shared-set.js';
import { STORE, type StoreConfig } from './config/store.js';
import { TRACING, type TracingConfig } from './config/tracing.js';
import type { NativeHosts, SharedSet } from './tenancy/shared-set.js';

export { ConfigError } from './config/setting.js';

// Every environment variable the service reads is declared once, in the section of the configuration it fills (one
// file per section under config/); only this file reads the environment. README "Configuration" is generated from
// these declarations (npm run gen:readme-config) and checked against them.

type Env = Readonly<Record<string, string | undefined>>;

/** The service configuration, read once from the environment at start. */
export interface Config {
  server: ServerConfig;
  store: StoreConfig;
  auth: Values<typeof AUTH>;
  metrics: Values<typeof METRICS>;
  /** Spans and where they are exported (off unless an exporter is named). */
  tracing: TracingConfig;
  oidc: OidcConfig;
  identity: ServiceIdentity;
  identityOps: IdentityOpsConfig;
  cloud: CloudConfig;
  /** The default tenant's shared-mode targets. */
  sharedSet: SharedSet;
  /** The Azure-native services every tenant's installs use where the cloud has no data platform. */
  native: NativeHosts;
  reports: ReportsConfig;
  /** Where the curated apps are read from (undefined: the shipped catalog). */
  catalog: CatalogConfig;
  /** The install pipeline: items in flight per install, jobs per process, work polling, job lease. */
  install: Values<typeof INSTALL>;
  /** Every backing call: timeout, the one retry's backoff and the longest Retry-After it honours, calls in flight per backing service. */
  backing: Values<typeof BACKING>;
  sandbox: Values<typeof SANDBOX>;
}

/** Every section, in README order. */
const SECTIONS: readonly Section[] = [
  SERVER,
  STORE,
  AUTH,
  METRICS,
  TRACING,
  OIDC,
  IDENTITY,
  IDENTITY_OPS,
  CLOUD,
  SHARED_SET,
  NATIVE,
  BACKENDS,
  REPORTS,
  CATALOG,
  INSTALL,
  BACKING,
  SANDBOX,
];

/** Every setting the service reads, in README order (the "Configuration" table is generated from them). */
export const DECLARED: readonly Setting<unknown>[] = SECTIONS.flatMap((s) => Object.values(s));

/**
 * Every environment variable the service reads, each documented in README "Configuration". A deployment template sets
 * only these (test/infra.test.ts checks infra/*.json against this list and loadConfig).
 */
export const SETTINGS: readonly string[] = DECLARED.map((s) => s.name);

/** The sign-in settings; an SVC_OIDC_* variable without a client id is refused (so it reads the environment, here). */
function oidcConfig(env: Env, v: Values<typeof OIDC>, tenantId: string | undefined): OidcConfig {
  const clientId = v.clientId?.trim() || undefined;
  if (!clientId) {
    // Any SVC_OIDC_* variable, a misspelt one too, means sign-in was meant to be on.
    const stray = Object.keys(env).find((k) => k.startsWith('SVC_OIDC_') && env[k]);
    if (stray) throw new ConfigError('SVC_OIDC_CLIENT_ID', `is required when ${stray} is set (the app registration's client id)`);
  }
  return {
    ...v,
    clientId,
    tenant: (v.tenant || tenantId || 'organizations').trim(),
    tenants: new Map(v.tenants),
    admins: new Set(v.admins),
  };
}

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const read = <S extends Section>(section: S) => readSection(section, (name) => env[name]);
  const server = read(SERVER);
  const store = read(STORE);
  const identityOps = read(IDENTITY_OPS);
  const { name, ...cloudOverrides } = read(CLOUD);
  const shared = read(SHARED_SET);
  return {
    server,
    store: { ...store, dataDir: path.resolve(store.dataDir) },
    auth: read(AUTH),
    metrics: read(METRICS),
    tracing: read(TRACING),
    oidc: oidcConfig(env, read(OIDC), identityOps.tenantId),
    identity: serviceIdentity(read(IDENTITY)),
    identityOps,
    cloud: { name: selectedCloud(name, server.publicUrl), overrides: cloudOverrides, backends: definedOnly(read(BACKENDS)) },
    sharedSet: { ...shared, warehouseDatabase: shared.warehouseDatabase ?? shared.warehousePool },
    reports: read(REPORTS),
    catalog: read(CATALOG),
    install: read(INSTALL),
    backing: read(BACKING),
    sandbox: read(SANDBOX),
    native: read(NATIVE),
  };
}

/** The entries of a record that are set. */
function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The configuration with `defaults` under the environment: the in-process sandbox's addresses for what is unset. */
export function loadConfigOver(defaults: Env): Config {
  return loadConfig({ ...defaults, ...process.env });
}
