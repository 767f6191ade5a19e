import { migratedDataDir } from './store-template.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { TestContext } from 'node:test';
import { loadConfig } from '../src/config.js';
import { selectCloud, type CloudProfile } from '../src/cloud/profiles.js';
import { openStore, type Store } from '../src/store/db.js';
import { buildApp, type Services } from '../src/app.js';
import { ensureTenant } from '../src/auth/token-service.js';
import { SCOPES, TENANT_SCOPES, type Scope } from '../src/auth/scopes.js';
import type { FastifyInstance } from 'fastify';

/** A running app on a fresh store: PostgreSQL when DATABASE_URL is set, else PGlite in a temp dir. */
export interface TestApp {
  app: FastifyInstance;
  services: Services;
  store: Store;
  dataDir: string;
  /** Every registered route (method, url). */
  routes: Array<{ method: string; url: string }>;
  /** A new tenant with an admin user and a token holding `scopes`. */
  tenant(scopes?: Scope[]): Promise<TestTenant>;
}

export interface TestTenant {
  tenantId: string;
  userId: string;
  token: string;
  auth: { authorization: string };
  /** Another token of the same user with other scopes. */
  token2(scopes: Scope[]): Promise<{ token: string; auth: { authorization: string }; id: string }>;
  /** A new non-admin user of the same tenant with a token (default scopes read, write, install, reports, tokens). */
  user(displayName: string, scopes?: Scope[]): Promise<{ userId: string; token: string; auth: { authorization: string } }>;
}

/** Makes new non-admin users of a tenant, each with a token of the given scopes (TestTenant.user). */
export function userMaker(h: { store: Store; services: Services }, tenantId: string): TestTenant['user'] {
  return async (displayName, scopes = ['read', 'write', 'install', 'reports', 'tokens']) => {
    const id = randomUUID();
    await h.store.db
      .insertInto('users')
      .values({ id, tenant_id: tenantId, display_name: displayName, email: `${id.slice(0, 8)}@example.test`, oidc_subject: null })
      .execute();
    const caller = { tenantId, userId: id, userName: displayName, method: 'token' as const, scopes };
    const { secret } = await h.services.tokens.issue(caller, { name: 'test', scopes });
    return { userId: id, token: secret, auth: { authorization: `Bearer ${secret}` } };
  };
}

/** The cloud profile the service selects for env-like settings (read, as at start, by loadConfig). */
export function cloudOf(env: Record<string, string | undefined> = {}): CloudProfile {
  return selectCloud(loadConfig(env).cloud);
}

/**
 * Builds the real app for a test file and closes it when the test ends. With `logStream`, the service's own logger
 * (level from SVC_LOG_LEVEL, its redaction and serializers) writes there; otherwise nothing is logged.
 */
export async function build(
  t: TestContext | { after(fn: () => Promise<void>): void },
  env: Record<string, string> = {},
  options: { logStream?: { write(line: string): void } } = {},
): Promise<TestApp> {
  const ownDir = env.SVC_DATA_DIR === undefined;
  const pglite = !(env.DATABASE_URL ?? process.env.DATABASE_URL);
  const dataDir = env.SVC_DATA_DIR ?? (pglite ? await migratedDataDir() : fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-')));
  const config = loadConfig({ SVC_LOG_LEVEL: 'silent', ...process.env, SVC_DATA_DIR: dataDir, ...env });
  const store = await openStore(config.store);
  const { app, services, routes } = await buildApp({
    config,
    store,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
  });
  await app.ready();
  t.after(async () => {
    await app.close();
    await store.close();
    // The embedded store's files (about 30 MB each): a suite builds hundreds of apps.
    if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const tenant = async (scopes: Scope[] = [...TENANT_SCOPES]): Promise<TestTenant> => {
    const tenantId = `t-${randomUUID()}`;
    const { userId } = await ensureTenant(store.db, tenantId, 'Test tenant', { displayName: 'Test Admin' });
    // Tests may mint any scope for a test tenant's user (the deployment scopes too, to test what they allow).
    const admin = { tenantId, userId, userName: 'Test Admin', method: 'token' as const, scopes: [...SCOPES] };
    const mint = async (s: Scope[]) => {
      const { secret, token } = await services.tokens.issue(admin, { name: 'test', scopes: s });
      return { token: secret, auth: { authorization: `Bearer ${secret}` }, id: token.id };
    };
    const first = await mint(scopes);
    return { tenantId, userId, token: first.token, auth: first.auth, token2: mint, user: userMaker({ store, services }, tenantId) };
  };
  return { app, services, store, dataDir, tenant, routes };
}
