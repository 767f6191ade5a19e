import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, loadConfigOver, type Config } from './config.js';
import { ConfigError } from './config/setting.js';
import { openStore } from './store/db.js';
import { buildApp } from './app.js';
import { DEFAULT_TENANT, ensureTenant } from './auth/token-service.js';
import { newToken } from './auth/token-format.js';
import { SCOPES } from './auth/scopes.js';
import { selectCloud } from './cloud/profiles.js';
import { oidcSettings } from './auth/oidc.js';
import { prettyLogStream } from './http/log-format.js';
import type * as SandboxModule from '@svc/sandbox';

/** The built service (dist/main.js, plain node) starts the built sandbox; run through tsx, the sandbox's source. */
const SANDBOX_MODULE = import.meta.url.endsWith('.ts') ? '@svc/sandbox' : '@svc/sandbox/dist';

/** In the sandbox, a local admin token kept in the data directory so the console can be used at once. */
function localToken(config: Config): string {
  const file = path.join(config.store.dataDir, 'local-admin-token');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(config.store.dataDir, { recursive: true });
  const { value } = newToken();
  fs.writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

/** What depends on the selected cloud (sign-in) is checked at once, so a misconfiguration stops the start, named. */
function checked(config: Config): Config {
  oidcSettings(config.oidc, selectCloud(config.cloud), config.server.publicUrl);
  return config;
}

/**
 * The one place the service writes the process environment: @azure/identity's ManagedIdentityCredential reads its
 * endpoint from there (no option takes it), so the in-process sandbox's managed identity is named to the library.
 */
function pointManagedIdentityAt(sandboxEnv: Record<string, string>): void {
  for (const name of ['IDENTITY_ENDPOINT', 'IDENTITY_HEADER']) process.env[name] = sandboxEnv[name];
}

async function main(): Promise<void> {
  let config = checked(loadConfig());
  const sandboxMode = config.cloud.name === 'sandbox';

  let sandbox:
    | {
        urls: Record<string, string>;
        env: Record<string, string>;
        ids: { servicePrincipals: Array<{ name: string; appId: string }> };
        stop(): Promise<void>;
      }
    | undefined;
  // The sandbox runs in-process unless the environment already points at a running one (npm run sandbox).
  if (sandboxMode && !config.sandbox.adminUrl) {
    const { startSandbox } = (await import(SANDBOX_MODULE)) as typeof SandboxModule;
    const started = await startSandbox({ dataPlatform: config.sandbox.dataPlatform === 'on' });
    sandbox = started;
    config = checked(loadConfigOver(started.env));
    pointManagedIdentityAt(started.env);
  }

  const store = await openStore(config.store);
  const { app, services } = await buildApp({
    config,
    store,
    // SVC_LOG_FORMAT=pretty (npm start sets it on a terminal): lines for a person; otherwise pino's JSON lines.
    logStream: config.server.logFormat === 'pretty' ? await prettyLogStream() : undefined,
    health: () =>
      sandbox ? { sandbox: { admin: sandbox.urls.admin } } : config.sandbox.adminUrl ? { sandbox: { admin: config.sandbox.adminUrl } } : {},
  });

  const { userId } = await ensureTenant(store.db, DEFAULT_TENANT, 'Default tenant', { displayName: 'Administrator' });
  // The SVC_* shared set (in the sandbox, its platform workspace and targets) is the default tenant's.
  await services.tenancy.reserveDefaults();
  if (sandbox)
    await services.tenancy.reserveApplications(
      sandbox.ids.servicePrincipals.map((sp) => ({ clientId: sp.appId, vaultSecretName: `${sp.name}-secret` })),
      'the sandbox',
    );
  const bootstrap = config.auth.bootstrapToken ?? (sandboxMode ? localToken(config) : undefined);
  if (bootstrap && (await services.tokens.seed(bootstrap, DEFAULT_TENANT, userId, [...SCOPES]))) {
    app.log.info('seeded the bootstrap admin token');
  }

  const { port, host } = config.server;
  await app.listen({ port, host });
  const address = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  const lines = [`Analytics Workspace Service on ${address} (store: ${store.kind})`];
  if (sandbox) {
    lines.push(
      config.sandbox.dataPlatform === 'on'
        ? 'Cloud: sandbox with the data platform (local emulators); `SVC_SANDBOX_DATA_PLATFORM=off npm start` runs it as a cloud without it (GCC-High, DoD): the Azure-native backends'
        : 'Cloud: sandbox without the data platform (as GCC-High and DoD are today): its types run on the Azure-native emulators; plain `npm start` adds the data platform',
    );
    for (const [name, url] of Object.entries(sandbox.urls)) lines.push(`  sandbox ${name.padEnd(16)} ${url}`);
    if (!config.auth.bootstrapToken)
      lines.push(`Local admin token (in ${path.join(config.store.dataDir, 'local-admin-token')}):`, `  ${bootstrap}`);
  }
  process.stdout.write(lines.join('\n') + '\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await store.close();
    await sandbox?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  // An invalid setting, wherever it is found at start, stops the start naming the variable.
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
