import { cachedSerializerFactory } from './http/serializer-cache.js';
import { lazyValidatorFactory } from './http/lazy-validator.js';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConsolePages, registerConsole } from './web/console.js';
import './http/fastify-types.js';
import type { Config } from './config.js';
import type { Store } from './store/db.js';
import { TokenService } from './auth/token-service.js';
import { SessionService } from './auth/session-service.js';
import { ApiTokenSchema, authRoutes } from './auth/routes.js';
import { OidcSignIn, oidcSettings } from './auth/oidc.js';
import { oidcRoutes } from './auth/oidc-routes.js';
import { registerAuthentication } from './http/authenticate.js';
import { clientErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { registerInputGuard } from './http/input-guard.js';
import { loggableUrl } from './http/loggable-url.js';
import { registerQueryIntegers } from './http/query-integers.js';
import { registerMetrics } from './http/metrics.js';
import { Metrics } from './metrics.js';
import { RateLimiter } from './http/rate-limit.js';
import { registerSecurityHeaders, servedOverHttps } from './http/security-headers.js';
import { registerTracing } from './http/tracing.js';
import { startTracing, type Tracing } from './tracing/tracing.js';
import { traceFields } from './tracing/spans.js';
import { ErrorEnvelope } from './http/schemas.js';
import { WorkspaceService } from './workspaces/workspace-service.js';
import { WorkspaceSchema, workspaceRoutes } from './workspaces/routes.js';
import { ItemService } from './items/item-service.js';
import { ItemSchema, itemRoutes } from './items/routes.js';
import { ReadCache } from './store/read-cache.js';
import { registerOpenApi } from './openapi/register.js';
import { systemRoutes } from './openapi/system-routes.js';
import { configuredCatalog } from './catalog/configured-catalog.js';
import type { Catalog } from './catalog/types.js';
import { CATALOG_SCHEMAS, catalogRoutes } from './catalog/routes.js';
import { selectCloud, type CloudProfile } from './cloud/profiles.js';
import { serviceCredential, type TokenSource } from './backends/credential.js';
import { BackingPipeline } from './backends/http-pipeline.js';
import { DataPlatformClient } from './backends/data-platform.js';
import { OneLakeClient } from './backends/onelake.js';
import { LakeClient } from './backends/lake.js';
import { KqlClient } from './backends/kql.js';
import { EventHubsClient } from './backends/event-hubs.js';
import { SearchClient } from './backends/search.js';
import type { Backends } from './provisioning/context.js';
import { JobStore } from './install/job-store.js';
import { InstallRunner } from './install/runner.js';
import { InstallWorker } from './install/worker.js';
import { adaptiveConcurrency } from './install/job-concurrency.js';
import { InstallService } from './install/install-service.js';
import { installRoutes } from './install/routes.js';
import { INSTALL_SCHEMAS } from './install/schemas.js';
import { PlanService } from './install/plan-service.js';
import { PLAN_SCHEMAS, planRoutes } from './install/plan-routes.js';
import { InstalledAppService } from './installed-apps/installed-app-service.js';
import { installedAppRoutes } from './installed-apps/routes.js';
import { INSTALLED_APP_SCHEMAS } from './installed-apps/schemas.js';
import { buildLifecycle } from './lifecycle/index.js';
import { JOB_SCHEMAS, lifecycleRoutes } from './lifecycle/routes.js';
import { DriftSchedule } from './lifecycle/drift-schedule.js';
import { ThreadService } from './thread/thread-service.js';
import { THREAD_SCHEMAS, threadRoutes } from './thread/routes.js';
import { IdentityService } from './identity/identity-service.js';
import { identityRoutes } from './identity/routes/index.js';
import { IDENTITY_SCHEMAS } from './identity/schemas.js';
import { IdentitySignals } from './identity/signals.js';
import { ReportingClient } from './backends/reporting.js';
import { MonitorClient } from './backends/monitor.js';
import { SynapseClient } from './backends/synapse.js';
import { PaginatedReportService } from './reports/report-service.js';
import { reportRoutes } from './reports/routes.js';
import { previewRoutes } from './reports/preview-routes.js';
import { REPORT_SCHEMAS } from './reports/schemas.js';
import { TenancyService } from './tenancy/tenancy-service.js';
import { operatorRoutes } from './tenancy/routes.js';
import { TENANCY_SCHEMAS } from './tenancy/schemas.js';
import { AccessService } from './access/access-service.js';
import { RoleAssignmentService } from './access/role-assignment-service.js';
import { PrincipalService } from './access/principal-service.js';
import { accessRoutes } from './access/routes.js';
import { ACCESS_SCHEMAS } from './access/schemas.js';
import { registerWorkspaceAccess } from './access/enforce.js';
import { AuditService } from './audit/audit-service.js';
import { registerAuditTrail } from './http/audit-trail.js';
import { AuditEventSchema, auditRoutes } from './audit/routes.js';

/** What the app is built from: configuration, the store, and what other domains add to health. */
export interface AppDeps {
  config: Config;
  store: Store;
  /** Extra fields for GET /api/health (the cloud, the sandbox's admin address). */
  health?: () => Record<string, unknown>;
  logger?: boolean | object;
  /** Where the service's own logger (its level, redaction and serializers) writes, instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** Start the install worker (default true; tests of the API alone may leave it off). */
  worker?: boolean;
  /** Replace the service identity (tests); default: the credential SVC_IDENTITY selects. */
  credential?: TokenSource;
}

/** The domain services, reachable from tests and from main. */
export interface Services {
  tokens: TokenService;
  sessions: SessionService;
  workspaces: WorkspaceService;
  items: ItemService;
  metrics: Metrics;
  catalog: Catalog;
  profile: CloudProfile;
  backends: Backends;
  installs: InstallService;
  installedApps: InstalledAppService;
  worker?: InstallWorker;
  /** The drift schedule (SVC_DRIFT_INTERVAL); runs with the worker, tests call its tick(). */
  driftSchedule: DriftSchedule;
  thread: ThreadService;
  identity: IdentityService;
  reports: PaginatedReportService;
  tenancy: TenancyService;
  access: AccessService;
  roleAssignments: RoleAssignmentService;
  audit: AuditService;
  /** The process's tracing (off unless an exporter is configured); tests flush it to read what was exported. */
  tracing: Tracing;
}

/** Builds the Fastify app: plugins, hooks, then routes, in that order. */
export async function buildApp(
  deps: AppDeps,
): Promise<{ app: FastifyInstance; services: Services; routes: Array<{ method: string; url: string }> }> {
  const { config, store } = deps;
  const tracing = await startTracing(config.tracing, { 'svc.cloud': config.cloud.name });
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.server.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'],
      serializers: {
        req: (req: { method: string; url: string; hostname: string; ip: string }) => ({
          method: req.method,
          url: loggableUrl(req.url),
          hostname: req.hostname,
          remoteAddress: req.ip,
        }),
      },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      // Every line written inside a request or a job names its trace and span (none outside one).
      mixin: traceFields,
    },
    bodyLimit: config.server.bodyLimitBytes,
    clientErrorHandler,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.server.trustProxy,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: lazyValidatorFactory(), buildSerializer: cachedSerializerFactory() } },
    // Longer than any URL that gets past the 16 KiB header limit: an over-long id is then a 400 naming the parameter
    // (its schema's maxLength), never the router's own 414.
    routerOptions: { maxParamLength: 16 * 1024 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const metrics = new Metrics();
  // Verified tokens and workspace roles are kept alike (SVC_AUTH_CACHE_SECONDS); a write anywhere drops them at once.
  const access = AccessService.create(store.db, { versions: store.versions, cacheMs: config.auth.tokenCacheSeconds * 1000 });
  const tokens = TokenService.create(store.db, {
    cacheMs: config.auth.tokenCacheSeconds * 1000,
    notify: (id) => store.notify('svc_token_revoked', id),
    visible: async (caller, ids) => new Set((await access.rolesOn(caller, ids)).keys()),
    hearing: () => store.feed.live(),
  });
  await store.listen('svc_token_revoked', (id) => tokens.evict(id));
  store.feed.watch(
    () => tokens.forgetAll(),
    () => tokens.forgetAll(),
  );
  const sessions = SessionService.create(store.db, config.auth.sessionHours);
  const catalog = configuredCatalog(config.catalog.dir);
  const profile = selectCloud(config.cloud);
  const tenancy = TenancyService.create({ db: store.db, profile, sharedSet: config.sharedSet, native: config.native, tokens });
  const roleAssignments = RoleAssignmentService.create(store.db, access);
  const workspaces = WorkspaceService.create(store.db, tenancy, access);
  const items = ItemService.create(store, workspaces, profile);
  const credential = deps.credential ?? serviceCredential(config.identity, profile);
  const oidc = oidcSettings(config.oidc, profile, config.server.publicUrl);
  const signIn = oidc ? new OidcSignIn(store.db, oidc) : undefined;
  const signals = new IdentitySignals(store.db, metrics);
  const pipeline = new BackingPipeline(profile, credential, {
    timeoutMs: config.backing.timeoutMs,
    retryDelayMs: config.backing.retryDelayMs,
    retryAfterMaxMs: config.backing.retryAfterMaxMs,
    concurrencyPerService: config.backing.concurrency,
    throttleLimiter: config.backing.throttleLimiter,
    throttlePauseMaxMs: config.backing.throttlePauseMaxMs,
    onAuthFailure: (f) => signals.record(f),
    onCall: (service, status) =>
      metrics.count('svc_backing_calls_total', 'Backing-service calls by service and status', { service, status: String(status) }),
  });
  const backendsOn = (p: BackingPipeline): Backends => ({
    pipeline: p,
    dataPlatform: new DataPlatformClient(p, profile.dataPlatformApiUrl, profile.dataPlatformAudience, profile),
    oneLake: new OneLakeClient(p, profile.oneLakeUrl, profile.storageAudience),
    lake: new LakeClient(p, profile),
    kql: new KqlClient(p, profile.armUrl, profile.armAudience, config.cloud.overrides.kqlAudience ?? ''),
    eventHubs: new EventHubsClient(p, profile.armUrl, profile.armAudience),
    search: new SearchClient(p, profile.searchAudience),
    reporting: new ReportingClient(p, profile.biApiUrl, profile.biAudience),
    monitor: new MonitorClient(p, profile.armUrl, profile.armAudience),
    synapse: new SynapseClient(p, profile),
  });
  const backends = backendsOn(pipeline);
  // The worker's step writes leave four connections of the pool (SVC_DB_POOL) to requests.
  const jobs = new JobStore(store.db, config.install.leaseMs, store.kind === 'postgres' ? Math.max(1, config.store.pool - 4) : Infinity);
  // The worker's provisioning is background work: its backing calls give the event loop back to requests between steps.
  const runner = new InstallRunner({
    db: store.db,
    jobs,
    catalog,
    profile,
    tenancy,
    backends: backendsOn(pipeline.background()),
    concurrency: config.install.concurrency,
    locks: store.locks,
  });
  const installs = new InstallService({ jobs, catalog, workspaces, tenancy, profile, onAccepted: () => worker?.poke() });
  const lifecycle = buildLifecycle({
    jobs,
    workspaces,
    installs,
    stored: { db: store.db, catalog, profile, tenancy, backends: backendsOn(pipeline.background()), locks: store.locks },
    concurrency: config.install.concurrency,
    poke: () => worker?.poke(),
  });
  const worker =
    deps.worker === false
      ? undefined
      : new InstallWorker(jobs, { install: runner, ...lifecycle.runners }, app.log, {
          concurrency: adaptiveConcurrency(config.install, store.poolWait, () => worker?.poke()),
          pollMs: config.install.pollMs,
          heartbeatMs: Math.floor(config.install.leaseMs / 3),
        });
  worker?.registerGauges(metrics);
  const driftSchedule = new DriftSchedule({ db: store.db, drift: lifecycle.drift, log: app.log }, config.install.driftInterval);
  const plans = new PlanService({ installs, tenancy, profile, backends, db: store.db, workspaces });
  const installedApps = InstalledAppService.create(store.db, workspaces, catalog);
  workspaces.busy = (tenantId, workspaceId) => jobs.hasRunning(tenantId, workspaceId);
  workspaces.uninstaller = lifecycle.uninstalls;
  const thread = new ThreadService(store.db, workspaces);
  const identity = await IdentityService.create({
    db: store.db,
    profile,
    backends,
    signals,
    metrics,
    settings: config.identityOps,
    tenancy,
  });
  const reports = PaginatedReportService.create({
    client: backends.reporting,
    dataPlatform: backends.dataPlatform,
    workspaces,
    tenancy,
    profile,
    settings: config.reports,
  });
  const audit = AuditService.create(store.db);
  const services: Services = {
    tokens,
    sessions,
    workspaces,
    items,
    metrics,
    catalog,
    profile,
    backends,
    installs,
    installedApps,
    worker,
    driftSchedule,
    thread,
    identity,
    reports,
    tenancy,
    access,
    roleAssignments,
    audit,
    tracing,
  };

  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (r) => {
    if ((r.schema as { hide?: boolean } | undefined)?.hide) return; // the console's static files
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });
  registerTracing(app);
  app.removeContentTypeParser('text/plain'); // the API speaks JSON only: anything else is 415
  await registerSecurityHeaders(app, config.server.publicUrl);
  await app.register(cookie);
  for (const schema of [
    ErrorEnvelope,
    ApiTokenSchema,
    WorkspaceSchema,
    ItemSchema,
    ...CATALOG_SCHEMAS,
    ...INSTALL_SCHEMAS,
    ...PLAN_SCHEMAS,
    ...INSTALLED_APP_SCHEMAS,
    ...JOB_SCHEMAS,
    ...THREAD_SCHEMAS,
    ...IDENTITY_SCHEMAS,
    ...REPORT_SCHEMAS,
    ...TENANCY_SCHEMAS,
    ...ACCESS_SCHEMAS,
    AuditEventSchema,
  ])
    app.addSchema(schema);
  await registerOpenApi(app, config.server.publicUrl);
  registerErrorHandling(app, ConsolePages.load());
  registerMetrics(app, metrics, store.poolWait, store.locks, () => store.versions.statements);
  registerInputGuard(app);
  registerQueryIntegers(app);
  registerAuthentication(app, {
    tokens,
    sessions,
    limiter: new RateLimiter(config.server.rateLimitPerMinute),
    signInLimiter: new RateLimiter(config.server.signInRateLimitPerMinute),
    metricsToken: config.metrics.token,
  });
  registerWorkspaceAccess(app, { access, db: store.db });
  registerAuditTrail(app, { audit, metrics });

  const secureCookies = (req: { protocol: string }) => servedOverHttps(req, config.server.publicUrl);
  await app.register(
    systemRoutes({
      metrics,
      publicUrl: config.server.publicUrl,
      health: () => ({
        store: store.kind,
        cloud: profile.name,
        dataPlatform: Boolean(profile.dataPlatformApiUrl),
        ...(oidc ? { identityProvider: { name: oidc.providerName, loginUrl: '/api/auth/login' } } : {}),
        ...(deps.health?.() ?? {}),
      }),
    }),
  );
  await app.register(authRoutes({ tokens, sessions, secureCookies }));
  await app.register(oidcRoutes({ signIn, sessions, secureCookies }));
  await app.register(workspaceRoutes(workspaces, lifecycle.jobs));
  await app.register(
    itemRoutes(items, new ReadCache<Buffer>(store.versions, ['items', 'workspaces'], config.store.readCacheMs), lifecycle.applies, {
      deleteLive: (caller, workspaceId, itemId) => lifecycle.uninstalls.deleteLive(caller, workspaceId, itemId),
      job: (caller, jobId) => lifecycle.jobs.get(caller, jobId),
    }),
  );
  await app.register(catalogRoutes(catalog));
  await app.register(installRoutes(installs));
  await app.register(planRoutes(plans, lifecycle.upgradePlans));
  await app.register(installedAppRoutes(installedApps));
  await app.register(lifecycleRoutes(lifecycle));
  await app.register(threadRoutes(thread));
  await app.register(identityRoutes(identity, tenancy));
  await app.register(reportRoutes(reports));
  await app.register(previewRoutes(reports));
  await app.register(operatorRoutes(tenancy));
  await app.register(accessRoutes(roleAssignments, PrincipalService.create(store.db)));
  await app.register(auditRoutes(audit));
  await registerConsole(app);
  if (worker) {
    app.addHook('onReady', async () => {
      worker.start();
      driftSchedule.start();
    });
    app.addHook('onClose', async () => {
      await driftSchedule.stop();
      await worker.stop();
    });
  }
  // Last, so that what the worker's stop still ends is exported.
  app.addHook('onClose', async () => {
    await tracing.stop();
  });
  return { app, services, routes };
}
