import { sql, type Expression, type SqlBool } from 'kysely';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { ReadCache } from '../store/read-cache.js';
import type { TableVersions } from '../store/table-versions.js';
import { atLeast, highest, roleRequiredMessage, type EffectiveRole, type WorkspaceRole } from './roles.js';

/** True when the caller holds the tenant's `admin` scope: Admin on every workspace of the tenant. */
export const isTenantAdmin = (caller: Caller) => hasScope(caller.scopes, 'admin');

/** True when a workspace-limited token (or its session) may not reach the workspace. */
export const outsideLimit = (caller: Caller, workspaceId: string) =>
  caller.workspaceIds !== undefined && !caller.workspaceIds.includes(workspaceId);

/** The role held when it is at least `needed`; 403 workspace_role_required when it is lower. */
function sufficient(held: EffectiveRole, needed: WorkspaceRole): EffectiveRole {
  if (!atLeast(held.role, needed)) throw new ForbiddenError(roleRequiredMessage(needed, held.role), 'workspace_role_required');
  return held;
}

/** Whose roles a cache entry holds: a tenant admin's (Admin on every workspace of the tenant), else a user's with its groups. */
const principalKey = (caller: Caller) => {
  if (isTenantAdmin(caller)) return `admin\n${caller.tenantId}`;
  const groups = caller.groups?.length ? JSON.stringify([...caller.groups].sort()) : '[]';
  return `user\n${caller.tenantId}\n${caller.userId}\n${groups}`;
};

/**
 * The caller's effective role on workspaces: the highest of its direct user assignment and its session's groups'
 * assignments; a tenant admin is Admin everywhere in its tenant; a limited token reaches only its workspaces. A
 * workspace the caller has no role in is answered 404, exactly like another tenant's. Roles found are kept per
 * principal and workspace until a role assignment or a workspace is written (in any process: the store's change feed)
 * or `cacheMs` ends, so a request of a known caller reads no role from the store.
 */
export class AccessService {
  private constructor(
    private readonly db: Db,
    private readonly roles?: ReadCache<EffectiveRole>,
  ) {}

  static create(db: Db, options: { versions?: TableVersions; cacheMs?: number } = {}): AccessService {
    const { versions, cacheMs = 0 } = options;
    const roles =
      versions && cacheMs > 0 ? new ReadCache<EffectiveRole>(versions, ['workspaces', 'workspace_role_assignments'], cacheMs) : undefined;
    return new AccessService(db, roles);
  }

  /** The caller's role on each of the given workspaces of its tenant that it may see (the others are absent). */
  async rolesOn(caller: Caller, workspaceIds: readonly string[]): Promise<Map<string, EffectiveRole>> {
    const out = new Map<string, EffectiveRole>();
    const who = principalKey(caller);
    const missing: string[] = [];
    for (const id of new Set(workspaceIds)) {
      if (outsideLimit(caller, id)) continue;
      const hit = this.roles?.get(`${who}\n${id}`);
      if (hit) out.set(id, hit);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const ticket = this.roles?.begin();
    for (const [id, role] of await this.lookup(caller, missing)) {
      out.set(id, role);
      if (ticket) this.roles!.keep(ticket, `${who}\n${id}`, role);
    }
    return out;
  }

  /** One round trip: the workspaces among `ids` that exist in the caller's tenant, with the caller's highest role on each. */
  private async lookup(caller: Caller, ids: string[]): Promise<Map<string, EffectiveRole>> {
    const out = new Map<string, EffectiveRole>();
    if (isTenantAdmin(caller)) {
      const existing = await this.db
        .selectFrom('workspaces')
        .select('id')
        .where('tenant_id', '=', caller.tenantId)
        .where('id', 'in', ids)
        .execute();
      for (const w of existing) out.set(w.id, Object.freeze({ role: 'Admin', source: 'tenant-admin' }));
      return out;
    }
    const rows = await this.db
      .selectFrom('workspace_role_assignments as a')
      .innerJoin('workspaces as w', (j) => j.onRef('w.id', '=', 'a.workspace_id').onRef('w.tenant_id', '=', 'a.tenant_id'))
      .select(['a.workspace_id', 'a.principal_type', 'a.role'])
      .where('a.tenant_id', '=', caller.tenantId)
      .where('a.workspace_id', 'in', ids)
      .where((eb) => this.principalMatch(caller, eb.ref('a.principal_type'), eb.ref('a.principal_id')))
      .execute();
    const byWorkspace = new Map<string, EffectiveRole[]>();
    for (const r of rows) {
      const list = byWorkspace.get(r.workspace_id) ?? [];
      list.push({ role: r.role, source: r.principal_type === 'User' ? 'user' : 'group' });
      byWorkspace.set(r.workspace_id, list);
    }
    for (const [id, roles] of byWorkspace) out.set(id, Object.freeze(highest(roles)!));
    return out;
  }

  /** The caller's role on one workspace of its tenant, or undefined when it may not see it (or it does not exist). */
  async roleOn(caller: Caller, workspaceId: string): Promise<EffectiveRole | undefined> {
    return this.kept(caller, workspaceId) ?? (await this.rolesOn(caller, [workspaceId])).get(workspaceId);
  }

  /** The caller's role when it holds at least `needed`; 404 when it has none, 403 workspace_role_required when too low. */
  async require(caller: Caller, workspaceId: string, needed: WorkspaceRole): Promise<EffectiveRole> {
    const held = await this.roleOn(caller, workspaceId);
    if (!held) throw new NotFoundError('Workspace', workspaceId);
    return sufficient(held, needed);
  }

  /**
   * `require` without reading the store: true when the caller's kept role holds `needed`, 403 when it is kept and too
   * low, false when none is kept (then `require` decides).
   */
  requireKept(caller: Caller, workspaceId: string, needed: WorkspaceRole): boolean {
    const held = this.kept(caller, workspaceId);
    if (!held) return false;
    sufficient(held, needed);
    return true;
  }

  private kept(caller: Caller, workspaceId: string): EffectiveRole | undefined {
    return outsideLimit(caller, workspaceId) ? undefined : this.roles?.get(`${principalKey(caller)}\n${workspaceId}`);
  }

  /**
   * A condition on a workspace id column that keeps the workspaces the caller may see (for lists spanning
   * workspaces; the query still filters by tenant itself).
   */
  visible(caller: Caller, column: string): Expression<SqlBool> {
    const conditions = [];
    if (caller.workspaceIds !== undefined) {
      conditions.push(
        caller.workspaceIds.length ? sql<SqlBool>`${sql.ref(column)} IN (${sql.join(caller.workspaceIds)})` : sql<SqlBool>`false`,
      );
    }
    if (!isTenantAdmin(caller)) {
      conditions.push(sql<SqlBool>`${sql.ref(column)} IN (SELECT a.workspace_id FROM workspace_role_assignments a
        WHERE a.tenant_id = ${caller.tenantId} AND ${this.principalMatch(caller, sql.ref('a.principal_type'), sql.ref('a.principal_id'))})`);
    }
    return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` AND `)})` : sql<SqlBool>`true`;
  }

  /** The caller's principals: its user, and the groups of its session. */
  private principalMatch(caller: Caller, type: Expression<string>, id: Expression<string>): Expression<SqlBool> {
    const user = sql<SqlBool>`(${type} = 'User' AND ${id} = ${caller.userId})`;
    const groups = caller.groups ?? [];
    if (groups.length === 0) return user;
    return sql<SqlBool>`(${user} OR (${type} = 'Group' AND ${id} IN (${sql.join(groups)})))`;
  }
}
