// The service for bench/console in its own process (the browser's driver must not share its event loop): a fresh
// embedded store, a tenant whose admin holds a token, and a few workspaces for the first page's table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../packages/server/src/config.js';
import { openStore } from '../../packages/server/src/store/db.js';
import { buildApp } from '../../packages/server/src/app.js';
import { ensureTenant } from '../../packages/server/src/auth/token-service.js';
import { TENANT_SCOPES } from '../../packages/server/src/auth/scopes.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-console-'));
process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
const config = loadConfig({ ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent', SVC_RATE_LIMIT_PER_MINUTE: '10000000' });
const store = await openStore(config.store);
const { app, services } = await buildApp({ config, store, logger: false });
const tenantId = `bench-${Date.now()}`;
const { userId } = await ensureTenant(store.db, tenantId, 'Bench', { displayName: 'Bench Admin' });
const caller = { tenantId, userId, userName: 'Bench Admin', method: 'token' as const, scopes: [...TENANT_SCOPES] };
const { secret } = await services.tokens.issue(caller, { name: 'bench', scopes: [...TENANT_SCOPES] });
for (let i = 1; i <= 8; i++)
  await services.workspaces.create(caller, { name: `Sales analytics ${i}`, description: `Workspace ${i} of the bench` });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, token: secret })}\n`);
for (const s of ['SIGTERM', 'SIGINT'] as const)
  process.on(s, () => {
    void app.close().finally(() => process.exit(0));
  });
