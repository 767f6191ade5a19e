import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Whether a request reached the deployment over https: its own scheme (X-Forwarded-Proto behind a trusted proxy), or SVC_PUBLIC_URL's. */
export const servedOverHttps = (req: { protocol: string }, publicUrl?: string) =>
  req.protocol === 'https' || (publicUrl ?? '').startsWith('https:');

/**
 * The one Content-Security-Policy of the console and the API. Scripts come only from the service's own files (the
 * console's build has no inline script). Styles allow 'unsafe-inline': Fluent UI's Griffel inserts <style> elements at
 * run time and components set style attributes. blob: carries the export preview (a PDF in a frame, an image).
 */
const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const HSTS = 'max-age=31536000; includeSubDomains';

const HELMET: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

/**
 * The headers helmet sets with these options, read once by running its middleware against a recorder: they depend on
 * the options alone, so every answer gets the same ones without building helmet's middleware again per request.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined, // X-Powered-By, which neither Fastify nor Node sets
  };
  helmet(options)({} as never, recorder as never, () => undefined);
  return headers;
}

/**
 * What an API answer (JSON, an event stream, an export's file, the OpenAPI document) needs of them: it is no document,
 * so its policy lets nothing load or run from it and nothing frame it, and the headers that steer how a browser runs a
 * page (cross-origin opener isolation, XSS auditor, download and DNS-prefetch behaviour, Flash and Acrobat policy
 * files, origin-keyed agent clusters) are left to the console's pages. Six headers instead of eleven: every answer pays
 * Node's check of each header's name and value.
 */
const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Paths the API answers: under /api, where the console's pages never are (web/console.ts `isConsolePath`). */
const isApiPath = (url: string) => url.startsWith('/api/') || url === '/api' || url.startsWith('/api?');

/**
 * Security headers on every answer (console pages, API JSON, the OpenAPI document, the sign-in error page, 404s, event
 * streams), with the request's id (`x-request-id`): the console's pages get helmet's with the CSP above, an API answer
 * the API's set; both have nosniff, no framing and no referrer. HSTS only when the request came over https or the
 * deployment's public address is https (an http deployment must not pin browsers to a scheme it does not serve).
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl?: string) {
  const pages = helmetHeaders(HELMET);
  const withHsts = (headers: Record<string, string>) => ({ ...headers, 'strict-transport-security': HSTS });
  const sets = { page: pages, pageHttps: withHsts(pages), api: API_HEADERS, apiHttps: withHsts(API_HEADERS) };
  app.addHook('onRequest', (req, reply, done) => {
    const https = servedOverHttps(req, publicUrl);
    reply.headers(isApiPath(req.url) ? (https ? sets.apiHttps : sets.api) : https ? sets.pageHttps : sets.page);
    reply.header('x-request-id', req.id);
    done();
  });
}
