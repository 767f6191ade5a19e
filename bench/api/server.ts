// A benchmark target in its own process: the real service ("svc") or a bare Fastify route ("bare"). It prints its URL
// (and the service's token) as a first line, then answers each "stats" line on stdin with its CPU time and, for the
// service, the statements it sent to the store so far: the runner divides their growth by the requests served.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import type * as ConfigModule from '../../packages/server/src/config.js';
import type * as StoreModule from '../../packages/server/src/store/db.js';
import type * as AppModule from '../../packages/server/src/app.js';
import type * as TokenModule from '../../packages/server/src/auth/token-service.js';
import type * as ScopesModule from '../../packages/server/src/auth/scopes.js';

// The service's modules as `npm start` runs them (built JavaScript, BENCH_RUN=built, the default: the runner builds them
// first when stale) or its TypeScript through tsx (BENCH_RUN=tsx); of this checkout, or of BENCH_CODE_ROOT's.
const root = process.env.BENCH_CODE_ROOT ? pathToFileURL(`${process.env.BENCH_CODE_ROOT}/`) : new URL('../../', import.meta.url);
const code = new URL(process.env.BENCH_RUN === 'tsx' ? 'packages/server/src/' : 'packages/server/dist/', root);
const load = <T>(module: string): Promise<T> => import(new URL(module, code).href) as Promise<T>;

const mode = process.argv[2];
let statements = () => 0;
if (mode === 'bare') {
  const app = Fastify({ logger: false });
  // The same bytes the service answers (handed over by the runner), so the ratio is the service's own cost.
  const body = process.env.BENCH_BODY ?? JSON.stringify({ ok: true, items: [] });
  app.get('/bare', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}/bare` })}\n`);
} else {
  const [{ loadConfig }, { openStore }, { buildApp }, { ensureTenant }, { TENANT_SCOPES }] = await Promise.all([
    load<typeof ConfigModule>('config.js'),
    load<typeof StoreModule>('store/db.js'),
    load<typeof AppModule>('app.js'),
    load<typeof TokenModule>('auth/token-service.js'),
    load<typeof ScopesModule>('auth/scopes.js'),
  ]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const config = loadConfig({ ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent', SVC_RATE_LIMIT_PER_MINUTE: '10000000' });
  const store = await openStore(config.store);
  const { app, services } = await buildApp({ config, store, logger: false });
  const tenantId = `bench-${Date.now()}`;
  const { userId } = await ensureTenant(store.db, tenantId, 'Bench', { displayName: 'Bench' });
  const caller = { tenantId, userId, userName: 'Bench', method: 'token' as const, scopes: [...TENANT_SCOPES] };
  // A read-only token: the caller is no tenant admin, so its role on the workspace (Admin, as its creator) is looked up.
  const { secret } = await services.tokens.issue(caller, { name: 'bench', scopes: ['read'] });
  const ws = await services.workspaces.create(caller, { name: 'Bench' });
  for (let i = 0; i < 20; i++)
    await services.items.create(caller, ws.id, { itemType: i % 2 ? 'notebook' : 'lakehouse', displayName: `Item${i}` });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  statements = () => store.versions.statements;
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${port}/api/workspaces/${ws.id}/items`, token: secret, store: store.kind })}\n`,
  );
}
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'stats') process.stdout.write(`${JSON.stringify({ statements: statements(), cpu: process.cpuUsage() })}\n`);
});
for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, () => process.exit(0));
