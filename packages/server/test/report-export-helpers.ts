import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestContext } from 'node:test';
import { startSandbox } from '@svc/sandbox';
import { build } from './helpers.js';
import { giveSandbox, install, stepOf } from './install-helpers.js';
import { ensureTenant } from '../src/auth/token-service.js';
import { SCOPES, TENANT_SCOPES } from '../src/auth/scopes.js';
import { signIn } from './oidc-sign-in.js';
import { validate } from '../../sandbox/src/conformance/validate.js';

// The service on a loopback port against the sandbox, its identity provider signing users in to a tenant of the test:
// for exports that run as the signed-in user, an API token's owner, or the identity an admin names.

export const BASE = '/api/items/paginated-report';
type Auth = Record<string, string>;

/** The rig: the app, the sandbox, the tenant's admin token, a workspace with the casino app installed, and helpers. */
export async function exportRig(t: TestContext, env: Record<string, string> = {}) {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  process.env.IDENTITY_ENDPOINT = sb.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sb.env.IDENTITY_HEADER;
  const tenantId = `t-${randomUUID()}`;
  const h = await build(t, { ...sb.env, SVC_WORKER_POLL_MS: '100', SVC_OIDC_TENANTS: `${sb.ids.tenantId}=${tenantId}`, ...env });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  const { userId: adminId } = await ensureTenant(h.store.db, tenantId, 'Export identities', { displayName: 'Tenant admin' });
  await giveSandbox(h, tenantId, sb);
  const caller = { tenantId, userId: adminId, userName: 'Tenant admin', method: 'token' as const, scopes: [...SCOPES] };
  const { secret } = await h.services.tokens.issue(caller, { name: 'admin', scopes: [...TENANT_SCOPES] });
  const admin: Auth = { authorization: `Bearer ${secret}` };
  const created = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: admin, payload: { name: 'Exports' } });
  assert.equal(created.statusCode, 201, created.body);
  const ws: string = created.json().workspace.id;
  const job = await install(
    h,
    { tenantId, userId: adminId, token: secret, auth: { authorization: admin.authorization } } as never,
    'app-casino-analytics',
    {
      workspaceId: ws,
    },
  );
  const model = stepOf(job, 'semantic-model').result.resourceId as string;

  const call = (method: 'GET' | 'POST' | 'PUT', path: string, who: Auth, payload?: unknown) =>
    h.app.inject({
      method,
      url: `${BASE}${path}${path.includes('?') ? '&' : '?'}workspaceId=${ws}`,
      headers: who,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** A signed-in sandbox user (not an admin) made Viewer of the workspace: its cookie and CSRF token. */
  const session = async (alias: string): Promise<Auth> => {
    const cookie = await signIn(base, alias);
    const me = (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } })).json();
    const grant = await h.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws}/role-assignments`,
      headers: admin,
      payload: { principal: { type: 'User', id: me.userId }, role: 'Viewer' },
    });
    assert.equal(grant.statusCode, 201, grant.body);
    return { cookie, 'x-csrf-token': me.csrfToken };
  };

  /** Exports a report and waits for the job: the final export, and the file's bytes when it Succeeded. */
  const exportOf = async (reportId: string, who: Auth, body: Record<string, unknown>) => {
    const start = await call('POST', `/${reportId}/exports`, who, body);
    if (start.statusCode !== 202) return { start, job: undefined, file: undefined };
    let job = start.json().export;
    for (let i = 0; job.status !== 'Succeeded' && job.status !== 'Failed'; i++) {
      assert.ok(i < 200, 'the export finished in time');
      await new Promise((r) => setTimeout(r, 150));
      job = (await call('GET', `/${reportId}/exports/${encodeURIComponent(job.id)}`, who)).json().export;
    }
    if (job.status !== 'Succeeded') return { start, job, file: undefined };
    const file = await call('GET', `/${reportId}/exports/${encodeURIComponent(job.id)}/file`, who);
    assert.equal(file.statusCode, 200, file.body);
    return { start, job, file: file.rawPayload };
  };

  /** The identities the last ExportTo of a report carried to the reporting service (its request log). */
  const sentIdentities = async (reportId: string) => {
    const logged = await sb.admin.requests({ service: 'reporting' });
    const exports = logged.filter((e) => e.method === 'POST' && e.path.toLowerCase().includes(`/reports/${reportId}/exportto`));
    assert.ok(exports.length, `an ExportTo of ${reportId} was sent`);
    const body = exports.at(-1)!.body?.json as { paginatedReportConfiguration?: { identities?: unknown[] } } | undefined;
    return body?.paginatedReportConfiguration?.identities;
  };

  /** Every reporting call (ExportTo, the admin route) the service made validates against the published description. */
  const conforming = async (path: RegExp) => {
    const sent = (await sb.admin.requests({ service: 'reporting' })).filter((e) => path.test(e.path));
    assert.ok(sent.length, `the service called ${path}`);
    for (const e of sent) {
      const v = validate(e);
      assert.ok(v.kind === 'described' && !v.problems.length, `${e.method} ${e.path}: ${v.kind} ${v.problems.join('; ')}`);
    }
  };

  return { h, sb, ws, admin, model, call, session, exportOf, sentIdentities, conforming, domain: 'sandbox.onmicrosoft.com' };
}
