import { type Answer, rest, type Transport } from '../transport.js';
import type { Result } from '../types.js';

/** Liveness, metrics and the OpenAPI document. */
export function systemApi(t: Transport) {
  return {
    /** Liveness, the store, the cloud. */
    health: () => t.run('getHealth', (i) => t.api.GET('/api/health', i), rest<Result<'getHealth'>>),
    /** Prometheus text metrics. */
    metrics: () =>
      t.run(
        'getMetrics',
        (i) => t.api.GET('/metrics', { ...i, parseAs: 'text' }) as Promise<Answer>,
        (b) => b as unknown as string,
        'text',
      ),
    /** The deployment's OpenAPI 3.1 document. */
    openapi: () =>
      t.run(
        'getOpenApiDocument',
        (i) => t.api.GET('/api/openapi.json', i),
        (b) => b as Record<string, unknown> & { openapi: string },
        'object',
      ),
  };
}
