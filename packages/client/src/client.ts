import type { Client as FetchClient } from 'openapi-fetch';
import { auditApi } from './api/audit.js';
import { catalogApi } from './api/catalog.js';
import { driftApi } from './api/drift.js';
import { identityApi } from './api/identity.js';
import { installsApi } from './api/installs.js';
import { jobsApi } from './api/jobs.js';
import { itemsApi } from './api/items.js';
import { operatorApi } from './api/operator.js';
import { reportsApi } from './api/reports.js';
import { sessionApi } from './api/session.js';
import { systemApi } from './api/system.js';
import { threadApi } from './api/thread.js';
import { accessApi } from './api/access.js';
import { tokensApi } from './api/tokens.js';
import { upgradeApi } from './api/upgrade.js';
import { workspacesApi } from './api/workspaces.js';
import { appsApi, itemsUninstallApi, workspacesUninstallApi } from './api/uninstall.js';
import type { paths } from './generated/openapi.js';
import { rest, Transport } from './transport.js';
import type { SvcClientOptions, WhoAmI } from './types.js';

/** A typed client of the Analytics Workspace Service over openapi-fetch: one member per API area (api/). */
export class SvcClient {
  /** The underlying openapi-fetch client, typed by the generated paths, for anything the facade does not name. */
  readonly api: FetchClient<paths>;
  readonly baseUrl: string;
  private readonly transport: Transport;
  readonly system: ReturnType<typeof systemApi>;
  readonly session: ReturnType<typeof sessionApi>;
  /**
   * Identity operations under /api/admin/identity (admin scope), one method per operation:
   * `client.identity.listFirewallRules({ path: { workspaceId } })`. Answers the success body without `ok`.
   */
  readonly identity: ReturnType<typeof identityApi>;
  /** The deployment operator's calls (scope `operator`): tenants, and the platform workspaces and targets each may use. */
  readonly operator: ReturnType<typeof operatorApi>;
  readonly tokens: ReturnType<typeof tokensApi>;
  readonly workspaces: ReturnType<typeof workspacesApi> & ReturnType<typeof workspacesUninstallApi>;
  readonly items: ReturnType<typeof itemsApi> & ReturnType<typeof itemsUninstallApi>;
  /** Installed apps' lifecycle: `upgrade` and `uninstall`, each answering its job (follow it with `jobs.wait`). */
  readonly apps: ReturnType<typeof appsApi> & ReturnType<typeof upgradeApi>;
  readonly catalog: ReturnType<typeof catalogApi>;
  readonly installs: ReturnType<typeof installsApi>;
  /** Jobs of every kind: upgrade, uninstall, apply and drift (and installs) — poll, wait, list, retry, events. */
  readonly jobs: ReturnType<typeof jobsApi>;
  /** Drift checks of a workspace: `check` starts one (a job), `last` reads the last result. */
  readonly drift: ReturnType<typeof driftApi>;
  readonly thread: ReturnType<typeof threadApi>;
  /** Role assignments of a workspace (list, add, change, remove) and the principals to choose from. */
  readonly access: ReturnType<typeof accessApi>;
  /**
   * Paginated reports of a workspace, every call made by the service to the reporting service. `exportToFile` starts
   * an export, polls it (honouring Retry-After) and answers the file.
   */
  readonly reports: ReturnType<typeof reportsApi>;
  /** The tenant's audit trail (admin scope): `list(filters)` a page, `iterate(filters)` every event, newest first. */
  readonly audit: ReturnType<typeof auditApi>;

  constructor(options: SvcClientOptions = {}) {
    const t = new Transport(options);
    this.transport = t;
    this.api = t.api;
    this.baseUrl = t.baseUrl;
    this.system = systemApi(t);
    this.session = sessionApi(t);
    this.identity = identityApi(t);
    this.operator = operatorApi(t);
    this.tokens = tokensApi(t);
    // The delete of a workspace takes force and purgeData; an item's delete has deleteLive (uninstall.ts).
    this.workspaces = { ...workspacesApi(t), ...workspacesUninstallApi(t) };
    this.items = { ...itemsApi(t), ...itemsUninstallApi(t) };
    this.apps = { ...appsApi(t), ...upgradeApi(t) };
    this.catalog = catalogApi(t);
    this.installs = installsApi(t);
    this.jobs = jobsApi(t);
    this.drift = driftApi(t);
    this.thread = threadApi(t);
    this.access = accessApi(t);
    this.reports = reportsApi(t);
    this.audit = auditApi(t);
  }

  /** The current caller: tenant, user, how it authenticated, scopes. */
  whoami(): Promise<WhoAmI> {
    return this.transport.run('whoami', (i) => this.api.GET('/api/whoami', i), rest<WhoAmI>);
  }
}

/** Builds a client: `createSvcClient({ baseUrl, token })`, or `{ baseUrl, cookie, csrfToken }` for a console session. */
export function createSvcClient(options: SvcClientOptions = {}): SvcClient {
  return new SvcClient(options);
}
