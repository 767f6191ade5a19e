import { sql, type Expression, type SqlBool } from 'kysely';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { atLeast, highest, roleRequiredMessage, type EffectiveRole, type WorkspaceRole } from './roles.js';

/** True when the caller holds the tenant's `admin` scope: Admin on every workspace of the tenant. */
export const isTenantAdmin = (caller: Caller) => hasScope(caller.scopes, 'admin');

/** True when a workspace-limited token (or its session) may not reach the workspace. */
export const outsideLimit = (caller: Caller, workspaceId: string) =>
  caller.workspaceIds !== undefined && !caller.workspaceIds.includes(workspaceId);

/**
 * The caller's effective role on workspaces: the highest of its direct user assignment and its session's groups'
 * assignments; a tenant admin is Admin everywhere in its tenant; a limited token reaches only its workspaces. A
 * workspace the caller has no role in is answered 404, exactly like another tenant's.
 */
export class AccessService {
  private constructor(private readonly db: Db) {}

  static create(db: Db): AccessService {
    return new AccessService(db);
  }

  /** The caller's role on each of the given workspaces of its tenant that it may see (the others are absent). */
  async rolesOn(caller: Caller, workspaceIds: readonly string[]): Promise<Map<string, EffectiveRole>> {
    const ids = workspaceIds.filter((id) => !outsideLimit(caller, id));
    const out = new Map<string, EffectiveRole>();
    if (ids.length === 0) return out;
    const existing = await this.db
      .selectFrom('workspaces')
      .select('id')
      .where('tenant_id', '=', caller.tenantId)
      .where('id', 'in', ids)
      .execute();
    if (existing.length === 0) return out;
    const found = existing.map((w) => w.id);
    if (isTenantAdmin(caller)) {
      for (const id of found) out.set(id, { role: 'Admin', source: 'tenant-admin' });
      return out;
    }
    const rows = await this.db
      .selectFrom('workspace_role_assignments')
      .select(['workspace_id', 'principal_type', 'role'])
      .where('tenant_id', '=', caller.tenantId)
      .where('workspace_id', 'in', found)
      .where((eb) => this.principalMatch(caller, eb.ref('principal_type'), eb.ref('principal_id')))
      .execute();
    const byWorkspace = new Map<string, EffectiveRole[]>();
    for (const r of rows) {
      const list = byWorkspace.get(r.workspace_id) ?? [];
      list.push({ role: r.role, source: r.principal_type === 'User' ? 'user' : 'group' });
      byWorkspace.set(r.workspace_id, list);
    }
    for (const [id, roles] of byWorkspace) out.set(id, highest(roles)!);
    return out;
  }

  /** The caller's role on one workspace of its tenant, or undefined when it may not see it (or it does not exist). */
  async roleOn(caller: Caller, workspaceId: string): Promise<EffectiveRole | undefined> {
    return (await this.rolesOn(caller, [workspaceId])).get(workspaceId);
  }

  /** The caller's role when it holds at least `needed`; 404 when it has none, 403 workspace_role_required when too low. */
  async require(caller: Caller, workspaceId: string, needed: WorkspaceRole): Promise<EffectiveRole> {
    const held = await this.roleOn(caller, workspaceId);
    if (!held) throw new NotFoundError('Workspace', workspaceId);
    if (!atLeast(held.role, needed)) throw new ForbiddenError(roleRequiredMessage(needed, held.role), 'workspace_role_required');
    return held;
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
