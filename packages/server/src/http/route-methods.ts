import type { FastifyInstance } from 'fastify';

/** A route's URL pattern (`/api/workspaces/:workspaceId`, `/assets/*`) as an expression over a request path. */
function pathPattern(url: string): RegExp {
  const parts = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}$`);
}

/**
 * The methods each registered path answers, collected as routes are added: an unmatched request whose path a route
 * serves under other methods is 405 with Allow, not 404 (RFC 9110 §15.5.6).
 */
export class RouteMethods {
  private readonly byUrl = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  /** Starts collecting; call before any route is registered. */
  static collect(app: FastifyInstance): RouteMethods {
    const table = new RouteMethods();
    app.addHook('onRoute', (route) => table.add(route.url, [route.method].flat()));
    return table;
  }

  add(url: string, methods: string[]) {
    const entry = this.byUrl.get(url) ?? { pattern: pathPattern(url), methods: new Set<string>() };
    for (const m of methods) entry.methods.add(m.toUpperCase());
    this.byUrl.set(url, entry);
  }

  /** The methods some route answers at this path (sorted), or none when no route has the path. */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const { pattern, methods } of this.byUrl.values()) if (pattern.test(path)) for (const m of methods) out.add(m);
    return [...out].sort();
  }
}
