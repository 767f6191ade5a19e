import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { SESSION_COOKIE } from '../auth/session-service.js';

export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../console/dist');

/**
 * Serves the built console at / with deep links falling back to index.html; API paths keep their JSON 404. The build
 * writes brotli and gzip copies next to each file (vite.config.ts): the one the browser accepts is sent with
 * Content-Encoding, the file itself otherwise. Hashed assets are immutable; index.html is revalidated every time; the
 * other unhashed files (the favicon, which the browser asks for again at each navigation) are kept for a day.
 */
function cacheControl(file: string): string {
  if (file.includes(`${path.sep}assets${path.sep}`)) return 'public, max-age=31536000, immutable';
  return /index\.html(?:\.(?:br|gz))?$/.test(file) ? 'no-cache' : 'public, max-age=86400';
}

export async function registerConsole(app: FastifyInstance, dist = CONSOLE_DIST): Promise<boolean> {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    wildcard: false,
    // The console's pages (/ and every deep link) are ConsolePages' to answer.
    index: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (res, file) => {
      res.setHeader('cache-control', cacheControl(file));
      // The answer depends on Accept-Encoding: a shared cache must not give brotli to a client that did not ask for it.
      res.setHeader('vary', 'accept-encoding');
    },
  });
  return true;
}

/** A page as built, with the brotli and gzip copies the build wrote next to it (absent when not smaller). */
interface Page {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

function readPage(file: string): Page {
  const copy = (ext: string) => (fs.existsSync(`${file}.${ext}`) ? fs.readFileSync(`${file}.${ext}`) : undefined);
  return { identity: fs.readFileSync(file), br: copy('br'), gzip: copy('gz') };
}

/**
 * What the console asks for first with a session (src/main.tsx): whoami on every page, the workspace list on the pages
 * that show it. As `Link` preloads, matched by the script's own fetches (same URL, mode and credentials).
 */
const WHOAMI = '</api/whoami>; rel=preload; as=fetch; crossorigin';
const WORKSPACES = '</api/workspaces?limit=200>; rel=preload; as=fetch; crossorigin';
const preloadsFor = (url: string) => {
  const pathname = url.split('?')[0];
  return pathname === '/' || pathname === '/workspaces' ? `${WHOAMI}, ${WORKSPACES}` : WHOAMI;
};

/** Whether Accept-Encoding takes `coding` (named, and not with q=0). */
const accepts = (header: string, coding: string) =>
  header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    return name!.trim().toLowerCase() === coding && !params.some((p) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/i.test(p));
  });

/**
 * The console's pages, read once: index.html, and sign-in.html (the build's index.html with the sign-in page drawn in,
 * `packages/console/src/prerender.tsx`). A browser without a session cookie gets the second, so it shows the sign-in
 * form before any script has run; one with a cookie gets index.html, whose script finds out whether the session holds.
 */
export class ConsolePages {
  private constructor(
    private readonly index: Page,
    private readonly signIn: Page | undefined,
  ) {}

  /** The built console's pages, or undefined when it is not built. */
  static load(dist = CONSOLE_DIST): ConsolePages | undefined {
    const index = path.join(dist, 'index.html');
    if (!fs.existsSync(index)) return undefined;
    const signIn = path.join(dist, 'sign-in.html');
    return new ConsolePages(readPage(index), fs.existsSync(signIn) ? readPage(signIn) : undefined);
  }

  /** Answers a console page (a GET of `/` or a deep link). */
  send(req: FastifyRequest, reply: FastifyReply) {
    const cookies = req.headers.cookie ?? '';
    const hasSession = cookies.split(';').some((c) => c.trim().startsWith(`${SESSION_COOKIE}=`));
    const page = (!hasSession && this.signIn) || this.index;
    const accept = String(req.headers['accept-encoding'] ?? '');
    const [encoding, body] =
      page.br && accepts(accept, 'br')
        ? ['br', page.br]
        : page.gzip && accepts(accept, 'gzip')
          ? ['gzip', page.gzip]
          : [undefined, page.identity];
    if (encoding) reply.header('content-encoding', encoding);
    // With a session the script's first requests are known: the browser starts them beside the script's download.
    if (hasSession) reply.header('link', preloadsFor(req.url));
    return (
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        // Which page, and how it is encoded, depend on these: a cache must not give one browser's answer to another.
        .header('vary', 'accept-encoding, cookie')
        .send(body)
    );
  }
}

/** Whether a path is a console page (deep link) rather than an API or metrics path. */
export const isConsolePath = (url: string) => !url.startsWith('/api/') && url !== '/api' && !url.startsWith('/metrics');
