import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('`npm run sandbox` prints every address and the environment for the service, and serves until stopped', async (t) => {
  // Its own process group, so that npm, tsx and node stop together.
  const child = spawn('npm', ['run', '--silent', 'sandbox', '--', '--seed', 'cli', '--page-size', '3'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Press Ctrl+C')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  for (const name of ['identity', 'managedIdentity', 'dataPlatform', 'arm', 'kql', 'search', 'oneLake', 'admin']) {
    assert.match(out, new RegExp(`^  ${name}\\s+http://127\\.0\\.0\\.1:\\d+$`, 'm'), name);
  }
  const env = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
  for (const name of [
    'IDENTITY_ENDPOINT',
    'IDENTITY_HEADER',
    'SVC_AUTH_URL',
    'SVC_DATA_PLATFORM_API_URL',
    'SVC_ARM_URL',
    'SVC_KQL_CLUSTER_URI',
    'SVC_KQL_CLUSTER_NAME',
    'SVC_SEARCH_SERVICE',
    'SVC_DEFAULT_PLATFORM_WORKSPACE',
    'SVC_TENANT_ID',
    'SVC_SANDBOX_ADMIN_URL',
  ]) {
    assert.ok(env[name], `${name} in:\n${out}`);
  }
  assert.match(env.IDENTITY_ENDPOINT!, /\/msi\/token$/);
  assert.match(env.SVC_DATA_PLATFORM_API_URL!, /\/v1$/);
  assert.match(
    env.SVC_KQL_CLUSTER_NAME!,
    /^\/subscriptions\/[0-9a-f-]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.Kusto\/clusters\/[^/]+$/,
  );
  const summary = await (await fetch(`${env.SVC_SANDBOX_ADMIN_URL}/_sandbox`)).json();
  assert.equal(summary.ids.tenantId, env.SVC_TENANT_ID);
  assert.equal(summary.switches['dataPlatform.pageSize'], 3);
  const mi = await fetch(`${env.IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=https://management.azure.com/`, {
    headers: { 'X-IDENTITY-HEADER': env.IDENTITY_HEADER! },
  });
  assert.equal(mi.status, 200);
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
  // npm exits at once; the sandbox's node process closes its servers on the signal a moment later (on a loaded machine,
  // after npm's exit): it must be down within seconds, not at the instant npm is.
  const probe = () =>
    fetch(`${env.SVC_SANDBOX_ADMIN_URL}/_sandbox`, { signal: AbortSignal.timeout(1000) }).then(
      () => 'up',
      () => 'down',
    );
  let after = await probe();
  for (const until = Date.now() + 10_000; after === 'up' && Date.now() < until; after = await probe())
    await new Promise((r) => setTimeout(r, 100));
  assert.equal(after, 'down');
});
