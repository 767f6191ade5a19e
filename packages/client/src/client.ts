import createFetchClient, { type Client as FetchClient } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi.js';
import { errorFromResponse, SvcConnectionError, SvcError, SvcProtocolError, SvcTimeoutError } from './errors.js';

type Schemas = components['schemas'];
export type Workspace = Schemas['Workspace'];
export type Item = Schemas['Item'];
export type ApiToken = Schemas['ApiToken'];
export type AppSummary = Schemas['AppSummary'];
export type InstallJob = Schemas['InstallJob'];
export type ThreadEdge = Schemas['ThreadEdge'];
export type ProvisionReport = Schemas['ProvisionReport'];
export type StepResult = Schemas['StepResult'];
export type PaginatedReport = Schemas['PaginatedReport'];
export type ReportExport = Schemas['ReportExport'];
export type Tenant = Schemas['Tenant'];
export type ResourceAssignment = Schemas['ResourceAssignment'];

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The success body of an operation (200, 201 or 202). */
type Success<K extends keyof operations> = operations[K]['responses'] extends infer R
  ? R extends { 200: infer S }
    ? JsonOf<S>
    : R extends { 201: infer S }
      ? JsonOf<S>
      : R extends { 202: infer S }
        ? JsonOf<S>
        : never
  : never;
/** The JSON body an operation takes. */
export type RequestBody<K extends keyof operations> =
  NonNullable<operations[K]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
/** The success body without `ok`. */
export type Result<K extends keyof operations> = Omit<Success<K>, 'ok'>;

export type AppDetail = Success<'getApp'>['app'];
export type ItemType = Success<'listItemTypes'>['itemTypes'][number];
export type WhoAmI = Result<'whoami'>;

/** One page of a list; `nextCursor` is absent on the last page. */
export type Page<T> = T[] & { nextCursor?: string };
export interface PageOptions {
  limit?: number;
  cursor?: string;
}

/** One server-sent event of an install job. */
export interface InstallEvent {
  id?: string;
  event: string;
  data: unknown;
}

