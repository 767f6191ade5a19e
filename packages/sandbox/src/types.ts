/** The emulated services, one loopback server each (the managed-identity endpoint logs as 'identity'; 'sql' is the TDS endpoint). */
export type ServiceName =
  | 'identity'
  | 'dataPlatform'
  | 'arm'
  | 'kql'
  | 'search'
  | 'oneLake'
  | 'sql'
  | 'reporting'
  | 'synapse'
  | 'lake'
  | 'sqlServerless';

export const SERVICE_NAMES: readonly ServiceName[] = [
  'identity',
  'dataPlatform',
  'arm',
  'kql',
  'search',
  'oneLake',
  'sql',
  'reporting',
  'synapse',
  'lake',
  'sqlServerless',
];

export interface SandboxOptions {
  /** Makes every id (tenant, principals, workspace, created items) repeatable. Default 'sandbox'. */
  seed?: string;
  /** Page size of every data-platform list (small on purpose, so clients that skip paging fail). Default 25. */
  pageSize?: number;
  /** Added delay per service, in milliseconds. */
  latencyMs?: Partial<Record<ServiceName, number>>;
  /** Loopback address to listen on. Default 127.0.0.1. */
  host?: string;
  /**
   * Serve https on every HTTP emulator and the admin API, and offer TLS on the TDS endpoint, with a certificate signed
   * by a test certificate authority the sandbox keeps in `dataDir` (the managed-identity endpoint stays http, as App
   * Service's and IMDS are). Clients trust it through NODE_EXTRA_CA_CERTS (in `env`). Default false: plain http.
   */
  tls?: boolean;
  /** Where the sandbox keeps its files (the test certificate authority). Default: a temporary directory removed at stop. */
  dataDir?: string;
  /**
   * Whether the cloud has the data platform (default true). False starts it as GCC-High and DoD are today: the data
   * platform's API and OneLake are not offered to the service (their addresses are left out of `env`), so the service
   * provisions those types on the Azure-native emulators.
   */
  dataPlatform?: boolean;
}

/** A type alias (not an interface) so that it is assignable to Record<string, string>. */
export type SandboxUrls = {
  identity: string;
  managedIdentity: string;
  dataPlatform: string;
  arm: string;
  kql: string;
  search: string;
  oneLake: string;
  /** The lake's storage accounts (Data Lake Storage Gen2), path-style: `<lake>/<account>/<filesystem>/<path>`. */
  lake: string;
  /** The Synapse workspace's serverless SQL pool (its own TDS endpoint) as host:port: the lakehouses' SQL endpoints without the data platform. */
  sqlServerless: string;
  /** Graph-shaped application-credential API (addPassword/removePassword). */
  graph: string;
  /** Key Vault-shaped secret store. */
  vault: string;
  /** The TDS (T-SQL) endpoint as host:port: the warehouse server and the lakehouses' SQL endpoints. */
  sql: string;
  /** Power BI REST-shaped reporting API (paginated reports); also serves the rdlreports viewer pages. */
  reporting: string;
  /** The Synapse workspace's development endpoint (artifacts API). */
  synapse: string;
  admin: string;
};

/**
 * A fault rule: matches service, method and a path regex; answers a status, resets, or delays. For 'sql' the method is
 * LOGIN (path `/<database>`), BATCH (path `/<database>/batch/<T-SQL text>`) or RPC (path `/<database>/rpc/<statement>`), and `errorCode` is the SQL error number
 * the server answers (with `message` as its text, else the catalogued one).
 */
export interface FaultRule {
  service: ServiceName;
  method?: string;
  /** Regular expression tested against the path including the query string. */
  path?: string;
  status?: number;
  errorCode?: string;
  message?: string;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** Destroys the connection without an answer. */
  reset?: boolean;
  /** Waits before answering (then answers normally unless status or reset is set). */
  delayMs?: number;
  /** How many matching requests it applies to; unlimited when absent. */
  count?: number;
  /** Chance (0..1) that a matching request is affected. */
  probability?: number;
  /** A raw body to answer instead of the service's error body. */
  body?: string;
}

export interface RequestLogEntry {
  seq: number;
  service: ServiceName;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  startedAt: string;
  /** Object id of the caller when a bearer token identified one. */
  identity?: string;
  fault?: string;
  /** sql entries (LOGIN, BATCH): the number of the first error the server answered (status is then 400). */
  sqlError?: number;
  /** The address the request came to (host:port), as its Host header named it. */
  host?: string;
  /** The request headers, names lowercased, secrets (authorization, cookies, keys, the identity header) redacted. */
  headers?: Record<string, string>;
  /** The W3C `traceparent` the caller sent (a well-formed one), so a test can follow its trace to this request. */
  traceparent?: string;
  /** The request body as received, secrets redacted; absent when it had none. */
  body?: LoggedBody;
  /** The statement a request carried: a SQL batch's T-SQL, a KQL request's command or query. */
  text?: string;
}

/** A request body as the request log keeps it: JSON parsed, forms as fields, text as text, anything else as size and type. */
export interface LoggedBody {
  /** Bytes received. */
  size: number;
  /** The content type sent. */
  type?: string;
  json?: unknown;
  form?: Record<string, string>;
  text?: string;
  /** Bytes that are not text: only their size and type are kept. */
  binary?: true;
  /** Larger than the log keeps per body: only the first bytes are kept, as text, unparsed. */
  truncated?: true;
  /** Taken out afterwards to keep the log within its memory budget. */
  dropped?: true;
}

/** What grant()/revoke() name: a role of a principal on one of the services. */
export interface Grant {
  service: 'dataPlatform' | 'arm' | 'eventHubs' | 'kql' | 'search' | 'sql' | 'reporting' | 'synapse' | 'lake' | 'sqlServerless';
  /** dataPlatform: Admin|Member|Contributor|Viewer; arm: Owner|Contributor|Reader on the KQL cluster, or Monitoring Contributor on the alert resource group; eventHubs: Owner|Contributor|Reader on the Event Hubs namespace; kql: AllDatabasesAdmin|AllDatabasesViewer|AllDatabasesMonitor or a database role (Admin|User|Viewer|Ingestor|Monitor) with `database`; search: Search Service Contributor|Search Index Data Contributor|Search Index Data Reader; sql: a fixed database role (db_owner, db_ddladmin, db_datareader, db_datawriter, db_accessadmin, db_securityadmin) or `user` (a database user in no role); granting makes the principal a database user FROM EXTERNAL PROVIDER, revoking `user` drops the user, revoking a role leaves the user without it. */
  /** reporting: the same workspace roles as dataPlatform (a reporting group is the platform workspace). */
  /** synapse: a Synapse RBAC role on the workspace (Synapse Administrator|Synapse Contributor|Synapse Artifact Publisher|Synapse Artifact User). */
  role: string;
  /** Object id, app id, UPN or display name; the service identity when absent. */
  principal?: string;
  /** dataPlatform and reporting: the workspace (default: the seeded platform workspace). */
  workspaceId?: string;
  /** kql: a database for database-level roles; sql: one database (default: every database the warehouse server hosts). */
  database?: string;
}
