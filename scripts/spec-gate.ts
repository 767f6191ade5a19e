// npm run check:specs — the spec gate. Starts a sandbox (in this process) and a real service process against it,
// installs every catalog app and installs each again, runs the paginated-report and identity operations once, then
// validates every backing request the sandbox logged against the published descriptions in ../shared/specs and the
// rules of ../shared/reference (packages/sandbox/src/conformance). Prints the figures and each mismatch, grouped and
// counted; exits 1 on any mismatch (or any unmatched request), unless --report-only. --json writes the figures too.
//   SVC_SPECS_DIR  the descriptions, default ../shared/specs beside the repository
//   GATE_APPS      a comma-separated subset of the catalog (for a quick look; CI runs all)
//   GATE_PROFILES  platform (a cloud with the data platform), native (without it), or both (the default)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { conformance, formatFigures } from '../packages/sandbox/src/conformance/report.js';
import { specsDir } from '../packages/sandbox/src/conformance/specs.js';
import { loadCatalog } from '../packages/server/src/catalog/load-catalog.js';
import { bootstrapToken, freePort, serviceEnv, startService, stopService, waitHealthy } from '../packages/server/test/service-process.js';
import { apiClient, identityOperations, installApp, lifecycleOperations, reportOperations } from './lib/spec-gate-run.js';

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
// Both clouds: one with the data platform, and one without it (GCC-High and DoD today), whose items go to the
// Azure-native backends; in the second the installed apps are also drift-checked and uninstalled.
const profiles = (process.env.GATE_PROFILES ?? 'platform,native').split(',').filter(Boolean);

/** One profile's run: a sandbox and a service process, every app installed twice, then the profile's other operations. */
async function runProfile(profile: string): Promise<{ code: number; figures?: ReturnType<typeof conformance>['figures'] }> {
  const native = profile === 'native';
  const sandbox = await startSandbox({ dataPlatform: !native });
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
  try {
    await waitHealthy(base, service, 120_000);
    const api = apiClient(base, token);
    // Workspace names are unique per tenant; on a shared PostgreSQL store the default tenant keeps earlier runs' ones.
    const run = randomBytes(3).toString('hex');
    console.log(`\nspec gate (${profile}): service up at ${secs()}; installing ${apps.length} apps, then each again`);
    const outcomes: string[] = [];
    let incomplete = 0;
    const installed: Array<{ appId: string; workspaceId: string }> = [];
    for (const round of ['first', 'again'] as const) {
      for (const app of apps) {
        const r = await installApp(api, app.id, `gate-${app.id}-${round}-${run}`);
        if (r.status !== 'done' || r.outcome !== 'all-created') incomplete++;
        if (round === 'again') installed.push({ appId: app.id, workspaceId: r.workspaceId });
        outcomes.push(`${app.id} (${round}): ${r.status}${r.outcome ? ` ${r.outcome}` : ''} on ${r.backends.join(', ')}`);
      }
    }
    console.log(outcomes.map((o) => `  ${o}`).join('\n'));
    const reportsWs = (await api('POST', '/api/workspaces', { name: `gate-reports-${run}` })).body.workspace.id as string;
    console.log(`  reports: ${await reportOperations(api, reportsWs)}`);
    if (native) console.log(`  lifecycle: ${await lifecycleOperations(api, installed)}`);
    else console.log(`  identity: ${await identityOperations(api, sandbox.ids.platformWorkspaceId)}`);
    const log = await sandbox.admin.requests();
    if (native) {
      const platform = log.filter((e) => e.service === 'dataPlatform' || e.service === 'oneLake').length;
      if (platform) throw new Error(`${platform} requests reached the data platform in the profile without it`);
    }
    const { figures } = conformance(log);
    console.log(
      `\nspec gate (${profile}): ${figures.requests} backing requests checked against ${specsDir()} and reference/ (${secs()} in all)`,
    );
    console.log(formatFigures(figures));
    if (incomplete) console.log(`\nspec gate (${profile}): ${incomplete} installs did not end done with all-created`);
    const failing = figures.mismatches.length > 0 || figures.byKind.unmatched > 0 || incomplete > 0;
    if (failing)
      console.log(
        reportOnly
          ? `\nspec gate (${profile}): mismatches found (--report-only: not failing)`
          : `\nspec gate (${profile}): FAILED — the service sends requests the real services would refuse`,
      );
    else console.log(`\nspec gate (${profile}): passed`);
    return { code: failing && !reportOnly ? 1 : 0, figures };
  } catch (err) {
    console.error(`spec gate (${profile}): could not run: ${(err as Error).stack ?? err}\n${service.output().slice(-4000)}`);
    return { code: 2 };
  } finally {
    await stopService(service);
    await sandbox.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let code = 0;
const all: Record<string, unknown> = {};
for (const profile of profiles) {
  const r = await runProfile(profile);
  all[profile] = r.figures;
  code = Math.max(code, r.code);
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(all, null, 2));
process.exit(code);