export interface SvcClientOptions {
  /** The deployment address; default SVC_BASE_URL in Node, the page's own origin in a browser. */
  baseUrl?: string;
  /** A scoped API token `svc_pat_<id>_<secret>`, sent as `Authorization: Bearer`. */
  token?: string;
  /** A console session cookie for use outside a browser (`svc_session=...`); browsers send theirs themselves. */
  cookie?: string;
  /** The session's CSRF token, sent as X-CSRF-Token on every change; `session.signIn` sets it. */
  csrfToken?: string;
  /** Fetch credentials mode for browser use; default 'include' without a token. */
  credentials?: RequestCredentials;
  /** Per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
}

export interface WaitOptions {
  /** Poll interval in milliseconds; SPEC.md's default is 5 s. */
  intervalMs?: number;
  /** Give up (SvcTimeoutError) after this long; default 10 minutes. */
  timeoutMs?: number;
  /** Called with every polled job, for progress. */
  onProgress?: (job: InstallJob) => void;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const envBaseUrl = () => (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SVC_BASE_URL || undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Answer = { data?: unknown; error?: unknown; response: Response };

/** A typed client of the Analytics Workspace Service over openapi-fetch. */
/** Identity operations (admin scope): method and path of each, called through one typed-by-document helper. */
const IDENTITY_ROUTES = {
  addFirewallRule: ['POST', '/api/admin/identity/workspaces/{workspaceId}/firewall-rules'],
  approveIncidentChange: ['POST', '/api/admin/identity/incidents/{incidentId}/approvals'],
  checkEgressAddress: ['GET', '/api/admin/identity/workspaces/{workspaceId}/firewall-check'],
  closeIncident: ['POST', '/api/admin/identity/incidents/{incidentId}/close'],
  deleteCredential: ['DELETE', '/api/admin/identity/credentials/{credentialId}'],
  diagnoseIdentityFailure: ['GET', '/api/admin/identity/diagnose'],
  diagnoseIdentityFailureBody: ['POST', '/api/admin/identity/diagnose'],
  fileChangeRequest: ['POST', '/api/admin/identity/incidents/{incidentId}/approvals/{approvalId}/change-request'],
  getIdentityChange: ['GET', '/api/admin/identity/changes/{changeId}'],
  getIncident: ['GET', '/api/admin/identity/incidents/{incidentId}'],
  getRotation: ['GET', '/api/admin/identity/rotations/{rotationId}'],
  grantWorkspaceRole: ['POST', '/api/admin/identity/workspaces/{workspaceId}/role-assignments'],
  inspectIdentityToken: ['POST', '/api/admin/identity/inspect-token'],
  listCredentials: ['GET', '/api/admin/identity/credentials'],
  listFirewallRules: ['GET', '/api/admin/identity/workspaces/{workspaceId}/firewall-rules'],
  listIdentityAlerts: ['GET', '/api/admin/identity/alerts'],
  listIdentityChanges: ['GET', '/api/admin/identity/changes'],
  listIdentitySignals: ['GET', '/api/admin/identity/signals'],
  listIncidentEvents: ['GET', '/api/admin/identity/incidents/{incidentId}/events'],
  listIncidents: ['GET', '/api/admin/identity/incidents'],
  listRotations: ['GET', '/api/admin/identity/rotations'],
  listWorkspaceRoleAssignments: ['GET', '/api/admin/identity/workspaces/{workspaceId}/role-assignments'],
  openIncident: ['POST', '/api/admin/identity/incidents'],
  recordIncidentChange: ['POST', '/api/admin/identity/incidents/{incidentId}/changes'],
  registerCredential: ['POST', '/api/admin/identity/credentials'],
  removeFirewallRule: ['DELETE', '/api/admin/identity/workspaces/{workspaceId}/firewall-rules/{ruleId}'],
  rollBackIdentityChange: ['POST', '/api/admin/identity/changes/{changeId}/rollback'],
  rollBackRotation: ['POST', '/api/admin/identity/rotations/{rotationId}/rollback'],
  runIdentityProbe: ['POST', '/api/admin/identity/probes'],
  runRotationStep: ['POST', '/api/admin/identity/rotations/{rotationId}/steps/{step}'],
  snapshotPolicy: ['POST', '/api/admin/identity/incidents/{incidentId}/snapshots'],
  startRotation: ['POST', '/api/admin/identity/credentials/{credentialId}/rotations'],
  verifyIncidentFix: ['POST', '/api/admin/identity/incidents/{incidentId}/verify'],
} as const;

export type IdentityOperation = keyof typeof IDENTITY_ROUTES;

export class SvcClient {
  /** The underlying openapi-fetch client, typed by the generated paths, for anything the facade does not name. */
  readonly api: FetchClient<paths>;
  readonly baseUrl: string;
  private csrfToken?: string;
  private cookie?: string;
  private readonly timeoutMs: number;

  constructor(options: SvcClientOptions = {}) {
    const inBrowser = typeof window !== 'undefined' && typeof window.location !== 'undefined';
    const baseUrl = options.baseUrl ?? envBaseUrl() ?? (inBrowser ? window.location.origin : undefined);
    if (!baseUrl) throw new SvcError('No deployment address: pass baseUrl or set SVC_BASE_URL');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.csrfToken = options.csrfToken;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    this.cookie = options.cookie;
    this.api = createFetchClient<paths>({
      baseUrl: this.baseUrl,
      headers,
      fetch: options.fetch,
      credentials: options.credentials ?? (options.token ? 'same-origin' : 'include'),
    });
    this.api.use({
      onRequest: ({ request }) => {
        if (this.cookie && !request.headers.has('cookie')) request.headers.set('cookie', this.cookie);
        if (!SAFE.has(request.method) && this.csrfToken && !request.headers.has('authorization'))
          request.headers.set('x-csrf-token', this.csrfToken);
        return request;
      },
    });
  }

  /** Runs one call: network failures, timeouts and error envelopes throw; a success body must be `{ok: true}`. */
  private async run<T>(
    operationId: string,
    send: (init: { signal: AbortSignal }) => Promise<Answer>,
    pick: (body: Record<string, unknown>, response: Response) => T,
    expect: 'envelope' | 'object' | 'text' = 'envelope',
  ): Promise<T> {
    let answer: Answer;
    try {
      answer = await send({ signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new SvcTimeoutError(`${operationId}: timed out after ${this.timeoutMs} ms`, undefined, { cause: err });
      throw new SvcConnectionError(`${operationId}: cannot reach ${this.baseUrl}: ${(err as Error)?.message ?? err}`, { cause: err });
    }
    const { response } = answer;
    if (!response.ok) throw errorFromResponse(response, answer.error);
    if (expect === 'text') {
      if (typeof answer.data !== 'string') throw new SvcProtocolError(`${operationId}: the answer is not text`);
      return answer.data as T;
    }
    const body = answer.data as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || (expect === 'envelope' && body.ok !== true))
      throw new SvcProtocolError(`${operationId}: the answer is not a success envelope`);
    return pick(body, response);
  }

  /** The value of `key`, which must be present. */
  private static key<T>(key: string) {
    return (body: Record<string, unknown>): T => {
      if (body[key] === undefined || body[key] === null) throw new SvcProtocolError(`the answer has no '${key}'`);
      return body[key] as T;
    };
  }

  private static rest<T>(body: Record<string, unknown>): T {
    const { ok: _ok, ...rest } = body;
    return rest as T;
  }

  private static page<T>(key: string) {
    return (body: Record<string, unknown>): Page<T> => {
      const list = body[key];
      if (!Array.isArray(list)) throw new SvcProtocolError(`the answer has no list '${key}'`);
      return Object.assign([...list] as T[], body.nextCursor ? { nextCursor: body.nextCursor as string } : {});
    };
  }

  private static query(o?: object): Record<string, string> | undefined {
    if (!o) return undefined;
    return Object.fromEntries(
      Object.entries(o)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
  }

  /** Every entry of a paged list, page after page. */
  private async *pages<T>(list: (cursor?: string) => Promise<Page<T>>): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      yield* page;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** The current caller: tenant, user, how it authenticated, scopes. */
  whoami(): Promise<WhoAmI> {
    return this.run('whoami', (i) => this.api.GET('/api/whoami', i), SvcClient.rest<WhoAmI>);
  }

  readonly system = {
    /** Liveness, the store, the cloud. */
    health: () => this.run('getHealth', (i) => this.api.GET('/api/health', i), SvcClient.rest<Result<'getHealth'>>),
    /** Prometheus text metrics. */
    metrics: () =>
      this.run(
        'getMetrics',
        (i) => this.api.GET('/metrics', { ...i, parseAs: 'text' }) as Promise<Answer>,
        (b) => b as unknown as string,
        'text',
      ),
    /** The deployment's OpenAPI 3.1 document. */
    openapi: () =>
      this.run(
        'getOpenApiDocument',
        (i) => this.api.GET('/api/openapi.json', i),
        (b) => b as Record<string, unknown> & { openapi: string },
        'object',
      ),
  };

  readonly session = {
    /**
     * Opens a console session with a token and keeps its CSRF token for changes. A browser keeps the cookie itself;
     * outside a browser the client keeps it from Set-Cookie.
     */
    signIn: async (token: string) => {
      const r = await this.run(
        'createSession',
        (i) => this.api.POST('/api/session', { ...i, body: { token } }),
        (body, response) => {
          const cookie = response.headers
            .getSetCookie?.()
            .map((c) => c.split(';')[0]!)
            .find((c) => c.startsWith('svc_session='));
          if (cookie) this.cookie = cookie;
          return SvcClient.rest<Result<'createSession'>>(body);
        },
      );
      this.csrfToken = r.csrfToken;
      return r;
    },
    /** Ends the console session. */
    signOut: () => this.run('deleteSession', (i) => this.api.DELETE('/api/session', i), SvcClient.rest<Result<'deleteSession'>>),
    /**
     * Where a browser goes to sign in with the cloud's identity provider (GET /api/auth/login answers a redirect to
     * it); `returnTo` is the console path to land on. Navigate to it; there is nothing for a script to fetch.
     */
    identityProviderSignInUrl: (returnTo?: string) =>
      `${this.baseUrl}/api/auth/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
    /** The redirect URI to register with the identity provider (GET /api/auth/callback, where it sends the browser back). */
    identityProviderRedirectUri: () => `${this.baseUrl}/api/auth/callback`,
  };

  /**
   * Identity operations under /api/admin/identity (admin scope), one method per operation:
   * `client.identity.listFirewallRules({ path: { workspaceId } })`. Answers the success body without `ok`.
   */
  readonly identity = Object.fromEntries(
    (Object.entries(IDENTITY_ROUTES) as Array<[IdentityOperation, readonly [string, string]]>).map(([id, [method, path]]) => [
      id,
      (params: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {}) =>
        this.run(
          id,
          (i) =>
            (this.api as unknown as Record<string, (p: string, o: object) => Promise<Answer>>)[method]!(path, {
              ...i,
              params: { path: params.path, query: params.query },
              body: params.body,
            }),
          SvcClient.rest<Record<string, unknown>>,
        ),
    ]),
  ) as Record<
    IdentityOperation,
    (params?: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown }) => Promise<Record<string, unknown>>
  >;

  /** The deployment operator's calls (scope `operator`): tenants, and the platform workspaces and targets each may use. */
  readonly operator = {
    listTenants: (o?: PageOptions) =>
      this.run(
        'listTenants',
        (i) => this.api.GET('/api/operator/tenants', { ...i, params: { query: SvcClient.query(o) } }),
        SvcClient.page<Tenant>('tenants'),
      ),
    createTenant: (body: RequestBody<'createTenant'>) =>
      this.run('createTenant', (i) => this.api.POST('/api/operator/tenants', { ...i, body }), SvcClient.key<Tenant>('tenant')),
    getTenant: (tenantId: string) =>
      this.run(
        'getTenant',
        (i) => this.api.GET('/api/operator/tenants/{tenantId}', { ...i, params: { path: { tenantId } } }),
        SvcClient.key<Tenant>('tenant'),
      ),
    /** A token of the tenant's first admin (created when absent); `secret` is shown only in this answer. */
    createAdminToken: (tenantId: string, body: RequestBody<'createTenantAdminToken'> = {}) =>
      this.run(
        'createTenantAdminToken',
        (i) => this.api.POST('/api/operator/tenants/{tenantId}/admin-tokens', { ...i, params: { path: { tenantId } }, body }),
        SvcClient.rest<Result<'createTenantAdminToken'>>,
      ),
    listPlatformWorkspaces: (tenantId: string) =>
      this.run(
        'listTenantPlatformWorkspaces',
        (i) => this.api.GET('/api/operator/tenants/{tenantId}/platform-workspaces', { ...i, params: { path: { tenantId } } }),
        SvcClient.key<ResourceAssignment[]>('platformWorkspaces'),
      ),
    assignPlatformWorkspace: (tenantId: string, platformWorkspaceId: string) =>
      this.run(
        'assignPlatformWorkspace',
        (i) =>
          this.api.POST('/api/operator/tenants/{tenantId}/platform-workspaces', {
            ...i,
            params: { path: { tenantId } },
            body: { platformWorkspaceId },
          }),
        SvcClient.key<ResourceAssignment>('assignment'),
      ),
    unassignPlatformWorkspace: (tenantId: string, platformWorkspaceId: string) =>
      this.run(
        'unassignPlatformWorkspace',
        (i) =>
          this.api.DELETE('/api/operator/tenants/{tenantId}/platform-workspaces/{platformWorkspaceId}', {
            ...i,
            params: { path: { tenantId, platformWorkspaceId } },
          }),
        SvcClient.rest<Result<'unassignPlatformWorkspace'>>,
      ),
    listTargets: (tenantId: string) =>
      this.run(
        'listTenantTargets',
        (i) => this.api.GET('/api/operator/tenants/{tenantId}/targets', { ...i, params: { path: { tenantId } } }),
        SvcClient.key<ResourceAssignment[]>('targets'),
      ),
    assignTarget: (tenantId: string, body: RequestBody<'assignTarget'>) =>
      this.run(
        'assignTarget',
        (i) => this.api.POST('/api/operator/tenants/{tenantId}/targets', { ...i, params: { path: { tenantId } }, body }),
        SvcClient.key<ResourceAssignment>('assignment'),
      ),
    unassignTarget: (tenantId: string, targetId: string) =>
      this.run(
        'unassignTarget',
        (i) => this.api.DELETE('/api/operator/tenants/{tenantId}/targets/{targetId}', { ...i, params: { path: { tenantId, targetId } } }),
        SvcClient.key<string>('unassigned'),
      ),
    listApplications: (tenantId: string) =>
      this.run(
        'listTenantApplications',
        (i) => this.api.GET('/api/operator/tenants/{tenantId}/applications', { ...i, params: { path: { tenantId } } }),
        SvcClient.key<ResourceAssignment[]>('applications'),
      ),
    /** An app registration (and the vault secret its rotations write) the tenant's admins may rotate. */
    assignApplication: (tenantId: string, body: RequestBody<'assignApplication'>) =>
      this.run(
        'assignApplication',
        (i) => this.api.POST('/api/operator/tenants/{tenantId}/applications', { ...i, params: { path: { tenantId } }, body }),
        SvcClient.key<ResourceAssignment>('assignment'),
      ),
    unassignApplication: (tenantId: string, clientId: string) =>
      this.run(
        'unassignApplication',
        (i) =>
          this.api.DELETE('/api/operator/tenants/{tenantId}/applications/{clientId}', { ...i, params: { path: { tenantId, clientId } } }),
        SvcClient.key<string>('unassigned'),
      ),
  };

  readonly tokens = {
    list: (o?: PageOptions) =>
      this.run(
        'listTokens',
        (i) => this.api.GET('/api/tokens', { ...i, params: { query: SvcClient.query(o) } }),
        SvcClient.page<ApiToken>('tokens'),
      ),
    iterate: (o?: Omit<PageOptions, 'cursor'>) => this.pages((cursor) => this.tokens.list({ ...o, cursor })),
    /** Creates a token; `secret` is shown only in this answer. */
    create: (body: RequestBody<'createToken'>) =>
      this.run('createToken', (i) => this.api.POST('/api/tokens', { ...i, body }), SvcClient.rest<Result<'createToken'>>),
    revoke: (tokenId: string) =>
      this.run(
        'revokeToken',
        (i) => this.api.DELETE('/api/tokens/{tokenId}', { ...i, params: { path: { tokenId } } }),
        SvcClient.key<string>('revoked'),
      ),
  };

  readonly workspaces = {
    list: (o?: PageOptions) =>
      this.run(
        'listWorkspaces',
        (i) => this.api.GET('/api/workspaces', { ...i, params: { query: SvcClient.query(o) } }),
        SvcClient.page<Workspace>('workspaces'),
      ),
    iterate: (o?: Omit<PageOptions, 'cursor'>) => this.pages((cursor) => this.workspaces.list({ ...o, cursor })),
    create: (body: RequestBody<'createWorkspace'>) =>
      this.run('createWorkspace', (i) => this.api.POST('/api/workspaces', { ...i, body }), SvcClient.key<Workspace>('workspace')),
    get: (workspaceId: string) =>
      this.run(
        'getWorkspace',
        (i) => this.api.GET('/api/workspaces/{workspaceId}', { ...i, params: { path: { workspaceId } } }),
        SvcClient.key<Workspace>('workspace'),
      ),
    update: (workspaceId: string, body: RequestBody<'updateWorkspace'>) =>
      this.run(
        'updateWorkspace',
        (i) => this.api.PATCH('/api/workspaces/{workspaceId}', { ...i, params: { path: { workspaceId } }, body }),
        SvcClient.key<Workspace>('workspace'),
      ),
    delete: (workspaceId: string) =>
      this.run(
        'deleteWorkspace',
        (i) => this.api.DELETE('/api/workspaces/{workspaceId}', { ...i, params: { path: { workspaceId } } }),
        SvcClient.key<string>('deleted'),
      ),
  };

  readonly items = {
    /** Every item type, and whether an install provisions it live. */
    types: () => this.run('listItemTypes', (i) => this.api.GET('/api/item-types', i), SvcClient.key<ItemType[]>('itemTypes')),
    list: (workspaceId: string, o?: PageOptions & { itemType?: string }) =>
      this.run(
        'listItems',
        (i) => this.api.GET('/api/workspaces/{workspaceId}/items', { ...i, params: { path: { workspaceId }, query: SvcClient.query(o) } }),
        SvcClient.page<Item>('items'),
      ),
    iterate: (workspaceId: string, o?: { limit?: number; itemType?: string }) =>
      this.pages((cursor) => this.items.list(workspaceId, { ...o, cursor })),
    create: (workspaceId: string, body: RequestBody<'createItem'>) =>
      this.run(
        'createItem',
        (i) => this.api.POST('/api/workspaces/{workspaceId}/items', { ...i, params: { path: { workspaceId } }, body }),
        SvcClient.key<Item>('item'),
      ),
    get: (workspaceId: string, itemId: string) =>
      this.run(
        'getItem',
        (i) => this.api.GET('/api/workspaces/{workspaceId}/items/{itemId}', { ...i, params: { path: { workspaceId, itemId } } }),
        SvcClient.key<Item>('item'),
      ),
    update: (workspaceId: string, itemId: string, body: RequestBody<'updateItem'>) =>
      this.run(
        'updateItem',
        (i) => this.api.PATCH('/api/workspaces/{workspaceId}/items/{itemId}', { ...i, params: { path: { workspaceId, itemId } }, body }),
        SvcClient.key<Item>('item'),
      ),
    delete: (workspaceId: string, itemId: string) =>
      this.run(
        'deleteItem',
        (i) => this.api.DELETE('/api/workspaces/{workspaceId}/items/{itemId}', { ...i, params: { path: { workspaceId, itemId } } }),
        SvcClient.key<string>('deleted'),
      ),
    /** The stored content and its ETag. */
    getContent: (workspaceId: string, itemId: string) =>
      this.run(
        'getItemContent',
        (i) => this.api.GET('/api/workspaces/{workspaceId}/items/{itemId}/content', { ...i, params: { path: { workspaceId, itemId } } }),
        SvcClient.rest<Result<'getItemContent'>>,
      ),
    /** Saves content; `ifMatch` is the ETag read (or '*'); answers the new ETag. */
    putContent: (workspaceId: string, itemId: string, content: unknown, ifMatch: string) =>
      this.run(
        'putItemContent',
        (i) =>
          this.api.PUT('/api/workspaces/{workspaceId}/items/{itemId}/content', {
            ...i,
            params: { path: { workspaceId, itemId }, header: { 'if-match': ifMatch } },
            body: { content },
          }),
        SvcClient.key<string>('etag'),
      ),
  };

  readonly catalog = {
    listApps: () => this.run('listApps', (i) => this.api.GET('/api/apps', i), SvcClient.key<AppSummary[]>('apps')),
    getApp: (appId: string) =>
      this.run('getApp', (i) => this.api.GET('/api/apps/{appId}', { ...i, params: { path: { appId } } }), SvcClient.key<AppDetail>('app')),
  };

  readonly installs = {
    /** Starts an install (202); poll with `get` or `wait`. */
    start: (appId: string, body: RequestBody<'installApp'>) =>
      this.run(
        'installApp',
        (i) => this.api.POST('/api/apps/{appId}/install', { ...i, params: { path: { appId } }, body }),
        SvcClient.rest<Result<'installApp'>>,
      ),
    get: (jobId: string) =>
      this.run(
        'getInstallJob',
        (i) => this.api.GET('/api/apps/install-jobs/{jobId}', { ...i, params: { path: { jobId } } }),
        SvcClient.key<InstallJob>('job'),
      ),
    list: (o?: PageOptions & { workspaceId?: string }) =>
      this.run(
        'listInstallJobs',
        (i) => this.api.GET('/api/apps/install-jobs', { ...i, params: { query: SvcClient.query(o) } }),
        SvcClient.page<InstallJob>('jobs'),
      ),
    iterate: (o?: { limit?: number; workspaceId?: string }) => this.pages((cursor) => this.installs.list({ ...o, cursor })),
    /** Re-opens one provisioning step for the service's worker (202): answers the job, running again; follow it with `wait`. */
    retryStep: (jobId: string, stepIndex: number) =>
      this.run(
        'retryInstallStep',
        (i) =>
          this.api.POST('/api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry', {
            ...i,
            params: { path: { jobId, stepIndex: String(stepIndex) } },
          }),
        SvcClient.key<InstallJob>('job'),
      ),
    /** Polls the job every `intervalMs` (default 5 s) until its status is not running; returns the final job. */
    wait: async (jobId: string, o: WaitOptions = {}): Promise<InstallJob> => {
      const interval = o.intervalMs ?? 5000;
      const deadline = Date.now() + (o.timeoutMs ?? 600_000);
      for (;;) {
        const job = await this.installs.get(jobId);
        o.onProgress?.(job);
        if (job.status !== 'running') return job;
        if (Date.now() + interval > deadline)
          throw new SvcTimeoutError(`install job ${jobId} still running (${job.percentComplete}%)`, job);
        await sleep(interval);
      }
    },
    /** The job's server-sent events (phase, item-created, step, done), replayed after `lastEventId`. */
    events: (jobId: string, o: { lastEventId?: string } = {}) => this.eventStream(jobId, o.lastEventId),
  };

  readonly thread = {
    list: (workspaceId: string) =>
      this.run(
        'listThreadEdges',
        (i) => this.api.GET('/api/workspaces/{workspaceId}/thread/edges', { ...i, params: { path: { workspaceId } } }),
        SvcClient.key<ThreadEdge[]>('edges'),
      ),
    add: (workspaceId: string, body: RequestBody<'createThreadEdge'>) =>
      this.run(
        'createThreadEdge',
        (i) => this.api.POST('/api/workspaces/{workspaceId}/thread/edges', { ...i, params: { path: { workspaceId } }, body }),
        SvcClient.key<ThreadEdge>('edge'),
      ),
    remove: (workspaceId: string, edgeId: string) =>
      this.run(
        'deleteThreadEdge',
        (i) => this.api.DELETE('/api/workspaces/{workspaceId}/thread/edges/{edgeId}', { ...i, params: { path: { workspaceId, edgeId } } }),
        SvcClient.key<string>('deleted'),
      ),
  };

  /**
   * Paginated reports of a workspace, every call made by the service to the reporting service. `exportToFile` starts
   * an export, polls it (honouring Retry-After) and answers the file.
   */
  readonly reports = {
    list: (workspaceId: string) =>
      this.run(
        'listPaginatedReports',
        (i) => this.api.GET('/api/items/paginated-report', { ...i, params: { query: { workspaceId } } }),
        SvcClient.key<PaginatedReport[]>('reports'),
      ),
    /** Publishes a new report from RDL (409 when the name is taken). */
    publish: (workspaceId: string, body: RequestBody<'publishPaginatedReport'>) =>
      this.run(
        'publishPaginatedReport',
        (i) => this.api.POST('/api/items/paginated-report', { ...i, params: { query: { workspaceId } }, body }),
        SvcClient.key<PaginatedReport>('report'),
      ),
    get: (workspaceId: string, reportId: string) =>
      this.run(
        'getPaginatedReport',
        (i) => this.api.GET('/api/items/paginated-report/{reportId}', { ...i, params: { path: { reportId }, query: { workspaceId } } }),
        SvcClient.key<PaginatedReport>('report'),
      ),
    delete: (workspaceId: string, reportId: string) =>
      this.run(
        'deletePaginatedReport',
        (i) => this.api.DELETE('/api/items/paginated-report/{reportId}', { ...i, params: { path: { reportId }, query: { workspaceId } } }),
        SvcClient.key<string>('deleted'),
      ),
    /** The RDL, its ETag and its parameters. */
    getDefinition: (workspaceId: string, reportId: string) =>
      this.run(
        'getPaginatedReportDefinition',
        (i) =>
          this.api.GET('/api/items/paginated-report/{reportId}/definition', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
          }),
        SvcClient.rest<Result<'getPaginatedReportDefinition'>>,
      ),
    /** Publishes the RDL back; `ifMatch` is the ETag read (or '*'). */
    putDefinition: (workspaceId: string, reportId: string, definition: string, ifMatch: string) =>
      this.run(
        'putPaginatedReportDefinition',
        (i) =>
          this.api.PUT('/api/items/paginated-report/{reportId}/definition', {
            ...i,
            params: { path: { reportId }, query: { workspaceId }, header: { 'if-match': ifMatch } },
            body: { definition },
          }),
        SvcClient.rest<Result<'putPaginatedReportDefinition'>>,
      ),
    clone: (workspaceId: string, reportId: string, body: RequestBody<'clonePaginatedReport'>) =>
      this.run(
        'clonePaginatedReport',
        (i) =>
          this.api.POST('/api/items/paginated-report/{reportId}/clone', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        SvcClient.key<PaginatedReport>('report'),
      ),
    datasources: (workspaceId: string, reportId: string) =>
      this.run(
        'listPaginatedReportDatasources',
        (i) =>
          this.api.GET('/api/items/paginated-report/{reportId}/datasources', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
          }),
        SvcClient.key<Result<'listPaginatedReportDatasources'>['datasources']>('datasources'),
      ),
    updateDatasources: (workspaceId: string, reportId: string, body: RequestBody<'updatePaginatedReportDatasources'>) =>
      this.run(
        'updatePaginatedReportDatasources',
        (i) =>
          this.api.POST('/api/items/paginated-report/{reportId}/datasources', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        SvcClient.key<Result<'updatePaginatedReportDatasources'>['datasources']>('datasources'),
      ),
    embedToken: (workspaceId: string, reportId: string, body: RequestBody<'createPaginatedReportEmbedToken'> = {}) =>
      this.run(
        'createPaginatedReportEmbedToken',
        (i) =>
          this.api.POST('/api/items/paginated-report/{reportId}/embed-token', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        SvcClient.rest<Result<'createPaginatedReportEmbedToken'>>,
      ),
    startExport: (workspaceId: string, reportId: string, body: RequestBody<'startPaginatedReportExport'>) =>
      this.run(
        'startPaginatedReportExport',
        (i) =>
          this.api.POST('/api/items/paginated-report/{reportId}/exports', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        SvcClient.key<ReportExport>('export'),
      ),
    getExport: (workspaceId: string, reportId: string, exportId: string) =>
      this.run(
        'getPaginatedReportExport',
        (i) =>
          this.api.GET('/api/items/paginated-report/{reportId}/exports/{exportId}', {
            ...i,
            params: { path: { reportId, exportId }, query: { workspaceId } },
          }),
        (b, r) => ({ export: b.export as ReportExport, retryAfter: Number(r.headers.get('retry-after')) || undefined }),
      ),
    /** The exported file's bytes, content type and file name. */
    exportFile: async (
      workspaceId: string,
      reportId: string,
      exportId: string,
    ): Promise<{ bytes: Uint8Array; contentType: string; fileName?: string }> => {
      let answer: Answer;
      try {
        answer = (await this.api.GET('/api/items/paginated-report/{reportId}/exports/{exportId}/file', {
          params: { path: { reportId, exportId }, query: { workspaceId } },
          parseAs: 'arrayBuffer',
          signal: AbortSignal.timeout(this.timeoutMs),
        })) as Answer;
      } catch (err) {
        throw new SvcConnectionError(`getPaginatedReportExportFile: cannot reach ${this.baseUrl}: ${(err as Error)?.message ?? err}`, {
          cause: err,
        });
      }
      if (!answer.response.ok) throw errorFromResponse(answer.response, answer.error);
      const disposition = answer.response.headers.get('content-disposition') ?? '';
      const fileName = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
      return {
        bytes: new Uint8Array(answer.data as ArrayBuffer),
        contentType: answer.response.headers.get('content-type') ?? 'application/octet-stream',
        fileName: fileName ? decodeURIComponent(fileName) : undefined,
      };
    },
    /** Starts an export, polls it (Retry-After, else every second) until it ends, and answers its file; a Failed export throws. */
    exportToFile: async (
      workspaceId: string,
      reportId: string,
      body: RequestBody<'startPaginatedReportExport'>,
      o: { timeoutMs?: number; onProgress?: (e: ReportExport) => void } = {},
    ) => {
      let job = await this.reports.startExport(workspaceId, reportId, body);
      const deadline = Date.now() + (o.timeoutMs ?? 600_000);
      while (job.status !== 'Succeeded' && job.status !== 'Failed') {
        const polled = await this.reports.getExport(workspaceId, reportId, job.id);
        job = polled.export;
        o.onProgress?.(job);
        if (job.status === 'Succeeded' || job.status === 'Failed') break;
        if (Date.now() > deadline) throw new SvcTimeoutError(`export ${job.id} still ${job.status} (${job.percentComplete}%)`, job);
        await sleep((polled.retryAfter ?? 1) * 1000);
      }
      if (job.status === 'Failed') throw new SvcError(`export ${job.id} of report ${reportId} failed in the reporting service`);
      return { export: job, ...(await this.reports.exportFile(workspaceId, reportId, job.id)) };
    },
  };

  private async *eventStream(jobId: string, lastEventId?: string): AsyncGenerator<InstallEvent> {
    const { response, error } = await this.api.GET('/api/apps/install-jobs/{jobId}/events', {
      params: { path: { jobId }, header: lastEventId ? { 'last-event-id': lastEventId } : {} },
      headers: { accept: 'text/event-stream' },
      parseAs: 'stream',
    });
    if (!response.ok) throw errorFromResponse(response, error);
    if (!response.body) throw new SvcProtocolError('streamInstallJobEvents: no event stream');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: InstallEvent = { event: 'message', data: undefined };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') event.id = value;
          else if (field === 'event') event.event = value;
          else if (field === 'data') data.push(value);
        }
        if (!data.length) continue;
        try {
          event.data = JSON.parse(data.join('\n'));
        } catch {
          event.data = data.join('\n');
        }
        yield event;
      }
    }
  }
}

/** Builds a client: `createSvcClient({ baseUrl, token })`, or `{ baseUrl, cookie, csrfToken }` for a console session. */
export function createSvcClient(options: SvcClientOptions = {}): SvcClient {
  return new SvcClient(options);
}
