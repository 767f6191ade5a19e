import path from 'node:path';
import { CLOUD_NAMES, cloudFromAddress, type CloudName, type CloudOverrides } from './cloud/profiles.js';
import { TENANT_SCOPES, type TenantScope } from './auth/scopes.js';
import type { SharedSet } from './tenancy/shared-set.js';
import {
  address,
  ConfigError,
  flag,
  int,
  list,
  oneOf,
  pattern,
  readSection,
  text,
  url,
  type Section,
  type Setting,
  type Values,
} from './config-setting.js';

export { ConfigError } from './config-setting.js';

// Every environment variable the service reads is declared here, once, in the section of the configuration it fills;
// README "Configuration" is generated from these declarations (npm run gen:readme-config) and checked against them.

type Env = Readonly<Record<string, string | undefined>>;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const satisfies readonly LogLevel[];
const WEB = ['http:', 'https:'];
const TOKEN_FORMAT = /^svc_pat_[a-z0-9]{8,32}_[A-Za-z0-9]{32,64}$/;
// An RFC 6750 bearer value long enough to be a secret (openssl rand -hex 32 gives 64 characters).
const METRICS_TOKEN_FORMAT = /^(?=.{32,256}$)[A-Za-z0-9._~+/-]+=*$/;

const SERVER = {
  port: int('PORT', 8080, 0, 65535, 'listening port'),
  host: text('HOST', { fallback: '0.0.0.0', meaning: 'listening address' }),
  publicUrl: url('SVC_PUBLIC_URL', WEB, {
    meaning: "the deployment's own address (OpenAPI `servers[0]`, Secure cookies, cloud selection)",
  }),
  logLevel: oneOf('SVC_LOG_LEVEL', LOG_LEVELS, { fallback: 'info', meaning: 'pino level: fatal, error, warn, info, debug, trace, silent' }),
  trustProxy: flag('SVC_TRUST_PROXY', '`true` behind a reverse proxy that sets `X-Forwarded-*`'),
  bodyLimitBytes: int(
    'SVC_BODY_LIMIT_BYTES',
    1_048_576,
    1024,
    64 * 1_048_576,
    "largest accepted request body (413 beyond); a paginated report's publish and definition PUT take up to 24,065,536 bytes, the JSON of an RDL at its 4,000,000-character maximum",
  ),
  rateLimitPerMinute: int(
    'SVC_RATE_LIMIT_PER_MINUTE',
    1200,
    1,
    10_000_000,
    'requests per minute per token or session (429 with Retry-After beyond)',
  ),
  signInRateLimitPerMinute: int(
    'SVC_SIGNIN_RATE_LIMIT_PER_MINUTE',
    30,
    1,
    10_000_000,
    "requests per minute per client address to the sign-in routes (`POST /api/session`, `GET /api/auth/login`, `GET /api/auth/callback`, together; an IPv6 client counts by its /64); 429 with Retry-After beyond. The address is the socket's, or with `SVC_TRUST_PROXY=true` the one `X-Forwarded-For` names",
  ),
} satisfies Section;

const STORE = {
  dataDir: text('SVC_DATA_DIR', { fallback: './.svc-data', meaning: 'PGlite data directory (used when `DATABASE_URL` is unset)' }),
  databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:'], { meaning: '`postgres://…`: use a PostgreSQL server instead of PGlite' }),
  pool: int(
    'SVC_DB_POOL',
    10,
    1,
    1000,
    "PostgreSQL connections per process; the install worker's step writes use at most this minus four, so requests always find one",
  ),
  readCacheMs: int(
    'SVC_READ_CACHE_MS',
    5000,
    0,
    600_000,
    'how long a process keeps a serialized item listing; any committed write to items or workspaces, in any process, drops it at once (PostgreSQL NOTIFY from a trigger), so this only bounds staleness if that notification is lost; `0` turns the cache off',
  ),
} satisfies Section;

