import type { TokenService } from '../auth/token-service.js';
import { ensureTenant } from '../auth/token-service.js';
import { TENANT_SCOPES } from '../auth/scopes.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import { TARGET_KINDS } from './resources.js';

/** A tenant as the operator sees it. */
export interface Tenant {
  id: string;
  name: string;
  createdAt: string;
  platformWorkspaces: number;
  targets: number;
}

/** The tenants as the operator sees them, and the admin tokens the operator mints for them. */
export class TenantDirectory {
  private constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
  ) {}

  /** The directory over the store, minting tokens with `tokens`. */
  static create(options: { db: Db; tokens: TokenService }): TenantDirectory {
    return new TenantDirectory(options.db, options.tokens);
  }

  /** A page of tenants, oldest first, with how many platform workspaces and targets each holds. */
  async listTenants(page: PageRequest): Promise<{ tenants: Tenant[]; nextCursor?: string }> {
    let q = this.db
      .selectFrom('tenants')
      .select(['id', 'name', 'created_at'])
      .select((eb) => [
        eb
          .selectFrom('tenant_resources')
          .whereRef('tenant_resources.tenant_id', '=', 'tenants.id')
          .where('kind', '=', 'platform-workspace')
          .select(eb.fn.countAll<string>().as('n'))
          .as('pws'),
        eb
          .selectFrom('tenant_resources')
          .whereRef('tenant_resources.tenant_id', '=', 'tenants.id')
          .where('kind', 'in', [...TARGET_KINDS])
          .select(eb.fn.countAll<string>().as('n'))
          .as('tgt'),
      ])
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    if (page.cursor) q = q.where(afterCursor(page.cursor, 'tenants'));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    return {
      tenants: rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.created_at.toISOString(),
        platformWorkspaces: Number(r.pws ?? 0),
        targets: Number(r.tgt ?? 0),
      })),
      nextCursor,
    };
  }

  async getTenant(tenantId: string): Promise<Tenant> {
    const row = await this.db.selectFrom('tenants').select(['id', 'name', 'created_at']).where('id', '=', tenantId).executeTakeFirst();
    if (!row) throw new NotFoundError('Tenant', tenantId);
    const kinds = (await this.db.selectFrom('tenant_resources').select(['kind']).where('tenant_id', '=', tenantId).execute()).map(
      (c) => c.kind,
    );
    const count = (...of: readonly string[]) => kinds.filter((k) => of.includes(k)).length;
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at.toISOString(),
      platformWorkspaces: count('platform-workspace'),
      targets: count(...TARGET_KINDS),
    };
  }

  /** Creates a tenant; 409 when the id is taken. */
  async createTenant(input: { id: string; name: string }): Promise<Tenant> {
    const inserted = await this.db
      .insertInto('tenants')
      .values({ id: input.id, name: input.name.trim() })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new ConflictError(`A tenant '${input.id}' already exists`, 'tenant_exists', 'id');
    return this.getTenant(input.id);
  }

  /** A token with every tenant scope for the tenant's first admin (created when absent); the secret is shown once. */
  async mintAdminToken(tenantId: string, expiresInDays?: number) {
    const tenant = await this.getTenant(tenantId);
    const { userId } = await ensureTenant(this.db, tenantId, tenant.name, { displayName: 'Tenant administrator' });
    const admin = { tenantId, userId, userName: 'Tenant administrator', method: 'token' as const, scopes: [...TENANT_SCOPES] };
    return this.tokens.issue(admin, {
      name: 'tenant admin (minted by the operator)',
      scopes: [...TENANT_SCOPES],
      ...(expiresInDays ? { expiresInDays } : {}),
    });
  }
}
