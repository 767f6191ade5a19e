import type { RequestContext, Reply } from './context.js';

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

interface Route {
  method: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

/** Compiles '/v1/workspaces/:ws/items/:id' (or a RegExp with named groups) into a matcher. */
function compile(pattern: string | RegExp): { regex: RegExp; names: string[] } {
  if (pattern instanceof RegExp) return { regex: pattern, names: [] };
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { regex: new RegExp(`^${source}/?$`, 'i'), names };
}

/** A small method + path router; the first registered match wins. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string | string[], pattern: string | RegExp, handler: Handler): this {
    const { regex, names } = compile(pattern);
    for (const m of Array.isArray(method) ? method : [method]) this.routes.push({ method: m.toUpperCase(), regex, names, handler });
    return this;
  }

  get(p: string | RegExp, h: Handler) {
    return this.on('GET', p, h);
  }
  post(p: string | RegExp, h: Handler) {
    return this.on('POST', p, h);
  }
  put(p: string | RegExp, h: Handler) {
    return this.on('PUT', p, h);
  }
  patch(p: string | RegExp, h: Handler) {
    return this.on('PATCH', p, h);
  }
  delete(p: string | RegExp, h: Handler) {
    return this.on('DELETE', p, h);
  }

  /** The handler for a request, with path parameters filled in; 'method' when only the method differs. */
  match(ctx: RequestContext): Handler | 'method' | undefined {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.regex.exec(ctx.path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== ctx.method) continue;
      const params: Record<string, string> = { ...(m.groups ?? {}) };
      for (const [i, n] of r.names.entries()) params[n] = m[i + 1]!;
      for (const [k, v] of Object.entries(params)) params[k] = safeDecode(v);
      ctx.params = params;
      return r.handler;
    }
    return pathMatched ? 'method' : undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
