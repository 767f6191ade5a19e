import path from 'node:path';

/** Thrown when an environment variable is missing or invalid; names the variable. */
export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The service configuration, read once from the environment at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  publicUrl?: string;
  bootstrapToken?: string;
  /** A static bearer that may read /metrics only (SVC_METRICS_TOKEN), for a scraper that holds no API token. */
  metricsToken?: string;
  logLevel: LogLevel;
  rateLimitPerMinute: number;
  /** Requests a minute per client address to the sign-in routes, which anyone may call. */
  signInRateLimitPerMinute: number;
  bodyLimitBytes: number;
  sessionHours: number;
  /** How long a serialized item listing is kept (0 = off); writes drop it at once in every process. */
  readCacheMs: number;
  /** The install pipeline: items in flight per install, jobs per process, work polling, job lease. */
  install: { concurrency: number; workerJobs: number; pollMs: number; leaseMs: number };
  /** Every backing call: timeout, the one retry's backoff and the longest Retry-After it honours, calls in flight per backing service. */
  backing: { timeoutMs: number; retryDelayMs: number; retryAfterMaxMs: number; concurrency: number };
  /** Settings of later domains (cloud, targets, sandbox) read by their own modules from this map. */
  env: Readonly<Record<string, string | undefined>>;
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function urlVar(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const TOKEN_FORMAT = /^svc_pat_[a-z0-9]{8,32}_[A-Za-z0-9]{32,64}$/;
// An RFC 6750 bearer value long enough to be a secret (openssl rand -hex 32 gives 64 characters).
const METRICS_TOKEN_FORMAT = /^(?=.{32,256}$)[A-Za-z0-9._~+/-]+=*$/;

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.SVC_LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('SVC_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const bootstrapToken = env.SVC_BOOTSTRAP_TOKEN || undefined;
  if (bootstrapToken && !TOKEN_FORMAT.test(bootstrapToken)) {
    throw new ConfigError(
      'SVC_BOOTSTRAP_TOKEN',
      'must look like svc_pat_<id>_<secret>: id 8-32 lowercase letters and digits, secret 32-64 letters and digits',
    );
  }
  const metricsToken = env.SVC_METRICS_TOKEN || undefined;
  if (metricsToken && !METRICS_TOKEN_FORMAT.test(metricsToken)) {
    throw new ConfigError('SVC_METRICS_TOKEN', 'must be 32 to 256 characters: letters, digits and - . _ ~ + / (e.g. the output of openssl rand -hex 32)');
  }
  const host = env.HOST || '0.0.0.0';
  return {
    port: intVar(env, 'PORT', 8080, 0, 65535),
    host,
    dataDir: path.resolve(env.SVC_DATA_DIR || './.svc-data'),
    databaseUrl: urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    publicUrl: urlVar(env, 'SVC_PUBLIC_URL', ['http:', 'https:']),
    bootstrapToken,
    metricsToken,
    logLevel,
    rateLimitPerMinute: intVar(env, 'SVC_RATE_LIMIT_PER_MINUTE', 1200, 1, 10_000_000),
    signInRateLimitPerMinute: intVar(env, 'SVC_SIGNIN_RATE_LIMIT_PER_MINUTE', 30, 1, 10_000_000),
    bodyLimitBytes: intVar(env, 'SVC_BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    sessionHours: intVar(env, 'SVC_SESSION_HOURS', 12, 1, 24 * 30),
    readCacheMs: intVar(env, 'SVC_READ_CACHE_MS', 5000, 0, 600_000),
    install: {
      concurrency: intVar(env, 'PROVISION_CONCURRENCY', 6, 1, 64),
      workerJobs: intVar(env, 'SVC_WORKER_JOBS', 4, 1, 256),
      pollMs: intVar(env, 'SVC_WORKER_POLL_MS', 500, 10, 600_000),
      leaseMs: intVar(env, 'SVC_INSTALL_LEASE_MS', 30_000, 200, 3_600_000),
    },
    backing: {
      timeoutMs: intVar(env, 'SVC_BACKING_TIMEOUT_MS', 30_000, 100, 600_000),
      retryDelayMs: intVar(env, 'SVC_BACKING_RETRY_DELAY_MS', 1500, 0, 600_000),
      retryAfterMaxMs: intVar(env, 'SVC_BACKING_RETRY_AFTER_MAX_MS', 10_000, 0, 600_000),
      concurrency: intVar(env, 'SVC_BACKING_CONCURRENCY', 16, 1, 1024),
    },
    env: { ...env },
  };
}

/**
 * Every environment variable the service reads, each documented in README "Configuration". A deployment template sets
 * only these (test/infra.test.ts checks infra/*.json against this list and loadConfig).
 */
export const SETTINGS: readonly string[] = [
  'PORT', 'HOST', 'DATABASE_URL', 'PROVISION_CONCURRENCY',
  'AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_CLIENT_CERTIFICATE_PATH',
  'SVC_DATA_DIR', 'SVC_PUBLIC_URL', 'SVC_CLOUD', 'SVC_BOOTSTRAP_TOKEN', 'SVC_LOG_LEVEL', 'SVC_RATE_LIMIT_PER_MINUTE',
  'SVC_BODY_LIMIT_BYTES', 'SVC_SESSION_HOURS', 'SVC_TRUST_PROXY', 'SVC_AUTH_CACHE_SECONDS', 'SVC_DB_POOL', 'SVC_IDENTITY',
  'SVC_TENANT_ID', 'SVC_AUTH_URL', 'SVC_DATA_PLATFORM_API_URL', 'SVC_DATA_PLATFORM_AUDIENCE', 'SVC_BI_API_URL',
  'SVC_BI_APP_URL', 'SVC_BI_AUDIENCE', 'SVC_ARM_URL', 'SVC_ARM_AUDIENCE', 'SVC_KQL_AUDIENCE', 'SVC_SEARCH_AUDIENCE',
  'SVC_SQL_AUDIENCE', 'SVC_ONELAKE_URL', 'SVC_STORAGE_AUDIENCE', 'SVC_DEFAULT_PLATFORM_WORKSPACE', 'SVC_KQL_CLUSTER_URI',
  'SVC_KQL_CLUSTER_NAME', 'SVC_KQL_LOCATION', 'SVC_SEARCH_SERVICE', 'SVC_WAREHOUSE_WORKSPACE', 'SVC_WAREHOUSE_DEDICATED_POOL',
  'SVC_WAREHOUSE_SERVER', 'SVC_WAREHOUSE_DATABASE', 'SVC_LAKE_ACCOUNT', 'SVC_LAKE_CONTAINER', 'SVC_GRAPH_URL', 'SVC_VAULT_URL',
  'SVC_WORKER_JOBS', 'SVC_WORKER_POLL_MS', 'SVC_INSTALL_LEASE_MS', 'SVC_BACKING_TIMEOUT_MS', 'SVC_BACKING_RETRY_DELAY_MS',
  'SVC_BACKING_CONCURRENCY', 'SVC_SANDBOX_ADMIN_URL', 'SVC_OIDC_ISSUER', 'SVC_OIDC_TENANT', 'SVC_OIDC_TENANTS',
  'SVC_OIDC_CLIENT_ID', 'SVC_OIDC_CLIENT_SECRET', 'SVC_OIDC_SCOPES', 'SVC_OIDC_ADMINS', 'SVC_RDL_SCHEMA_PATH',
  'SVC_READ_CACHE_MS', 'SVC_BACKING_RETRY_AFTER_MAX_MS', 'SVC_GRAPH_AUDIENCE', 'SVC_VAULT_AUDIENCE', 'SVC_METRICS_TOKEN',
  'SVC_SIGNIN_RATE_LIMIT_PER_MINUTE',
];
