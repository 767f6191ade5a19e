import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { SESSION_COOKIE } from '../auth/session-service.js';
import { SCOPE_DESCRIPTIONS } from '../auth/scopes.js';

export const API_VERSION = '1.0.0';

const scopeText = Object.entries(SCOPE_DESCRIPTIONS)
  .map(([s, d]) => `- \`${s}\`: ${d}`)
  .join('\n');

/** Registers @fastify/swagger so the OpenAPI 3.1 document is generated from the route schemas. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string | undefined) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Analytics Workspace Service',
        version: API_VERSION,
        description:
          'Workspaces of lakehouses, warehouses, notebooks, semantic models, KQL databases, activator rules and data agents; ' +
          'curated apps installed as background jobs that provision live backing resources; paginated reports; scoped API tokens.\n\n' +
          'Every success answers `{"ok": true, ...}`; every failure `{"ok": false, "error": {"code", "message", "hint"?, "field"?, "gate"?}}`.\n\n' +
          `Scopes:\n${scopeText}`,
      },
      servers: [{ url: publicUrl ?? 'http://localhost:8080', description: 'this deployment' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'svc_pat_<id>_<secret>', description: 'a scoped API token' },
          cookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'the console session; changes also need the X-CSRF-Token header',
          },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'the deployment’s SVC_METRICS_TOKEN: reads /metrics only' },
        },
      },
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
      tags: [
        { name: 'system', description: 'health, metrics and this document' },
        { name: 'caller', description: 'who is calling' },
        { name: 'tokens', description: 'scoped API tokens' },
        { name: 'session', description: 'console sign-in' },
        { name: 'workspaces', description: 'workspaces' },
        { name: 'items', description: 'items and their stored content' },
        { name: 'catalog', description: 'curated apps' },
        { name: 'install', description: 'install jobs: start, poll, retry a step, events' },
        { name: 'installed-apps', description: 'the apps installed in a workspace and their state' },
        { name: 'thread', description: 'lineage edges between items' },
        { name: 'access', description: 'workspace role assignments and the principals they name' },
      ],
    },
    // The scope the authentication hook enforces (route config.scope) and the workspace role the access hook enforces
    // (config.role) are recorded on the operation, so tests and clients read them from the document rather than from a
    // second list.
    transform: ({ schema, url, route }) => {
      const { scope, role } = (route.config as { scope?: string; role?: string } | undefined) ?? {};
      if (!schema || !scope) return { schema, url };
      return { schema: { ...schema, 'x-required-scope': scope, ...(role ? { 'x-required-role': role } : {}) } as typeof schema, url };
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
}