const AUTH = {
  bootstrapToken: pattern(
    'SVC_BOOTSTRAP_TOKEN',
    TOKEN_FORMAT,
    'must look like svc_pat_<id>_<secret>: id 8-32 lowercase letters and digits, secret 32-64 letters and digits',
    {
      meaning:
        "`svc_pat_<id>_<secret>`: seeds a token of the default tenant's first admin with every scope, the deployment's `operator` and `metrics` among them, if that id is absent",
    },
  ),
  sessionHours: int('SVC_SESSION_HOURS', 12, 1, 24 * 30, 'console session lifetime (never beyond the token it was opened with)'),
  tokenCacheSeconds: int(
    'SVC_AUTH_CACHE_SECONDS',
    30,
    0,
    3600,
    'how long a verified token is cached in a process (a revocation evicts it at once in every process through PostgreSQL NOTIFY); `0` turns the cache off',
  ),
} satisfies Section;

const METRICS = {
  token: pattern(
    'SVC_METRICS_TOKEN',
    METRICS_TOKEN_FORMAT,
    'must be 32 to 256 characters: letters, digits and - . _ ~ + / (e.g. the output of openssl rand -hex 32)',
    {
      meaning:
        'a static bearer (32 to 256 characters: letters, digits, `- . _ ~ + /`; e.g. `openssl rand -hex 32`) that reads `/metrics` and nothing else, for a scraper without an API token',
    },
  ),
} satisfies Section;

const serviceTenant = (pair: string): [string, string] => {
  const m = /^([0-9a-f-]{36})=([A-Za-z0-9_-]{1,64})$/i.exec(pair);
  if (!m) throw new ConfigError('SVC_OIDC_TENANTS', `"${pair}" is not <directory tenant id>=<service tenant id>`);
  return [m[1]!.toLowerCase(), m[2]!];
};
const tenantScope = (scope: string): TenantScope => {
  if (!(TENANT_SCOPES as readonly string[]).includes(scope))
    throw new ConfigError('SVC_OIDC_SCOPES', `"${scope}" is not one of ${TENANT_SCOPES.join(', ')}`);
  return scope as TenantScope;
};

const OIDC = {
  clientId: text('SVC_OIDC_CLIENT_ID', {
    shown: "– (the sandbox sets its console app's)",
    meaning: 'the console\'s app registration: turns on "Sign in with …" (see [Console sign-in](#console-sign-in))',
  }),
  clientSecret: text('SVC_OIDC_CLIENT_SECRET', { meaning: 'its client secret; unset for a public client (PKCE alone)' }),
  tenant: text('SVC_OIDC_TENANT', {
    shown: '`SVC_TENANT_ID`, else `organizations`',
    meaning:
      'directory tenant id (or domain) in the authority path; `organizations`/`common` only at login.microsoftonline.com and with `SVC_OIDC_TENANTS`',
  }),
  issuer: url('SVC_OIDC_ISSUER', WEB, {
    shown: '`{auth_url}/{tenant}/v2.0`',
    meaning: 'the issuer whose discovery document is read (when the derived one is wrong)',
  }),
  tenants: list('SVC_OIDC_TENANTS', serviceTenant, {
    meaning:
      '`<tid>=<service tenant>,…`: which service tenant each directory tenant signs into (default: the `default` tenant for the one tenant of a single-tenant registration)',
  }),
  userScopes: list<TenantScope>('SVC_OIDC_SCOPES', tenantScope, {
    fallback: ['read', 'write', 'install', 'reports', 'tokens'],
    meaning: 'what a signed-in user who is not an admin may do',
  }),
  admins: list('SVC_OIDC_ADMINS', (s) => s.toLowerCase(), {
    meaning: 'object ids or user names made admins (every tenant scope, never `operator`) of their service tenant when they sign in',
  }),
} satisfies Section;

