// What the lake backend's tests share: the app they install (a lakehouse and a warehouse reading it), the lake assigned
// to a tenant, the sandbox's lake and serverless pool as the state view shows them, and requests held to their plan.
import assert from 'node:assert/strict';
import { startSandbox } from '@svc/sandbox';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { callMatches, type PlannedCall } from '../src/item-types/calls.js';
import { OPERATOR, buildWithSandbox, type Sandbox } from './install-helpers.js';
import type { TestApp } from './helpers.js';

export const APP = 'app-healthcare-popmgt';
/** The lake (its key as the tenancy stores it: the account's DFS host) assigned to a tenant, taken from whoever held it. */
export async function giveLake(h: TestApp, tenantId: string, sb: Sandbox): Promise<void> {
  const key = `${sb.env.SVC_LAKE_ACCOUNT}.dfs${h.services.profile.storageSuffix}`;
  await h.store.db.deleteFrom('tenant_resources').where('kind', '=', 'lake').where('resource', '=', key).execute();
  await h.services.tenancy.assignTarget(OPERATOR, tenantId, {
    kind: 'lake',
    address: sb.env.SVC_LAKE_ACCOUNT!,
    container: sb.env.SVC_LAKE_CONTAINER,
  });
}

/**
 * A sandbox without the data platform and the service on it, the tenant holding the lake. The app's other items (its
 * semantic models and reports) are other backends': these tests read the lakehouse's and the warehouse's steps.
 */
export async function lakeService(t: Parameters<typeof buildWithSandbox>[0], env: Record<string, string> = {}, dataPlatform = false) {
  const sb = await startSandbox({ dataPlatform });
  t.after(() => sb.stop());
  const built = await buildWithSandbox(t, env, sb);
  await giveLake(built.h, built.tenant.tenantId, sb);
  return built;
}

/** The paths of a folder of the seeded container, relative to it. */
export async function lakePaths(sb: Sandbox, folder: string): Promise<string[]> {
  const fs = (await sb.admin.state()).lake[0]!.filesystems.find((f) => f.name === sb.env.SVC_LAKE_CONTAINER)!;
  return fs.paths.filter((p) => p.path === folder || p.path.startsWith(`${folder}/`)).map((p) => p.path.slice(folder.length + 1));
}

/** The serverless pool's database of that name, as the state view shows it. */
export async function serverlessDb(sb: Sandbox, name: string) {
  return (await sb.admin.state()).sqlServerless.databases.find((d) => d.name.toLowerCase() === name.toLowerCase());
}

/**
 * The lake and serverless requests since `since`: each matches a call of `calls` (paths relative to the account's
 * endpoint, T-SQL as the sql service) and the published description or reference rule, with no problem.
 */
export async function checkRequests(sb: Sandbox, since: number, calls: readonly PlannedCall[]) {
  const made = (await sb.admin.requests({ since })).filter((r) => r.service === 'lake' || r.service === 'sqlServerless');
  assert.ok(made.length > 0, 'the lake backend made requests');
  for (const r of made) {
    const verdict = validate(r);
    assert.ok(
      ['described', 'reference'].includes(verdict.kind) && !verdict.problems.length,
      `${r.method} ${r.path}: ${verdict.kind} ${verdict.problems.join('; ')}`,
    );
    const req =
      r.service === 'lake'
        ? { service: 'storage', method: r.method, path: r.path.slice(`/${sb.env.SVC_LAKE_ACCOUNT}`.length) }
        : { service: 'sql', method: r.method, path: r.path };
    assert.ok(
      calls.some((c) => c.service === req.service && callMatches(c, req)),
      `${r.service} ${r.method} ${r.path} is a call the backend does not declare`,
    );
  }
  return made;
}
