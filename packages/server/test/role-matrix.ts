// The principals and workspaces of the authorization matrix's role dimension: a tenant mapped to the sandbox's
// directory (so that its users sign in with their groups), users holding each role directly, an OIDC session whose
// group holds each role, callers with no role, a workspace-limited token, and workspaces prepared with one resource of
// each kind a path parameter names.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestContext } from 'node:test';
import { startSandbox } from '@svc/sandbox';
import { SCOPES, TENANT_SCOPES } from '../src/auth/scopes.js';
import { ensureTenant } from '../src/auth/token-service.js';
import { build, type TestApp } from './helpers.js';
import { giveSandbox } from './install-helpers.js';
import { type Json, type Operation, requests } from './matrix-doc.js';
import { signIn } from './oidc-sign-in.js';

export type Role = 'Viewer' | 'Contributor' | 'Member' | 'Admin';
/** Lowest first, as the data platform ranks them. */
export const ROLES: Role[] = ['Viewer', 'Contributor', 'Member', 'Admin'];
export const rank = (r: Role | undefined) => (r ? ROLES.indexOf(r) : -1);
export type Headers = Record<string, string>;

/** Who calls: a user with a direct assignment, a session through a group, or a caller that must see nothing. */
export interface Principal {
  label: string;
  role?: Role;
  auth: Headers;
}

/** The app on a fresh sandbox whose directory signs into a tenant of its own, with the tenant admin's token. */
export async function roleRig(t: TestContext) {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  process.env.IDENTITY_ENDPOINT = sb.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sb.env.IDENTITY_HEADER;
  const tenantId = `t-${randomUUID()}`;
  const h = await build(t, { ...sb.env, SVC_WORKER_POLL_MS: '100', SVC_OIDC_TENANTS: `${sb.ids.tenantId}=${tenantId}` });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  const { userId: adminId } = await ensureTenant(h.store.db, tenantId, 'Role matrix', { displayName: 'Tenant admin' });
  await giveSandbox(h, tenantId, sb);
  const issue = async (userId: string, userName: string, scopes: string[]) => {
    const caller = { tenantId, userId, userName, method: 'token' as const, scopes: [...SCOPES] };
    const { secret } = await h.services.tokens.issue(caller, { name: `matrix ${userName}`, scopes });
    return { authorization: `Bearer ${secret}` };
  };
  const admin = await issue(adminId, 'Tenant admin', [...TENANT_SCOPES]);
  /** Every scope of a signed-in user who is not a tenant admin: with `admin`, any caller is Admin everywhere. */
  const userScopes = TENANT_SCOPES.filter((s) => s !== 'admin');
  /** A user of the tenant (not an admin) and a token of it holding every other tenant scope. */
  const user = async (name: string) => {
    const id = randomUUID();
    await h.store.db
      .insertInto('users')
      .values({ id, tenant_id: tenantId, display_name: name, email: null, oidc_subject: null, is_admin: false })
      .execute();
    return { id, auth: await issue(id, name, userScopes) };
  };
  /** A signed-in sandbox user's session: its cookie, CSRF token (changes send it) and the groups it holds. */
  const session = async (name: string) => {
    const cookie = await signIn(base, name);
    const me = (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } })).json();
    assert.ok(Array.isArray(me.groups) && me.groups.length > 0, `${name}'s session holds the groups of the id token`);
    assert.ok(!me.scopes.includes('admin'), `${name} is not a tenant admin`);
    return { auth: { cookie, 'x-csrf-token': me.csrfToken as string }, groups: me.groups as string[], userId: me.userId as string };
  };
  return { h, sb, tenantId, adminId, admin, user, session };
}

export type Rig = Awaited<ReturnType<typeof roleRig>>;

/** The store rows of a workspace a refused call must leave as they were. */
export async function workspaceRows(h: TestApp, ws: string) {
  const db = h.store.db;
  const jobs = await db.selectFrom('install_jobs').selectAll().where('workspace_id', '=', ws).orderBy('id').execute();
  return {
    workspace: await db.selectFrom('workspaces').selectAll().where('id', '=', ws).execute(),
    items: await db.selectFrom('items').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
    roleAssignments: await db.selectFrom('workspace_role_assignments').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
    installedApps: await db.selectFrom('installed_apps').selectAll().where('workspace_id', '=', ws).orderBy('app_id').execute(),
    appItems: await db
      .selectFrom('installed_app_items')
      .selectAll()
      .where('workspace_id', '=', ws)
      .orderBy('app_id')
      .orderBy('item_id')
      .execute(),
    jobs,
    steps: jobs.length
      ? await db
          .selectFrom('install_steps')
          .selectAll()
          .where(
            'job_id',
            'in',
            jobs.map((j) => j.id),
          )
          .orderBy('job_id')
          .orderBy('step_index')
          .execute()
      : [],
    edges: await db.selectFrom('thread_edges').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
  };
}