const IDENTITY = {
  kind: oneOf('SVC_IDENTITY', ['managed', 'workload', 'client-secret', 'client-certificate'], {
    fallback: 'managed',
    meaning:
      "the service's credential: `managed` (system-assigned, or user-assigned with `AZURE_CLIENT_ID`), `workload`, `client-secret` (`AZURE_TENANT_ID`, `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET`), `client-certificate` (`AZURE_CLIENT_CERTIFICATE_PATH`)",
  }),
  tenantId: text('AZURE_TENANT_ID', {
    meaning: "the service identity's directory tenant (`workload`, `client-secret`, `client-certificate`)",
  }),
  clientId: text('AZURE_CLIENT_ID', {
    meaning: "the service identity's client id: a user-assigned managed identity's, or the app registration's",
  }),
  clientSecret: text('AZURE_CLIENT_SECRET', { meaning: "the app registration's client secret (`client-secret`)" }),
  certificatePath: text('AZURE_CLIENT_CERTIFICATE_PATH', {
    meaning: "a PEM file with the app registration's certificate and private key (`client-certificate`)",
  }),
} satisfies Section;

const IDENTITY_OPS = {
  tenantId: text('SVC_TENANT_ID', {
    meaning: 'the Entra tenant (identity probes, rotation checks; the sign-in tenant unless `SVC_OIDC_TENANT` is set)',
  }),
  graphUrl: url('SVC_GRAPH_URL', WEB, {
    shown: "the cloud's (none in the sandbox)",
    meaning: 'application-credential endpoint used by secret rotation',
  }),
  graphAudience: text('SVC_GRAPH_AUDIENCE', { shown: "the cloud's", meaning: 'token audience for the application-credential endpoint' }),
  vaultUrl: url('SVC_VAULT_URL', WEB, { meaning: 'secret-vault endpoint used by secret rotation' }),
  vaultAudience: text('SVC_VAULT_AUDIENCE', { shown: "the cloud's", meaning: 'token audience for the secret vault' }),
} satisfies Section;

const overrides = (thing: string, note = '') => ({
  shown: "the cloud's",
  meaning: `the selected cloud's ${thing} (an overridden host is trusted as that exact host)${note}`,
});
const audience = (of: string) => ({ shown: "the cloud's", meaning: `the selected cloud's token audience for ${of}` });

const CLOUD = {
  name: oneOf('SVC_CLOUD', CLOUD_NAMES, {
    shown: 'from `SVC_PUBLIC_URL`, else `sandbox`',
    meaning: '`commercial`, `gcc`, `gcc-high`, `dod` or `sandbox` (see [Clouds](#clouds))',
  }),
  authUrl: url('SVC_AUTH_URL', WEB, overrides('identity provider address')),
  dataPlatformApiUrl: url(
    'SVC_DATA_PLATFORM_API_URL',
    WEB,
    overrides('data platform API address', '; set it in the government clouds, where it is not published'),
  ),
  dataPlatformAudience: url('SVC_DATA_PLATFORM_AUDIENCE', WEB, audience('the data platform API')),
  biApiUrl: url('SVC_BI_API_URL', WEB, overrides('reporting API address')),
  biAppUrl: url('SVC_BI_APP_URL', WEB, overrides('reporting app address (report links)')),
  biAudience: url('SVC_BI_AUDIENCE', WEB, audience('the reporting API')),
  armUrl: url('SVC_ARM_URL', WEB, overrides('resource manager address')),
  armAudience: url('SVC_ARM_AUDIENCE', WEB, audience('the resource manager')),
  kqlAudience: url('SVC_KQL_AUDIENCE', WEB, { shown: "each cluster's own address", meaning: 'token audience of the KQL clusters' }),
  searchAudience: url('SVC_SEARCH_AUDIENCE', WEB, audience('the search services')),
  sqlAudience: url('SVC_SQL_AUDIENCE', WEB, audience('the warehouses (T-SQL)')),
  oneLakeUrl: url('SVC_ONELAKE_URL', WEB, overrides('lake data-plane address')),
  storageAudience: url('SVC_STORAGE_AUDIENCE', WEB, audience('lake storage')),
} satisfies { name: Setting<CloudName | undefined> } & { [K in keyof Required<CloudOverrides>]: Setting<string | undefined> };

