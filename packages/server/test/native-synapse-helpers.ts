// What the Synapse backend tests share: a sandbox started without the data platform with the service on it, the tenant
// prefix, and the checks of the Synapse requests against the artifacts API and the calls the items declare.
import assert from 'node:assert/strict';
import { startSandbox } from '@svc/sandbox';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { callMatches, type PlannedCall } from '../src/item-types/calls.js';
import type { TestApp } from './helpers.js';
import { buildWithSandbox, type Sandbox } from './install-helpers.js';

/** The tenant prefix of a platform workspace: `w` and its first 12 hex digits, then `_`. */
export const prefixOf = (platformWorkspaceId: string) => `w${platformWorkspaceId.replace(/-/g, '').toLowerCase().slice(0, 12)}_`;

/** A sandbox without the data platform and the service on it, with a tenant of its own. */
export async function synapseCloud(t: Parameters<typeof buildWithSandbox>[0]) {
  const sb = await startSandbox({ dataPlatform: false });
  t.after(() => sb.stop());
  // A tenant of its own (the sandbox's platform workspace and lake assigned to it): on a store other test files share,
  // another file's items of the default tenant do not share its artifacts.
  const { h, tenant } = await buildWithSandbox(t, {}, sb);
  return { sb, h, tenant, prefix: prefixOf(sb.ids.platformWorkspaceId) };
}

/** The names of some artifacts, sorted. */
export const names = (list: Array<{ name: string }>) => list.map((a) => a.name).sort();

/** Every Synapse request since `since` is described by the artifacts API (or is the operation Location) and declared by an item. */
export async function checkRequests(h: TestApp, sb: Sandbox, since: number, declared: PlannedCall[]) {
  const synapse = (await sb.admin.requests({ since })).filter((r) => r.service === 'synapse');
  assert.ok(synapse.length > 0, 'Synapse was called');
  for (const r of synapse) {
    const v = validate(r);
    assert.ok(
      ['described', 'extension'].includes(v.kind) && !v.problems.length,
      `${r.method} ${r.path}: ${v.kind} ${v.problems.join('; ')}`,
    );
    assert.ok(
      declared.some((c) => c.service === 'synapse' && callMatches(c, r)),
      `${r.method} ${r.path} is not among the calls the items declare`,
    );
  }
  assert.ok(h.services.profile.synapseDevUrl, 'the sandbox names its development endpoint');
}

/** A write by another client of the sandbox (its own token), followed to its end. */
export async function asAnotherClient(sb: Sandbox, method: string, path: string, body?: unknown) {
  const token = await sb.admin.token({ audience: 'synapse' });
  const res = await fetch(`${sb.env.SVC_SYNAPSE_DEV_URL}${path}?api-version=2020-12-01`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 202, await res.text());
  for (let at = res.headers.get('location'), s = 202; s === 202; ) {
    await new Promise((r) => setTimeout(r, 100));
    s = (await fetch(at!, { headers: { authorization: `Bearer ${token}` } })).status;
  }
}
