// A benchmark target in its own process: the real service ("svc") or a bare Fastify route ("bare"). It prints its URL
// (and the service's token) as a first line, then answers each "stats" line on stdin with its CPU time and, for the
// service, the statements it sent to the store so far: the runner divides their growth by the requests served.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import { loadConfig } from '../../packages/server/src/config.js';
import { openStore } from '../../packages/server/src/store/db.js';
import { buildApp } from '../../packages/server/src/app.js';
import { ensureTenant } from '../../packages/server/src/auth/token-service.js';
import { TENANT_SCOPES } from '../../packages/server/src/auth/scopes.js';

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
