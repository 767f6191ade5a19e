import { parseArgs } from 'node:util';
import { startSandbox } from './index.js';
import { SERVICE_NAMES, type ServiceName } from './types.js';

/** `npm run sandbox`: starts every emulator and prints the addresses and the environment for the service. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      'page-size': { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string', multiple: true },
      tls: { type: 'boolean' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'Usage: npm run sandbox -- [--seed <text>] [--page-size <n>] [--host 127.0.0.1] [--latency <service>=<ms>]... [--tls [--data-dir .svc-data/sandbox]] [--json]\n',
    );
    return;
  }
  const latencyMs: Partial<Record<ServiceName, number>> = {};
  for (const entry of values.latency ?? []) {
    const [name, ms] = entry.split('=');
    if (!SERVICE_NAMES.includes(name as ServiceName) || !(Number(ms) >= 0))
      throw new Error(`--latency expects <service>=<ms> with service one of ${SERVICE_NAMES.join(', ')}`);
    latencyMs[name as ServiceName] = Number(ms);
  }
  const pageSize = values['page-size'] ? Number(values['page-size']) : undefined;
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) throw new Error('--page-size expects a positive integer');
  // With --tls the test certificate authority is kept in the data directory, so an exported NODE_EXTRA_CA_CERTS stays valid.
  const dataDir = values.tls ? (values['data-dir'] ?? '.svc-data/sandbox') : undefined;
  const sandbox = await startSandbox({ seed: values.seed, pageSize, host: values.host, latencyMs, tls: values.tls, dataDir });
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ urls: sandbox.urls, env: sandbox.env, ids: sandbox.ids }, null, 2)}\n`);
  } else {
    const lines = [`Sandbox cloud (seed "${values.seed ?? 'sandbox'}"): emulators of the backing services on loopback`];
    for (const [name, url] of Object.entries(sandbox.urls)) lines.push(`  ${name.padEnd(16)} ${url}`);
    lines.push('', `Admin API: ${sandbox.urls.admin}/_sandbox  (state, faults, requests, latency, grant/revoke, switches, reset)`);
    lines.push('', 'Environment for the service (run `npm start` in a shell with these set):');
    for (const [k, v] of Object.entries(sandbox.env)) lines.push(`export ${k}=${/^[\w./:-]+$/.test(v) ? v : `'${v}'`}`);
    lines.push('', 'Press Ctrl+C to stop.');
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  const stop = async () => {
    await sandbox.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The managed-identity endpoint does not hold the event loop open; keep the process alive until a signal.
  setInterval(() => {}, 1 << 30);
}

main().catch((err) => {
  process.stderr.write(`sandbox: ${(err as Error).message}\n`);
  process.exit(1);
});
