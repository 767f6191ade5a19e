import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files worth compressing; images other than SVG are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

/**
 * Writes `<file>.br` and `<file>.gz` next to every compressible file of the build, so the service sends them with
 * Content-Encoding and spends no CPU per request. Brotli at its best quality: it runs once per build, not per request.
 * A compressed copy no smaller than the file is not written (the service then sends the file itself).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'svc-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      // sign-in.html is written by svc-prerender-sign-in, outside the bundle.
      const files = [...Object.keys(bundle), 'sign-in.html'].filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const raw = await fs.readFile(file);
          const br = await brotli(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          });
          const gz = await gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
          if (br.length < raw.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < raw.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * Adds `<link rel="modulepreload">` for the signed-in part of the console (src/SignedIn.tsx's chunk and the chunks it
 * imports) to index.html, so its download starts beside the first script rather than after that script has run: every
 * visit needs it, at once (a session) or after sign-in. At low priority, so the first script keeps the link to itself.
 */
function preloadSignedIn(): Plugin {
  return {
    name: 'svc-preload-signed-in',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const entry = chunks.find((c) => c.isDynamicEntry && c.moduleIds.some((id) => id.endsWith('/src/SignedIn.tsx')));
        if (!entry) throw new Error('svc-preload-signed-in: no chunk holds src/SignedIn.tsx');
        const first = chunks.find((c) => c.isEntry);
        const already = new Set(first ? [first.fileName, ...first.imports] : []);
        const files = [entry.fileName, ...entry.imports].filter((f) => !already.has(f));
        return files.map((f) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}`, fetchpriority: 'low' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * Writes `sign-in.html`: index.html with the sign-in page drawn into its root (src/prerender.tsx, rendered here once)
 * and the styles that page uses. The service sends it to a browser without a session, which so shows the form before
 * the first script has run; main.tsx draws the live page over it. Runs before the other plugins' writeBundle, so its
 * file is compressed with the rest.
 */
function prerenderSignIn(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'svc-prerender-sign-in',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      sequential: true,
      order: 'pre',
      async handler() {
        const { createServer } = await import('vite');
        const server = await createServer({
          configFile: false,
          root,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
          plugins: [react()],
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const { renderSignIn, PRERENDERED } = (await server.ssrLoadModule('/src/prerender.tsx')) as typeof import('./src/prerender');
          const { markup, styles } = renderSignIn();
          const index = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
          const page = index
            .replace('</head>', `${styles}\n  </head>`)
            .replace('<div id="root"></div>', `<div id="root" data-prerendered="${PRERENDERED}">${markup}</div>`);
          if (page === index || !page.includes('data-prerendered="')) throw new Error('svc-prerender-sign-in: index.html has no empty root');
          await fs.writeFile(path.join(outDir, 'sign-in.html'), page);
        } finally {
          await server.close();
        }
      },
    },
  };
}

// Served by the service at /; the dev server forwards the API to a running service.
export default defineConfig({
  base: '/',
  plugins: [react(), preloadSignedIn(), prerenderSignIn(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 900 },
  server: { proxy: { '/api': process.env.SVC_URL ?? 'http://localhost:8080' } },
});
