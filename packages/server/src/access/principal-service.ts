import { sql } from 'kysely';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../store/db.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { Principal } from './role-assignment-service.js';
import type { PrincipalType } from './roles.js';

/** The users of the caller's tenant and the groups the service has seen at sign-in, for choosing whom to assign. */
export class PrincipalService {
  private constructor(private readonly db: Db) {}

  static create(db: Db): PrincipalService {
    return new PrincipalService(db);
  }

  /** Principals whose name, email or id contains `search` (case-insensitive), in the order they became known. */
  async search(caller: Caller, search: string | undefined, page: PageRequest) {
    const known = this.db
      .selectFrom('users')
      .select([sql<PrincipalType>`'User'`.as('type'), 'id', 'display_name', 'email', 'created_at'])
      .where('tenant_id', '=', caller.tenantId)
      .unionAll(
        this.db
          .selectFrom('directory_groups')
          .select([
            sql<PrincipalType>`'Group'`.as('type'),
            'id',
            'id as display_name',
            sql<string | null>`NULL::text`.as('email'),
            'first_seen_at as created_at',
          ])
          .where('tenant_id', '=', caller.tenantId),
      );
    let q = this.db
      .selectFrom(known.as('p'))
      .selectAll()
      .orderBy('p.created_at')
      .orderBy('p.id')
      .limit(page.limit + 1);
    if (search) {
      // LIKE's own wildcards in the search are taken literally.
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb('p.display_name', 'ilike', pattern), eb('p.email', 'ilike', pattern), eb('p.id', 'ilike', pattern)]));
    }
    if (page.cursor) q = q.where(afterCursor(page.cursor, 'p'));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    const principals: Principal[] = rows.map((r) => ({
      id: r.id,
      type: r.type,
      displayName: r.display_name,
      ...(r.email ? { email: r.email } : {}),
    }));
    return { principals, nextCursor };
  }

  /** Records the group ids of a sign-in (first sighting kept). */
  static async recordGroups(db: Db, tenantId: string, groups: readonly string[]): Promise<void> {
    if (groups.length === 0) return;
    await db
      .insertInto('directory_groups')
      .values(groups.map((id) => ({ tenant_id: tenantId, id })))
      .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
      .execute();
  }
}
