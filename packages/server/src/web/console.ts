import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

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
    index: ['index.html'],
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

/** Whether a path is a console page (deep link) rather than an API or metrics path. */
export const isConsolePath = (url: string) => !url.startsWith('/api/') && url !== '/api' && !url.startsWith('/metrics');
