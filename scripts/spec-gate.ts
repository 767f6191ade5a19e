// npm run check:specs — the spec gate. Starts a sandbox (in this process) and a real service process against it,
// installs every catalog app and installs each again, runs the paginated-report and identity operations once, then
// validates every backing request the sandbox logged against the published descriptions in ../shared/specs and the
// rules of ../shared/reference (packages/sandbox/src/conformance). Prints the figures and each mismatch, grouped and
// counted; exits 1 on any mismatch (or any unmatched request), unless --report-only. --json writes the figures too.
//   SVC_SPECS_DIR  the descriptions, default ../shared/specs beside the repository
//   GATE_APPS      a comma-separated subset of the catalog (for a quick look; CI runs all)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { conformance, formatFigures } from '../packages/sandbox/src/conformance/report.js';
import { specsDir } from '../packages/sandbox/src/conformance/specs.js';
import { loadCatalog } from '../packages/server/src/catalog/load-catalog.js';
import { bootstrapToken, freePort, serviceEnv, startService, stopService, waitHealthy } from '../packages/server/test/service-process.js';
import { apiClient, identityOperations, installApp, reportOperations } from './lib/spec-gate-run.js';

const args = new Set(process.argv.slice(2));
const reportOnly = args.has('--report-only');
const jsonOut = process.argv.find((a) => a.startsWith('--json='))?.slice('--json='.length);
const started = performance.now();
const secs = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

if (!fs.existsSync(path.join(specsDir(), 'README.md'))) {
  console.error(`spec gate: no published descriptions at ${specsDir()} (check out shared/ beside the repository, or set SVC_SPECS_DIR)`);
  process.exit(2);
}

const only = process.env.GATE_APPS?.split(',').filter(Boolean);
const apps = loadCatalog().apps.filter((a) => !only || only.includes(a.id));
// GATE_DATA_PLATFORM=off: the sandbox as a cloud without the data platform, so the Azure-native backends' requests are checked.
const sandbox = await startSandbox({ dataPlatform: process.env.GATE_DATA_PLATFORM !== 'off' });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-spec-gate-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const token = bootstrapToken();
const service = startService(
  serviceEnv(sandbox.env, {
    PORT: String(port),
    SVC_DATA_DIR: dataDir,
    SVC_BOOTSTRAP_TOKEN: token,
    SVC_LOG_LEVEL: 'warn',
    SVC_WORKER_POLL_MS: '100',
    SVC_RATE_LIMIT_PER_MINUTE: '1000000',
  }),
);
let code = 0;
try {
  await waitHealthy(base, service, 120_000);
  const api = apiClient(base, token);
  console.log(`spec gate: service up at ${secs()}; installing ${apps.length} apps, then each again`);
  const outcomes: string[] = [];
  for (const round of ['first', 'again'] as const) {
    for (const app of apps) {
      const r = await installApp(api, app.id, `gate-${app.id}-${round}`);
      outcomes.push(`${app.id} (${round}): ${r.status}${r.outcome ? ` ${r.outcome}` : ''}`);
    }
  }
  console.log(outcomes.map((o) => `  ${o}`).join('\n'));
  const reportsWs = (await api('POST', '/api/workspaces', { name: 'gate-reports' })).body.workspace.id as string;
  console.log(`  reports: ${await reportOperations(api, reportsWs)}`);
  // The identity operations probe the data platform's workspace: a cloud without it has none to probe.
  const identity =
    process.env.GATE_DATA_PLATFORM === 'off'
      ? 'not run (no data platform)'
      : await identityOperations(api, sandbox.ids.platformWorkspaceId);
  console.log(`  identity: ${identity}`);

  const log = await sandbox.admin.requests();
  const { figures } = conformance(log);
  console.log(`\nspec gate: ${figures.requests} backing requests checked against ${specsDir()} and reference/ (${secs()} in all)`);
  console.log(formatFigures(figures));
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(figures, null, 2));
  const failing = figures.mismatches.length > 0 || figures.byKind.unmatched > 0;
  if (failing)
    console.log(
      reportOnly
        ? '\nspec gate: mismatches found (--report-only: not failing)'
        : '\nspec gate: FAILED — the service sends requests the real services would refuse',
    );
  else console.log('\nspec gate: passed');
  code = failing && !reportOnly ? 1 : 0;
} catch (err) {
  console.error(`spec gate: could not run: ${(err as Error).stack ?? err}\n${service.output().slice(-4000)}`);
  code = 2;
} finally {
  await stopService(service);
  await sandbox.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
