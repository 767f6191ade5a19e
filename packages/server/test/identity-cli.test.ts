// The `svc identity` command line against the running service and the sandbox: tables and exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { main } from '../src/cli/svc.js';
import { buildWithSandbox } from './install-helpers.js';

const CLI = path.resolve(import.meta.dirname, '../src/cli/svc.ts');

test('svc identity: diagnose, probe, firewall add and rollback, inspect-token; exit codes for scripts', async (t) => {
  const { h, sandbox: sb, tenant } = await buildWithSandbox(t);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const ci = sb.ids.servicePrincipals.find((s) => s.name === 'ci-deployer')!;
  const ws = sb.ids.platformWorkspaceId;
  const env = { SVC_BASE_URL: base, SVC_TOKEN: tenant.token, CI_SECRET: ci.secret } as NodeJS.ProcessEnv;
  const svc = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      ['identity', ...argv],
      env,
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  const d = await svc('diagnose', '--status', '400', '--code', 'AADSTS53003');
  assert.equal(d.code, 0, d.err);
  assert.match(d.out, /blocked by conditional access/);
  assert.match(d.out, /ACTION\s+COMMAND/);

  const failing = await svc('probe', '--workspace', ws, '--client-id', ci.appId, '--secret-env', 'CI_SECRET');
  assert.equal(failing.code, 1, failing.err);
  assert.match(failing.out, /workspace-read\s+FAIL/);
  assert.ok(!failing.out.includes(ci.secret));

  await sb.admin.grant({ service: 'dataPlatform', role: 'Admin' });
  const granted = await svc('grant', '--workspace', ws, '--principal', ci.objectId, '--role', 'Contributor');
  assert.equal(granted.code, 0, granted.err);
  const passing = await svc('probe', '--workspace', ws, '--client-id', ci.appId, '--secret-env', 'CI_SECRET');
  assert.equal(passing.code, 0, passing.out);

  const add = await svc('firewall', 'add', '--workspace', ws, '--name', 'office', '--start', '198.51.100.1', '--end', '198.51.100.9');
  assert.equal(add.code, 0, add.err);
  const changeId = /svc identity rollback (\S+)/.exec(add.out)![1]!;
  assert.equal((await svc('firewall', 'check', '--workspace', ws, '--ip', '198.51.100.5')).code, 0);
  assert.equal((await svc('rollback', changeId)).code, 0);
  assert.equal((await svc('firewall', 'check', '--workspace', ws, '--ip', '198.51.100.5')).code, 1, 'not allowed once rolled back');
  const again = await svc('rollback', changeId);
  assert.equal(again.code, 3, 'refused: already rolled back');
  assert.match(again.err, /already_rolled_back/);
  assert.match((await svc('rollback', '--list')).out, /rolled-back\s+firewall-rule-added/);

  const token = await sb.admin.token({ principal: ci.appId, audience: 'arm' });
  const inspected = await main(
    ['identity', 'inspect-token', '--token-env', 'TOKEN', '--app-id', ci.appId],
    { ...env, TOKEN: token },
    () => undefined,
    () => undefined,
  );
  assert.equal(inspected, 1, 'aud is the resource manager, not the data platform');

  assert.equal((await svc('nonsense')).code, 2);
  assert.equal(
    await main(
      ['identity', 'secrets', 'list'],
      {},
      () => undefined,
      () => undefined,
    ),
    2,
    'no SVC_BASE_URL',
  );

  // Runnable as a script: node --import tsx packages/server/src/cli/svc.ts identity ...
  // (spawned without blocking: the service answers from this process)
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'identity', 'secrets', 'alerts'], {
    env: { ...process.env, SVC_BASE_URL: base, SVC_TOKEN: tenant.token },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(status, 0, stderr);
  assert.match(stdout, /\(none\)/);
});