const SHARED_SET = {
  platformWorkspaceId: text('SVC_DEFAULT_PLATFORM_WORKSPACE', {
    meaning:
      "the default tenant's platform workspace, for its workspaces not bound by an admin; reserved for the default tenant at start (another tenant never falls back to it: see [Tenants](#tenants-and-the-deployment-operator))",
  }),
  kqlClusterUri: address('SVC_KQL_CLUSTER_URI', { meaning: 'KQL cluster data-plane address' }),
  kqlClusterResourceId: text('SVC_KQL_CLUSTER_NAME', {
    meaning: 'ARM id of the cluster: `/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Kusto/clusters/{name}`',
  }),
  kqlLocation: text('SVC_KQL_LOCATION', { fallback: 'eastus', meaning: 'region sent with the database PUT' }),
  searchService: address('SVC_SEARCH_SERVICE', { meaning: 'search service address (`https://<name>.search.windows.net`)' }),
  warehouseWorkspace: text('SVC_WAREHOUSE_WORKSPACE', {
    shown: '– (the sandbox sets it)',
    meaning: 'the Synapse workspace of the warehouse (absent: the "warehouse dedicated pool not configured" gate)',
  }),
  warehousePool: text('SVC_WAREHOUSE_DEDICATED_POOL', {
    shown: '– (the sandbox sets it)',
    meaning: 'its dedicated SQL pool (absent, with no `SVC_WAREHOUSE_DATABASE` either: the same gate)',
  }),
  warehouseServer: text('SVC_WAREHOUSE_SERVER', {
    shown: "`<workspace>.sql.azuresynapse.net` (the sandbox's TDS endpoint in the sandbox)",
    meaning: 'T-SQL host[:port]',
  }),
  warehouseDatabase: text('SVC_WAREHOUSE_DATABASE', { shown: 'the pool', meaning: 'T-SQL database' }),
  lakeAccount: text('SVC_LAKE_ACCOUNT', { meaning: 'lake storage account of the shared set' }),
  lakeContainer: text('SVC_LAKE_CONTAINER', { meaning: 'its container' }),
} satisfies { [K in keyof Required<SharedSet>]: Setting<SharedSet[K]> };

const REPORTS = {
  rdlSchemaPath: text('SVC_RDL_SCHEMA_PATH', {
    meaning:
      "the published RDL 2016/01 schema file (`ReportDefinition.xsd`, not shipped: it has no open licence); when set, a paginated report's definition is also validated against it (libxml2's XSD validator, as WebAssembly) before it is published, and a fault is 400 naming the line and element",
  }),
} satisfies Section;

const INSTALL = {
  concurrency: int('PROVISION_CONCURRENCY', 6, 1, 64, 'items provisioned at once per install'),
  workerJobs: int('SVC_WORKER_JOBS', 4, 1, 256, 'install jobs a process runs at once'),
  pollMs: int('SVC_WORKER_POLL_MS', 500, 10, 600_000, 'how often a process looks for install work'),
  leaseMs: int(
    'SVC_INSTALL_LEASE_MS',
    30_000,
    200,
    3_600_000,
    'how long a claimed install job stays with its process without a heartbeat (heartbeat every third of it); a job whose process died is resumed by another once this expires',
  ),
} satisfies Section;

const BACKING = {
  timeoutMs: int('SVC_BACKING_TIMEOUT_MS', 30_000, 100, 600_000, 'timeout of each backing call'),
  retryDelayMs: int(
    'SVC_BACKING_RETRY_DELAY_MS',
    1500,
    0,
    600_000,
    "backoff of a backing call's one retry after a transient failure, or the answer's `Retry-After` when that is longer",
  ),
  retryAfterMaxMs: int(
    'SVC_BACKING_RETRY_AFTER_MAX_MS',
    10_000,
    0,
    600_000,
    'the longest `Retry-After` the retry waits (a 429 still refused on the retry is reported unmodified)',
  ),
  concurrency: int('SVC_BACKING_CONCURRENCY', 16, 1, 1024, 'calls in flight per backing service and process'),
} satisfies Section;

const SANDBOX = {
  adminUrl: url('SVC_SANDBOX_ADMIN_URL', WEB, {
    meaning: "set by `npm run sandbox`'s environment: use that running sandbox instead of an in-process one",
  }),
} satisfies Section;

