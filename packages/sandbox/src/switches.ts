/** The run-time switches: tenant settings, async behaviour, timings and identity failures. */
export interface SwitchValues {
  /** Tenant setting "Service principals can use Fabric APIs"; off → 401 for app callers. */
  'dataPlatform.servicePrincipalsEnabled': boolean;
  /**
   * Per-identity budget per minute of the unified quota's Platform APIs bucket (every call but the two below); over it
   * → 429 RequestBlocked with Retry-After. Null = unlimited (the real one is 200).
   */
  'dataPlatform.throttlePerMinute': number | null;
  /** Per-identity budget per minute of the LRO APIs bucket: polls of GET /v1/operations/{id} and its /result. Null = unlimited. */
  'dataPlatform.throttleLroPerMinute': number | null;
  /** Per-identity budget per minute of the Job Scheduler bucket: job instance calls (run, get, list, cancel). Null = unlimited. */
  'dataPlatform.throttleJobsPerMinute': number | null;
  /** The throttle's window (ms), every bucket's: the budgets are per minute like the real ones; tests shorten it. */
  'dataPlatform.throttleWindowMs': number;
  /** When item creates, getDefinition and updateDefinition answer 202: auto (by type), always, never. */
  'dataPlatform.asyncMode': 'auto' | 'always' | 'never';
  /** Retry-After (seconds) on 202s, running operations and job instances. */
  'dataPlatform.retryAfterSeconds': number;
  /** How long a long-running operation takes. */
  'dataPlatform.lroMs': number;
  /** How long a job instance runs. */
  'dataPlatform.jobMs': number;
  /** How long a deleted item's name stays unavailable (ItemDisplayNameNotAvailableYet). */
  'dataPlatform.nameHoldMs': number;
  'dataPlatform.pageSize': number;
  /** How long a lakehouse's SQL endpoint stays InProgress. */
  'dataPlatform.sqlEndpointDelayMs': number;
  /** After a create, calls on the item answer EntityNotFound for this long (eventual consistency). */
  'dataPlatform.postCreateLagMs': number;
  /** Database creates: auto (202 + Azure-AsyncOperation for new databases), always, never (201). */
  'arm.asyncMode': 'auto' | 'always' | 'never';
  'arm.retryAfterSeconds': number;
  'arm.lroMs': number;
  /** API access control of the search service. */
  'search.authMode': 'aadOrApiKey' | 'apiKeyOnly';
  /** Make sign-in fail like Entra: {code: 'AADSTS53003', principal?: id/appId/upn}; null = off. */
  'identity.failure': { code: string | number; principal?: string } | null;
  /** Lifetime of issued tokens; negative issues tokens that are already expired. */
  'identity.tokenLifetimeSeconds': number;
  /** Reporting tenant setting "Service principals can use Fabric APIs" (formerly "Allow service principals to use Power BI APIs"); off → 401 PowerBINotAuthorizedException for app callers. */
  'reporting.servicePrincipalsEnabled': boolean;
  /** Tenant setting "Embed content in apps" (GenerateToken). */
  'reporting.embedEnabled': boolean;
  /** Tenant setting "Download reports" (GET …/Export of the definition). */
  'reporting.downloadEnabled': boolean;
  /** Tenant setting "Service principals can access read-only admin APIs" (the admin reports route for app callers). */
  'reporting.adminApisEnabled': boolean;
  /** "Export reports as PowerPoint presentations or PDF documents" (PDF, ACCESSIBLEPDF, PPTX). */
  'reporting.export.pdf': boolean;
  /** "Export reports as Word documents" (DOCX). */
  'reporting.export.word': boolean;
  /** "Export to Excel" (XLSX). */
  'reporting.export.excel': boolean;
  /** "Export to .csv" (CSV). */
  'reporting.export.csv': boolean;
  /** "Export reports as XML documents" (XML). */
  'reporting.export.xml': boolean;
  /** "Export reports as MHTML documents" (MHTML). */
  'reporting.export.mhtml': boolean;
  /** "Export reports as image files" (IMAGE, PNG). */
  'reporting.export.image': boolean;
  /** The capacity of every reporting workspace: fabric (F), premium (P), embedded (A/EM), ppu (Premium Per User) or shared (Pro, no capacity). */
  'reporting.capacity': 'fabric' | 'premium' | 'embedded' | 'ppu' | 'shared';
  /** The licence of user callers: pro, ppu or free (free publishes to My workspace only). */
  'reporting.userLicence': 'pro' | 'ppu' | 'free';
  /** How long an import stays Publishing. */
  'reporting.importMs': number;
  /** How long an ExportTo job takes (NotStarted for the first quarter, then Running). */
  'reporting.renderMs': number;
  /** Retry-After (seconds) on unfinished export jobs and 429s. */
  'reporting.retryAfterSeconds': number;
  /** Concurrent paginated render requests per capacity; over it → 429. */
  'reporting.maxConcurrentRenders': number;
  /** A job running longer than this fails (the real limit is 60 minutes). */
  'reporting.exportTimeoutMs': number;
  /** How long a Synapse artifact PUT or DELETE runs before it takes effect. */
  'synapse.lroMs': number;
  /** Retry-After (seconds) on Synapse artifact operations. */
  'synapse.retryAfterSeconds': number;
  /** Page size of every Synapse artifact list. */
  'synapse.pageSize': number;
  /** Paths per page of a lake listing (the real service's default is 5000; small here, so clients that skip x-ms-continuation fail). */
  'lake.pageSize': number;
}

