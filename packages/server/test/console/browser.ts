import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build, type TestApp, type TestTenant } from '../helpers.js';
import { startSandbox, type Sandbox } from '@svc/sandbox';
import { giveSandbox } from '../install-helpers.js';
import { isStale } from '../../../../scripts/lib/build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const consoleDir = path.join(root, 'packages/console');
export const ARTIFACTS = path.join(root, '.test-artifacts/console');

/** Builds the console when its build is older than its sources (scripts/lib/build.mjs decides, as for npm start). */
export function ensureConsoleBuilt(): void {
  if (!isStale('console')) return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs', 'console'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the console build failed');
}

export interface ConsoleRig {
  h: TestApp;
  tenant: TestTenant;
  sandbox: Sandbox;
  baseUrl: string;
  browser: Browser;
  page: Page;
  /** Content-Security-Policy violations any page of the rig's contexts reported (close() fails when there is one). */
  cspViolations: string[];
  /** Another browser context (another browser profile) on the console, watched for CSP violations like the first. */
  newContext(): Promise<BrowserContext>;
  /** Saves a screenshot under .test-artifacts/console/<name>.png. */
  shot(name: string, page?: Page): Promise<void>;
  /**
   * Restarts the service on the same store and port with more settings (a rig started with `restartable`): `h` is
   * the new build; the browser's session, the tenant and the sandbox carry over.
   */
  restart(env: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Records every CSP violation of a context's pages and frames: the `securitypolicyviolation` event (listened to by an
 * init script, which the page's CSP does not govern) and Chromium's console report of a refusal.
 */
async function watchCsp(context: BrowserContext, violations: string[]): Promise<void> {
  await context.exposeBinding('__svcCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __svcCspViolation(t: string): void }).__svcCspViolation(
        `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} in ${e.documentURI}`,
      );
    });
  });
  context.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
}

/** Debian's Chromium flags of every browser test and benchmark (never a downloaded browser). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/**
 * The real service (on a fresh store, against the sandbox when there is one) listening on a free port, and Debian's
 * Chromium. `restartable`: the store lives in a folder of the rig's own, so `restart` can reopen it; `dataPlatform: false`
 * starts the sandbox as a cloud without the data platform; `env` adds settings to the service's.
 */
export async function startRig(
  options: { restartable?: boolean; dataPlatform?: boolean; env?: Record<string, string> } = {},
): Promise<ConsoleRig> {
  ensureConsoleBuilt();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // Part of the repository: failing to start it fails the test. `dataPlatform: false`: a cloud without it.
  const sandbox = await startSandbox({ dataPlatform: options.dataPlatform ?? true });
  if (sandbox) {
    process.env.IDENTITY_ENDPOINT = sandbox.env.IDENTITY_ENDPOINT;
    process.env.IDENTITY_HEADER = sandbox.env.IDENTITY_HEADER;
  }
  let closers: Array<() => Promise<void>> = [];
  const dataDir = options.restartable ? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-console-')) : undefined;
  // Removed by close(), and when the test process ends without it.
  if (dataDir) process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const open = (env: Record<string, string> = {}) =>
    build(
      {
        after: (fn: () => Promise<void>) => {
          closers.push(fn);
        },
      },
      { ...(sandbox?.env ?? {}), SVC_WORKER_POLL_MS: '100', ...(dataDir ? { SVC_DATA_DIR: dataDir } : {}), ...env },
    );
  const h = await open(options.env);
  const tenant = await h.tenant();
  // The tenant holds the sandbox's platform workspace, targets and applications, as the operator assigns them.
  await giveSandbox(h, tenant.tenantId, sandbox);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address() as { port: number };
  let baseUrl = `http://127.0.0.1:${addr.port}`;
  const anonymous = await fetch(`${baseUrl}/`, { headers: { accept: 'text/html' } });
  let front: http.Server | undefined;
  if (anonymous.status !== 200) {
    // Stopgap until the service marks its console files public: serve them in front of it; the API still goes to the service.
    process.stderr.write(
      `console tests: GET / without a session answers ${anonymous.status}; serving the console files in front of the service\n`,
    );
    front = await consoleFront(addr.port);
    baseUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
  }
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const cspViolations: string[] = [];
  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl });
    await watchCsp(context, cspViolations);
    return context;
  };
  const page = await (await newContext()).newPage();
  page.setDefaultTimeout(15_000);
  const rig: ConsoleRig = {
    h,
    tenant,
    sandbox,
    baseUrl,
    browser,
    page,
    cspViolations,
    newContext,
    shot: async (name, p = page) => {
      await p.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
    },
    restart: async (env) => {
      if (!dataDir) throw new Error('restart needs a rig started with { restartable: true }');
      // Open streams (a job's events) would hold the old server open: the caller leaves the page first.
      rig.h.app.server.closeAllConnections();
      for (const c of closers) await c();
      closers = [];
      rig.h = await open(env);
      await rig.h.app.listen({ port: addr.port, host: '127.0.0.1' });
    },
    close: async () => {
      await browser.close();
      front?.closeAllConnections();
      await new Promise((r) => (front ? front.close(r) : r(undefined)));
      for (const c of closers) await c();
      await sandbox?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (cspViolations.length) throw new Error(`the console reported Content-Security-Policy violations:\n${cspViolations.join('\n')}`);
    },
  };
  return rig;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves packages/console/dist (deep links fall back to index.html) and forwards /api to the service. */
async function consoleFront(servicePort: number): Promise<http.Server> {
  const dist = path.join(consoleDir, 'dist');
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/api/')) {
      const upstream = http.request({ host: '127.0.0.1', port: servicePort, method: req.method, path: url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
      return;
    }
    const file = path.join(dist, path.normalize(url.split('?')[0]!));
    const target = file.startsWith(dist) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.join(dist, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    fs.createReadStream(target).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}
