import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Ok, publicErrors } from '../http/schemas.js';
import type { Metrics } from '../metrics.js';
import { API_VERSION } from './register.js';

/** Health and the OpenAPI document (public routes), and metrics. */
export const systemRoutes =
  (deps: { metrics: Metrics; health: () => Record<string, unknown>; publicUrl?: string }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/health',
      {
        config: { public: true },
        schema: {
          operationId: 'getHealth',
          tags: ['system'],
          summary: 'Liveness, the store, the cloud and (in the sandbox) its admin address',
          security: [],
          response: {
            200: Type.Object(
              {
                ok: Ok,
                status: Type.Literal('ok'),
                version: Type.String(),
                store: Type.String(),
                cloud: Type.Optional(Type.String()),
                dataPlatform: Type.Optional(
                  Type.Boolean({
                    description: 'whether the cloud has the data platform (false: its item types run on the Azure-native backends)',
                  }),
                ),
                sandbox: Type.Optional(Type.Object({ admin: Type.String() }, { additionalProperties: true })),
              },
              { additionalProperties: true },
            ),
            ...publicErrors(),
          },
        },
      },
      async () => ({ ok: true as const, status: 'ok' as const, version: API_VERSION, store: 'unknown', ...deps.health() }),
    );

    // Deployment-wide figures: a token or session with the metrics (or operator) scope, or the static SVC_METRICS_TOKEN.
    app.get(
      '/metrics',
      {
        config: { scope: 'metrics' },
        schema: {
          operationId: 'getMetrics',
          tags: ['system'],
          summary: 'Prometheus text metrics (scope metrics, or the deployment’s SVC_METRICS_TOKEN as the bearer)',
          security: [{ bearerAuth: [] }, { cookieAuth: [] }, { metricsToken: [] }],
          response: {
            200: { description: 'Prometheus exposition format', content: { 'text/plain': { schema: Type.String() } } },
            ...errors(),
          },
        },
      },
      async (_req, reply) => reply.type('text/plain; version=0.0.4').send(deps.metrics.render()),
    );

    app.get(
      '/api/openapi.json',
      {
        config: { public: true },
        schema: {
          operationId: 'getOpenApiDocument',
          tags: ['system'],
          summary: 'This OpenAPI 3.1 document; servers[0] is this deployment',
          security: [],
          response: { 200: Type.Object({ openapi: Type.String() }, { additionalProperties: true }), ...publicErrors() },
        },
      },
      async (req, reply) => {
        const doc = structuredClone(app.swagger()) as { openapi: string; servers?: Array<{ url: string }> };
        doc.servers = [{ url: deps.publicUrl ?? `${req.protocol}://${req.host}`, description: 'this deployment' } as { url: string }];
        return reply.type('application/json').send(doc);
      },
    );
  };
