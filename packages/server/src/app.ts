import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import './http/fastify-types.js';
import type { Config } from './config.js';
import type { Store } from './store/db.js';
import { TokenService } from './auth/token-service.js';
import { SessionService } from './auth/session-service.js';
import { ApiTokenSchema, authRoutes } from './auth/routes.js';
import { registerAuthentication } from './http/authenticate.js';
import { registerErrorHandling } from './http/error-handler.js';
import { Metrics, registerMetrics } from './http/metrics.js';
import { RateLimiter } from './http/rate-limit.js';
import { ErrorEnvelope } from './http/schemas.js';
import { WorkspaceService } from './workspaces/workspace-service.js';
import { WorkspaceSchema, workspaceRoutes } from './workspaces/routes.js';
import { ItemService } from './items/item-service.js';
import { ItemSchema, itemRoutes } from './items/routes.js';
import { registerOpenApi } from './openapi/register.js';
import { systemRoutes } from './openapi/system-routes.js';

/** What the app is built from: configuration, the store, and what other domains add to health. */
export interface AppDeps {
  config: Config;
  store: Store;
  /** Extra fields for GET /api/health (the cloud, the sandbox's admin address). */
  health?: () => Record<string, unknown>;
  logger?: boolean | object;
}

/** The domain services, reachable from tests and from main. */
export interface Services {
  tokens: TokenService;
  sessions: SessionService;
  workspaces: WorkspaceService;
  items: ItemService;
  metrics: Metrics;
}

/** Builds the Fastify app: plugins, hooks, then routes, in that order. */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; services: Services; routes: Array<{ method: string; url: string }> }> {
  const { config, store } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'] },
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.env.SVC_TRUST_PROXY === 'true',
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const metrics = new Metrics();
  const tokens = TokenService.create(store.db);
  const sessions = SessionService.create(store.db, config.sessionHours);
  const workspaces = WorkspaceService.create(store.db);
  const items = ItemService.create(store.db, workspaces);
  const services: Services = { tokens, sessions, workspaces, items, metrics };

  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.removeContentTypeParser('text/plain'); // the API speaks JSON only: anything else is 415
  await app.register(cookie);
  for (const schema of [ErrorEnvelope, ApiTokenSchema, WorkspaceSchema, ItemSchema]) app.addSchema(schema);
  await registerOpenApi(app, config);
  registerErrorHandling(app);
  registerMetrics(app, metrics);
  registerAuthentication(app, { tokens, sessions, limiter: new RateLimiter(config.rateLimitPerMinute) });

  const secureCookies = (req: { protocol: string }) => req.protocol === 'https' || (config.publicUrl ?? '').startsWith('https:');
  await app.register(systemRoutes({ metrics, publicUrl: config.publicUrl, health: () => ({ store: store.kind, ...(deps.health?.() ?? {}) }) }));
  await app.register(authRoutes({ tokens, sessions, secureCookies }));
  await app.register(workspaceRoutes(workspaces));
  await app.register(itemRoutes(items));
  return { app, services, routes };
}