/** One call of the matrix: an operation's request on a prepared workspace, the role it needs and when it runs. */
export interface Cell {
  label: string;
  o: Operation;
  url: string;
  body: unknown;
  headers: (auth: Headers) => Headers;
  /** The role the call needs: the operation's x-required-role, or more for an assignment of Member or Admin. */
  needed: Role;
  /** Reads first, then changes, deletes, and the workspace's own delete last. */
  phase: number;
}

/** A prepared workspace: its id and the ids its resources give the path parameters. */
export interface Prepared {
  ws: string;
  owned: Record<string, string>;
  /** The assignment of the workspace's creator (Admin). */
  creatorAssignment: string;
}

const ASSIGNMENTS = '/api/workspaces/{workspaceId}/role-assignments';
const ASSIGNMENT = `${ASSIGNMENTS}/{assignmentId}`;

/**
 * The cells of every operation with a role on one prepared workspace. Assignment calls name the spare users: A gets a
 * Viewer assignment, B's Viewer assignment becomes Contributor and is removed; and Member's limit is tried too: C as
 * Member, B made Admin, the creator's Admin assignment removed (each needs Admin).
 */
export function cellsFor(doc: Json, ops: Operation[], p: Prepared, spare: { a: string; c: string }, fixed: Record<string, string>) {
  const { urlOf, headersOf, bodyOf } = requests(doc, p.owned, fixed);
  // An item's or app's delete takes its edges along, so edges go first; the workspace goes last.
  const phaseOf = (o: Operation) =>
    o.method === 'GET'
      ? 0
      : o.method !== 'DELETE'
        ? 1
        : o.path === '/api/workspaces/{workspaceId}'
          ? 3
          : /\{(itemId|appId)\}$/.test(o.path)
            ? 2.2
            : 2;
  const bodies: Record<string, unknown> = {
    [`POST ${ASSIGNMENTS}`]: { principal: { type: 'User', id: spare.a }, role: 'Viewer' },
    [`PATCH ${ASSIGNMENT}`]: { role: 'Contributor' },
    // The prepared edge runs from the lakehouse to the notebook; a second one goes the other way.
    'POST /api/workspaces/{workspaceId}/thread/edges': { fromItemId: p.owned.itemId, toItemId: p.owned.item2Id, kind: 'reads-from' },
  };
  const cells: Cell[] = ops.map((o) => ({
    label: o.id,
    o,
    url: urlOf(o),
    body: bodies[`${o.method} ${o.path}`] ?? bodyOf(o),
    headers: (auth: Headers) => headersOf(o, auth),
    needed: o.op['x-required-role'] as Role,
    phase: phaseOf(o),
  }));
  const find = (method: string, path: string) => {
    const cell = cells.find((c) => c.o.method === method && c.o.path === path);
    assert.ok(cell, `the document has ${method} ${path}`);
    return cell;
  };
  const post = find('POST', ASSIGNMENTS);
  const patch = find('PATCH', ASSIGNMENT);
  const del = find('DELETE', ASSIGNMENT);
  cells.push(
    {
      ...post,
      label: `${post.label} (a Member)`,
      body: { principal: { type: 'User', id: spare.c }, role: 'Member' },
      needed: 'Admin',
      phase: 1.5,
    },
    { ...patch, label: `${patch.label} (to Admin)`, body: { role: 'Admin' }, needed: 'Admin', phase: 1.5 },
    {
      ...del,
      label: `${del.label} (an Admin's)`,
      url: del.url.replace(p.owned.assignmentId ?? '', p.creatorAssignment),
      needed: 'Admin',
      phase: 2.5,
    },
  );
  return cells.sort((x, y) => x.phase - y.phase);
}

/** What an answer should have been for this caller, or undefined when it was. */
export function misjudged(cell: Cell, role: Role | undefined, status: number, body: string): string | undefined {
  let error: { code?: string; message?: string } = {};
  try {
    error = JSON.parse(body).error ?? {};
  } catch {
    /* not JSON: judged by status alone */
  }
  if (role === undefined) return status === 404 && error.code === 'not_found' ? undefined : 'expected 404 not_found';
  const route = cell.o.op['x-required-role'] as Role;
  if (rank(role) < rank(cell.needed)) {
    // The route's own role is checked first; a caller past it meets the assignment's.
    const named = rank(role) < rank(route) ? route : cell.needed;
    const message = `This operation needs the ${named} role on the workspace (yours is ${role})`;
    return status === 403 && error.code === 'workspace_role_required' && error.message === message
      ? undefined
      : `expected 403 workspace_role_required "${message}"`;
  }
  const refused =
    status >= 500 ||
    status === 401 ||
    (status === 403 && ['workspace_role_required', 'missing_scope', 'csrf_failed'].includes(error.code ?? '')) ||
    (status === 404 && /^Workspace '/.test(error.message ?? ''));
  return refused ? `expected ${role} to be allowed` : undefined;
}
