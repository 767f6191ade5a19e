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
 * Security headers on every answer (console pages, API JSON, the OpenAPI document, the sign-in error page, 404s, event
 * streams): the CSP above, nosniff, no framing, no referrer; HSTS only when the request came over https or the
 * deployment's public address is https (an http deployment must not pin browsers to a scheme it does not serve).
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl?: string) {
  const headers = helmetHeaders(HELMET);
  const httpsHeaders = { ...headers, 'strict-transport-security': HSTS };
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(servedOverHttps(req, publicUrl) ? httpsHeaders : headers);
    done();
  });
}