/** The service's credential (SVC_IDENTITY and the AZURE_* settings it needs), for @azure/identity. */
export type ServiceIdentity =
  | { kind: 'managed'; clientId?: string }
  | { kind: 'workload'; tenantId?: string; clientId?: string }
  | { kind: 'client-secret'; tenantId: string; clientId: string; clientSecret: string }
  | { kind: 'client-certificate'; tenantId: string; clientId: string; certificatePath: string };

export type ServerConfig = Values<typeof SERVER>;
export type StoreConfig = Values<typeof STORE>;
export type OidcConfig = Omit<Values<typeof OIDC>, 'tenants' | 'admins' | 'tenant'> & {
  /** The directory tenant of the authority path: SVC_OIDC_TENANT, else SVC_TENANT_ID, else organizations. */
  tenant: string;
  /** Directory tenant id (tid) → the service's tenant. */
  tenants: ReadonlyMap<string, string>;
  admins: ReadonlySet<string>;
};
/** The selected cloud (SVC_CLOUD, else the one SVC_PUBLIC_URL's host names, else the sandbox) and its overridden addresses. */
export interface CloudConfig {
  name: CloudName;
  overrides: CloudOverrides;
}
export type IdentityOpsConfig = Values<typeof IDENTITY_OPS>;
export type ReportsConfig = Values<typeof REPORTS>;

/** The service configuration, read once from the environment at start. */
export interface Config {
  server: ServerConfig;
  store: StoreConfig;
  auth: Values<typeof AUTH>;
  metrics: Values<typeof METRICS>;
  oidc: OidcConfig;
  identity: ServiceIdentity;
  identityOps: IdentityOpsConfig;
  cloud: CloudConfig;
  /** The default tenant's shared-mode targets. */
  sharedSet: SharedSet;
  reports: ReportsConfig;
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
  OIDC,
  IDENTITY,
  IDENTITY_OPS,
  CLOUD,
  SHARED_SET,
  REPORTS,
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

function serviceIdentity(v: Values<typeof IDENTITY>): ServiceIdentity {
  switch (v.kind) {
    case 'managed':
      return { kind: v.kind, clientId: v.clientId };
    case 'workload':
      return { kind: v.kind, tenantId: v.tenantId, clientId: v.clientId };
    case 'client-secret':
      if (!v.tenantId || !v.clientId || !v.clientSecret)
        throw new ConfigError('SVC_IDENTITY', 'client-secret needs AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET');
      return { kind: v.kind, tenantId: v.tenantId, clientId: v.clientId, clientSecret: v.clientSecret };
    case 'client-certificate':
      if (!v.tenantId || !v.clientId || !v.certificatePath)
        throw new ConfigError(
          'SVC_IDENTITY',
          'client-certificate needs AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_CERTIFICATE_PATH',
        );
      return { kind: v.kind, tenantId: v.tenantId, clientId: v.clientId, certificatePath: v.certificatePath };
  }
}

function selectedCloud(name: CloudName | undefined, publicUrl: string | undefined): CloudName {
  if (name) return name;
  if (!publicUrl) return 'sandbox';
  const derived = cloudFromAddress(publicUrl);
  if (!derived)
    throw new ConfigError('SVC_PUBLIC_URL', `matches no cloud rule (${publicUrl}); set SVC_CLOUD to one of ${CLOUD_NAMES.join(', ')}`);
  return derived;
}

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
    oidc: oidcConfig(env, read(OIDC), identityOps.tenantId),
    identity: serviceIdentity(read(IDENTITY)),
    identityOps,
    cloud: { name: selectedCloud(name, server.publicUrl), overrides: cloudOverrides },
    sharedSet: { ...shared, warehouseDatabase: shared.warehouseDatabase ?? shared.warehousePool },
    reports: read(REPORTS),
    install: read(INSTALL),
    backing: read(BACKING),
    sandbox: read(SANDBOX),
  };
}

/** The configuration with `defaults` under the environment: the in-process sandbox's addresses for what is unset. */
export function loadConfigOver(defaults: Env): Config {
  return loadConfig({ ...defaults, ...process.env });
}
