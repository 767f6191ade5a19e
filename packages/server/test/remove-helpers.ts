// What the remove tests share: a lifecycle context built as the plan service builds one, and a removal whose requests
// are held against the calls its type declares and the sandbox's conformance checker.
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { expandSeedTokens } from '../src/catalog/seed-tokens.js';
import type { CatalogItem, CuratedApp } from '../src/catalog/types.js';
import type { StepResult } from '../src/install/types.js';
import { callMatches, type CallService } from '../src/item-types/calls.js';
import { removerOf } from '../src/item-types/index.js';
import type { ProvisionContext } from '../src/provisioning/context.js';
import { installTarget, type ResolvedTarget } from '../src/provisioning/targets.js';
import { validate } from '../../sandbox/src/conformance/validate.js';
import type { Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

export const catalog = loadCatalog();
/** A catalog app by id. */
export const appOf = (id: string) => catalog.apps.find((a) => a.id === id)!;

/** The sandbox's services as the calls name them, each with the path its address starts with (as plan-calls.test.ts). */
function services(sandbox: Sandbox): Record<string, { service: CallService; base: string }> {
  const base = (url: string | undefined) => (url && /^[a-z]+:\/\//.test(url) ? new URL(url).pathname.replace(/\/$/, '') : '');
  return {
    dataPlatform: { service: 'data-platform', base: base(sandbox.env.SVC_DATA_PLATFORM_API_URL) },
    oneLake: { service: 'onelake', base: base(sandbox.env.SVC_ONELAKE_URL) },
    arm: { service: 'arm', base: base(sandbox.env.SVC_ARM_URL) },
    kql: { service: 'kql', base: base(sandbox.env.SVC_KQL_CLUSTER_URI) },
    search: { service: 'search', base: base(sandbox.env.SVC_SEARCH_SERVICE) },
    sql: { service: 'sql', base: '' },
    reporting: { service: 'reporting', base: base(sandbox.env.SVC_BI_API_URL) },
    synapse: { service: 'synapse', base: base(sandbox.env.SVC_SYNAPSE_DEV_URL) },
    // The lake is path-style in the sandbox: a call's path starts after the account (`{lake}` is the account's endpoint).
    lake: { service: 'storage', base: `${base(sandbox.env.SVC_LAKE_DFS_URL)}/${sandbox.env.SVC_LAKE_ACCOUNT}` },
    sqlServerless: { service: 'sql', base: '' },
  };
}

/** A lifecycle context for one item, built the way the plan service builds one. */
export function contextOf(
  h: TestApp,
  app: CuratedApp,
  item: CatalogItem,
  target: ResolvedTarget,
  results: Map<string, StepResult>,
  log: string[] = [],
): ProvisionContext {
  const now = new Date();
  const content = new Map(app.items.map((i) => [i.key, expandSeedTokens(i.content, now)]));
  return {
    app,
    item,
    content: content.get(item.key),
    storedItemId: '',
    target,
    profile: h.services.profile,
    backends: h.services.backends,
    log: (line) => log.push(line),
    dependency: (k) => results.get(k),
    contentOf: (k) => content.get(k),
  };
}

/** The tenant's shared target, as an install in shared mode resolves it. */
export async function targetOf(h: TestApp, tenant: TestTenant) {
  return installTarget(h.services.tenancy, h.services.profile, { tenantId: tenant.tenantId, mode: 'shared', binding: null }, true);
}

/** Calls `remove` and checks the requests it made against the calls its type declares. */
export async function removeChecked(sandbox: Sandbox, ctx: ProvisionContext, resourceId: string, ws: string) {
  const type = ctx.item.itemType;
  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const outcome = await removerOf(type, PLATFORM_PROFILE)!.remove(ctx, resourceId);
  const declared = removerOf(type, PLATFORM_PROFILE)!.calls(ctx.content);
  const byService = services(sandbox);
  for (const r of await sandbox.admin.requests({ since })) {
    if (r.service === 'identity') continue;
    const s = byService[r.service]!;
    const req = { method: r.method, path: r.path.slice(s.base.length) };
    // The sandbox's conformance checker matches the request against the published description (or its reference rule).
    const verdict = validate(r);
    assert.ok(
      ['described', 'reference'].includes(verdict.kind) && !verdict.problems.length,
      `${type}: ${r.method} ${r.path} ${r.text ?? ''}: ${verdict.kind} ${verdict.problems.join('; ')}`,
    );
    assert.ok(
      declared.some((c) => c.service === s.service && callMatches(c, req, { ws, id: resourceId })),
      `${type}: ${r.service} ${r.method} ${r.path} is not a call its removeCalls declare`,
    );
  }
  return outcome;
}