export type SwitchName = keyof SwitchValues;

/** The per-identity budgets of the data platform's quota buckets (a positive integer, or null for none). */
const THROTTLE_BUDGETS: SwitchName[] = [
  'dataPlatform.throttlePerMinute',
  'dataPlatform.throttleLroPerMinute',
  'dataPlatform.throttleJobsPerMinute',
];

const ENUMS: Partial<Record<SwitchName, readonly string[]>> = {
  'dataPlatform.asyncMode': ['auto', 'always', 'never'],
  'arm.asyncMode': ['auto', 'always', 'never'],
  'search.authMode': ['aadOrApiKey', 'apiKeyOnly'],
  'reporting.capacity': ['fabric', 'premium', 'embedded', 'ppu', 'shared'],
  'reporting.userLicence': ['pro', 'ppu', 'free'],
};

export function defaultSwitches(pageSize = 25): SwitchValues {
  return {
    'dataPlatform.servicePrincipalsEnabled': true,
    'dataPlatform.throttlePerMinute': null,
    'dataPlatform.throttleLroPerMinute': null,
    'dataPlatform.throttleJobsPerMinute': null,
    'dataPlatform.throttleWindowMs': 60_000,
    'dataPlatform.asyncMode': 'auto',
    'dataPlatform.retryAfterSeconds': 1,
    'dataPlatform.lroMs': 300,
    'dataPlatform.jobMs': 500,
    'dataPlatform.nameHoldMs': 0,
    'dataPlatform.pageSize': pageSize,
    'dataPlatform.sqlEndpointDelayMs': 300,
    'dataPlatform.postCreateLagMs': 0,
    'arm.asyncMode': 'auto',
    'arm.retryAfterSeconds': 1,
    'arm.lroMs': 300,
    'search.authMode': 'aadOrApiKey',
    'identity.failure': null,
    'identity.tokenLifetimeSeconds': 3599,
    'reporting.servicePrincipalsEnabled': true,
    'reporting.embedEnabled': true,
    'reporting.downloadEnabled': true,
    'reporting.adminApisEnabled': true,
    'reporting.export.pdf': true,
    'reporting.export.word': true,
    'reporting.export.excel': true,
    'reporting.export.csv': true,
    'reporting.export.xml': true,
    'reporting.export.mhtml': true,
    'reporting.export.image': true,
    'reporting.capacity': 'fabric',
    'reporting.userLicence': 'pro',
    'reporting.importMs': 300,
    'reporting.renderMs': 600,
    'reporting.retryAfterSeconds': 1,
    'reporting.maxConcurrentRenders': 500,
    'reporting.exportTimeoutMs': 3_600_000,
    'synapse.lroMs': 100,
    'synapse.retryAfterSeconds': 0,
    'synapse.pageSize': pageSize,
    'lake.pageSize': pageSize,
  };
}

/** Checks a switch value against its default's type; returns an error message or undefined. */
export function checkSwitch(values: SwitchValues, name: string, value: unknown): string | undefined {
  if (!(name in values)) return `unknown switch '${name}'; known: ${Object.keys(values).join(', ')}`;
  const key = name as SwitchName;
  const allowed = ENUMS[key];
  if (allowed) return allowed.includes(String(value)) ? undefined : `${name} must be one of ${allowed.join(', ')}`;
  if (THROTTLE_BUDGETS.includes(key))
    return value === null || (Number.isInteger(value) && (value as number) > 0) ? undefined : `${name} must be a positive integer or null`;
  if (key === 'identity.failure') {
    if (value === null) return undefined;
    const v = value as { code?: unknown };
    return v && typeof v === 'object' && /^(AADSTS)?\d{5,8}$/i.test(String(v.code))
      ? undefined
      : `${name} must be null or {code: 'AADSTS<n>', principal?}`;
  }
  const current = values[key];
  if (typeof current === 'boolean') return typeof value === 'boolean' ? undefined : `${name} must be true or false`;
  if (typeof current === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} must be a number`;
    if (
      (key === 'dataPlatform.pageSize' ||
        key === 'synapse.pageSize' ||
        key === 'lake.pageSize' ||
        key === 'reporting.maxConcurrentRenders' ||
        key === 'dataPlatform.throttleWindowMs') &&
      !(Number.isInteger(value) && value >= 1)
    )
      return `${name} must be a positive integer`;
    if (key !== 'identity.tokenLifetimeSeconds' && value < 0) return `${name} must not be negative`;
  }
  return undefined;
}
