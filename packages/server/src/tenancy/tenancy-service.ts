import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { DEFAULT_TENANT, ensureTenant, type TokenService } from '../auth/token-service.js';
import { TENANT_SCOPES } from '../auth/scopes.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { TargetOverrides } from '../install/types.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import {
  addressOf,
  platformWorkspaceKey,
  TARGET_KINDS,
  type ApplicationSettings,
  type ResourceKind,
  type ResourceSettings,
  type TargetKind,
  type TargetSettings,
} from './resources.js';
import type { StoreRow } from '../store/schema.js';

type Settings = ResourceSettings;

/** A target as the operator sends it. */
export interface TargetInput {
  kind: TargetKind;
  address: string;
  resourceId?: string;
  location?: string;
  workspace?: string;
  database?: string;
  container?: string;
}

/** The targetOverrides fields that name a resource the tenant must hold. */
export type CheckedField = 'platformWorkspaceId' | 'kqlClusterUri' | 'searchService' | 'warehouseServer' | 'lakeAccount';

/** A tenant as the operator sees it. */
export interface Tenant {
  id: string;
  name: string;
  createdAt: string;
  platformWorkspaces: number;
  targets: number;
}

/** One assignment of a backing resource to a tenant. */
export interface Assignment {
  id: string;
  kind: ResourceKind;
  /** The platform workspace id, or the target's host[:port]. */
  resource: string;
  tenantId: string;
  settings: Settings;
  /** The tenant's shared-mode choice of its kind (the first assigned; for the default tenant, the SVC_* setting). */
  isDefault: boolean;
  assignedBy: string | null;
  assignedAt: string;
}

/** The shared-mode targets of a tenant: what SVC_* settings are for the default tenant. */
export interface SharedSet {
  platformWorkspaceId?: string;
  kqlClusterUri?: string;
  kqlClusterResourceId?: string;
  kqlLocation?: string;
  searchService?: string;
  warehouseWorkspace?: string;
  warehousePool?: string;
  warehouseServer?: string;
  warehouseDatabase?: string;
  lakeAccount?: string;
  lakeContainer?: string;
}

type Row = StoreRow<'tenant_resources'>;

const KIND_NAMES: Record<ResourceKind, string> = {
  'platform-workspace': 'Platform workspace',
  'kql-cluster': 'KQL cluster',
  'search-service': 'Search service',
  warehouse: 'Warehouse server',
  lake: 'Lake account',
  application: 'Application',
  'vault-secret': 'Vault secret',
};

/** Who reserved a resource for the default tenant at start. */
const ENV_ASSIGNER = 'SVC_* settings';

/** A shared set from a tenant's first-assigned target of each kind. */
function sharedSetOf(defaults: Map<ResourceKind, Row>): SharedSet {
  const s = (kind: TargetKind) => defaults.get(kind)?.settings as TargetSettings | undefined;
  const kql = s('kql-cluster');
  const wh = s('warehouse');
  const lake = s('lake');
  return {
    platformWorkspaceId: defaults.get('platform-workspace')?.resource,
    kqlClusterUri: kql?.address,
    kqlClusterResourceId: kql?.resourceId,
    kqlLocation: kql?.location,
    searchService: s('search-service')?.address,
    warehouseWorkspace: wh?.workspace,
    warehousePool: wh?.database,
    warehouseServer: wh?.address,
    warehouseDatabase: wh?.database,
    lakeAccount: lake?.address,
    lakeContainer: lake?.container,
  };
}

/**
 * Which tenant may use which backing resource. Every platform workspace, reporting group and install target the
 * service's identity can reach is used only by the tenant it is assigned to; another tenant's resource is not found.
 */
export class TenancyService {
  private constructor(
    private readonly db: Db,
    private readonly profile: CloudProfile,
    private readonly envSet: SharedSet,
    private readonly tokens: TokenService,
  ) {}

  /** The service; `sharedSet` is the default tenant's, from the SVC_* settings (config.ts, section `sharedSet`). */
  static create(options: { db: Db; profile: CloudProfile; sharedSet: SharedSet; tokens: TokenService }): TenancyService {
    return new TenancyService(options.db, options.profile, options.sharedSet, options.tokens);
  }

  /** The warehouse server of a workspace name in this cloud (what the provisioner connects to). */
  warehouseServerOf(workspace: string): string {
    const synapse = this.profile.sqlSuffixes.find((s) => s.includes('azuresynapse')) ?? this.profile.sqlSuffixes[0]!;
    return `${workspace}${synapse}`;
  }

  /** The SVC_* shared set's resources, as (kind, key, settings) to reserve for the default tenant. */
  private envResources(): Array<{ kind: ResourceKind; key: string; settings: Settings }> {
    const e = this.envSet;
    const out: Array<{ kind: ResourceKind; key: string; settings: Settings }> = [];
    const add = (kind: ResourceKind, make: () => { key: string; settings: Settings }) => {
      try {
        out.push({ kind, ...make() });
      } catch {
        /* a setting the cloud refuses is refused again where it is used */
      }
    };
    if (e.platformWorkspaceId)
      add('platform-workspace', () => ({
        key: platformWorkspaceKey(e.platformWorkspaceId!, 'SVC_DEFAULT_PLATFORM_WORKSPACE'),
        settings: {},
      }));
    if (e.kqlClusterUri)
      add('kql-cluster', () => {
        const a = addressOf(this.profile, e.kqlClusterUri!, 'SVC_KQL_CLUSTER_URI');
        return { key: a.key, settings: { address: a.url, resourceId: e.kqlClusterResourceId, location: e.kqlLocation } };
      });
    if (e.searchService)
      add('search-service', () => {
        const a = addressOf(this.profile, e.searchService!, 'SVC_SEARCH_SERVICE');
        return { key: a.key, settings: { address: a.url } };
      });
    const server = e.warehouseServer ?? (e.warehouseWorkspace ? this.warehouseServerOf(e.warehouseWorkspace) : undefined);
    if (server)
      add('warehouse', () => ({
        key: addressOf(this.profile, server, 'SVC_WAREHOUSE_SERVER').key,
        settings: { address: server, workspace: e.warehouseWorkspace, database: e.warehouseDatabase },
      }));
    if (e.lakeAccount)
      add('lake', () => {
        const a = addressOf(this.profile, e.lakeAccount!, 'SVC_LAKE_ACCOUNT');
        return { key: a.key, settings: { address: e.lakeAccount!, container: e.lakeContainer } };
      });
    return out;
  }

  /**
   * At start: the SVC_* shared set is the default tenant's (unless an operator gave a resource to another tenant). A
   * target reserved so by an earlier start whose setting has changed since is released (the sandbox's addresses change
   * at every start); a platform workspace stays, since the tenant's workspaces may be bound to it.
   */
  async reserveDefaults(): Promise<void> {
    const current = this.envResources();
    const stale = await this.db
      .selectFrom('tenant_resources')
      .select(['kind', 'resource'])
      .where('tenant_id', '=', DEFAULT_TENANT)
      .where('assigned_by', '=', ENV_ASSIGNER)
      .where('kind', '<>', 'platform-workspace')
      .execute();
    for (const r of stale.filter((x) => !current.some((c) => c.kind === x.kind && c.key === x.resource))) {
      await this.db
        .deleteFrom('tenant_resources')
        .where('kind', '=', r.kind)
        .where('resource', '=', r.resource)
        .where('assigned_by', '=', ENV_ASSIGNER)
        .execute();
    }
    for (const r of current) {
      await this.db
        .insertInto('tenant_resources')
        .values({
          id: randomUUID(),
          kind: r.kind,
          resource: r.key,
          tenant_id: DEFAULT_TENANT,
          settings: JSON.stringify(r.settings),
          assigned_by: ENV_ASSIGNER,
        })
        .onConflict((oc) => oc.columns(['kind', 'resource']).doNothing())
        .execute();
    }
  }

  /**
   * In the sandbox: its service principals' app registrations, each with the vault secret `<name>-secret`, are the
   * default tenant's to rotate (unless an operator gave one to another tenant), so the console's secrets page works.
   */
  async reserveApplications(apps: Array<{ clientId: string; vaultSecretName: string }>, by: string): Promise<void> {
    for (const app of apps) {
      for (const [kind, resource, settings] of [
        ['application', app.clientId.toLowerCase(), { vaultSecretName: app.vaultSecretName.toLowerCase() }],
        ['vault-secret', app.vaultSecretName.toLowerCase(), {}],
      ] as const) {
        await this.db
          .insertInto('tenant_resources')
          .values({ id: randomUUID(), kind, resource, tenant_id: DEFAULT_TENANT, settings: JSON.stringify(settings), assigned_by: by })
          .onConflict((oc) => oc.columns(['kind', 'resource']).doNothing())
          .execute();
      }
    }
  }

  // ---- The operator's view ----

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

  /** The tenant's assignments of one kind (or every kind), oldest first; the first of each kind is its default. */
  async assignments(tenantId: string, kinds?: readonly ResourceKind[]): Promise<Assignment[]> {
    await this.getTenant(tenantId);
    let q = this.db.selectFrom('tenant_resources').selectAll().where('tenant_id', '=', tenantId);
    if (kinds) q = q.where('kind', 'in', [...kinds]);
    const rows = await q.orderBy('created_at').orderBy('id').execute();
    const defaults = this.defaultsOf(tenantId, rows);
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      resource: r.resource,
      tenantId: r.tenant_id,
      settings: r.settings,
      isDefault: defaults.get(r.kind)?.id === r.id,
      assignedBy: r.assigned_by,
      assignedAt: r.created_at.toISOString(),
    }));
  }

  /** Assigns a resource to a tenant; the same tenant again is a no-op, another tenant's is a conflict. */
  async assign(
    operator: Caller,
    tenantId: string,
    kind: ResourceKind,
    key: string,
    settings: Settings,
  ): Promise<{ assignment: Assignment; created: boolean }> {
    await this.getTenant(tenantId);
    const inserted = await this.db
      .insertInto('tenant_resources')
      .values({
        id: randomUUID(),
        kind,
        resource: key,
        tenant_id: tenantId,
        settings: JSON.stringify(settings),
        assigned_by: operator.userName,
      })
      .onConflict((oc) => oc.columns(['kind', 'resource']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const row = await this.db
      .selectFrom('tenant_resources')
      .select(['id', 'tenant_id'])
      .where('kind', '=', kind)
      .where('resource', '=', key)
      .executeTakeFirstOrThrow();
    if (row.tenant_id !== tenantId) {
      throw new ConflictError(
        `${KIND_NAMES[kind]} '${key}' is assigned to tenant '${row.tenant_id}'; unassign it there first`,
        'resource_assigned',
        kind === 'platform-workspace' ? 'platformWorkspaceId' : 'address',
      );
    }
    const assignment = (await this.assignments(tenantId, [kind])).find((a) => a.id === row.id)!;
    return { assignment, created: Boolean(inserted) };
  }

  /** Assigns a platform workspace (and with it its reporting group). */
  assignPlatformWorkspace(operator: Caller, tenantId: string, platformWorkspaceId: string) {
    return this.assign(operator, tenantId, 'platform-workspace', platformWorkspaceKey(platformWorkspaceId, 'platformWorkspaceId'), {});
  }

  /** Assigns an install target; its address must be under the cloud's suffixes, and a warehouse names its workspace and pool. */
  assignTarget(operator: Caller, tenantId: string, input: TargetInput) {
    const { url, key } = addressOf(this.profile, input.address, 'address');
    if (input.kind === 'warehouse' && (!input.workspace || !input.database)) {
      throw new InputError(
        'body/workspace and body/database (the Synapse workspace and its dedicated pool) are required for a warehouse',
        input.workspace ? 'database' : 'workspace',
      );
    }
    const address = input.kind === 'warehouse' || input.kind === 'lake' ? key : url;
    const settings: TargetSettings = {
      address,
      resourceId: input.resourceId,
      location: input.location,
      workspace: input.workspace,
      database: input.database,
      container: input.container,
    };
    return this.assign(operator, tenantId, input.kind, key, JSON.parse(JSON.stringify(settings)) as TargetSettings);
  }

  /**
   * Assigns an app registration (by client id) whose secrets the tenant's admins may rotate with the service's
   * identity, and the vault secret its rotations write to: both become the tenant's alone.
   */
  async assignApplication(operator: Caller, tenantId: string, input: { clientId: string; vaultSecretName?: string }) {
    const clientId = platformWorkspaceKey(input.clientId, 'clientId');
    const secret = input.vaultSecretName?.toLowerCase();
    if (secret) {
      const holder = await this.db
        .selectFrom('tenant_resources')
        .select('tenant_id')
        .where('kind', '=', 'vault-secret')
        .where('resource', '=', secret)
        .executeTakeFirst();
      if (holder && holder.tenant_id !== tenantId)
        throw new ConflictError(
          `Vault secret '${input.vaultSecretName}' is assigned to tenant '${holder.tenant_id}'; unassign it there first`,
          'resource_assigned',
          'vaultSecretName',
        );
    }
    const result = await this.assign(operator, tenantId, 'application', clientId, secret ? { vaultSecretName: secret } : {});
    if (secret) {
      await this.assign(operator, tenantId, 'vault-secret', secret, {});
      if ((result.assignment.settings as ApplicationSettings).vaultSecretName !== secret) {
        await this.db
          .updateTable('tenant_resources')
          .set({ settings: JSON.stringify({ vaultSecretName: secret }) })
          .where('kind', '=', 'application')
          .where('resource', '=', clientId)
          .execute();
        result.assignment.settings = { vaultSecretName: secret };
      }
    }
    return result;
  }

  /** Takes an application from a tenant, with the vault secret assigned with it. */
  async unassignApplication(tenantId: string, clientId: string): Promise<void> {
    await this.getTenant(tenantId);
    const gone = await this.db
      .deleteFrom('tenant_resources')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', 'application')
      .where('resource', '=', clientId.toLowerCase())
      .returning('settings')
      .executeTakeFirst();
    if (!gone) throw new NotFoundError('Application', clientId);
    const secret = (gone.settings as ApplicationSettings | null)?.vaultSecretName;
    if (secret)
      await this.db
        .deleteFrom('tenant_resources')
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'vault-secret')
        .where('resource', '=', secret)
        .execute();
  }

  /**
   * 404 unless the app registration (and the vault secret, when named) is the caller's tenant's: a credential is
   * registered, rotated and rolled back only on those (an operator reaches every one).
   */
  async requireApplication(caller: Caller, clientId: string, vaultSecretName?: string): Promise<void> {
    if (hasScope(caller.scopes, 'operator')) return;
    if (!(await this.owns(caller.tenantId, 'application', clientId))) throw new NotFoundError('Application', clientId);
    if (vaultSecretName) await this.requireVaultSecret(caller, vaultSecretName);
  }

  /** 404 unless the vault secret is the caller's tenant's (an operator reaches every one). */
  async requireVaultSecret(caller: Caller, name: string): Promise<void> {
    if (hasScope(caller.scopes, 'operator')) return;
    if (!(await this.owns(caller.tenantId, 'vault-secret', name))) throw new NotFoundError('Vault secret', name);
  }

  /** Takes an install target from a tenant by its assignment id. */
  async unassignTarget(tenantId: string, id: string): Promise<void> {
    await this.getTenant(tenantId);
    const gone = await this.db
      .deleteFrom('tenant_resources')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('kind', 'in', [...TARGET_KINDS])
      .executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw new NotFoundError('Target', id);
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

  /**
   * Takes a resource from a tenant. A platform workspace's bindings in that tenant's workspaces are cleared, so
   * nothing keeps reaching it; the items and reports in it are left as they are.
   */
  async unassign(tenantId: string, kind: ResourceKind, key: string): Promise<{ unboundWorkspaces: number }> {
    await this.getTenant(tenantId);
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('tenant_resources')
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', kind)
        .where('resource', '=', key)
        .returning('resource')
        .executeTakeFirst();
      if (!gone) throw new NotFoundError(KIND_NAMES[kind], key);
      if (kind !== 'platform-workspace') return { unboundWorkspaces: 0 };
      const unbound = await trx
        .updateTable('workspaces')
        .set({ platform_workspace_id: null, updated_at: new Date().toISOString() })
        .where('tenant_id', '=', tenantId)
        .where((eb) => eb(eb.fn('lower', ['platform_workspace_id']), '=', gone.resource))
        .executeTakeFirst();
      return { unboundWorkspaces: Number(unbound.numUpdatedRows ?? 0) };
    });
  }

  // ---- The checks every tenant-facing path makes ----

  /** The default of each kind: for the default tenant its SVC_* setting's resource, for another the first assigned. */
  private defaultsOf(tenantId: string, rows: Row[]): Map<ResourceKind, Row> {
    const out = new Map<ResourceKind, Row>();
    if (tenantId === DEFAULT_TENANT) {
      const envKeys = new Map(this.envResources().map((r) => [r.kind, r.key]));
      for (const r of rows) if (envKeys.get(r.kind) === r.resource) out.set(r.kind, r);
      return out;
    }
    // Applications and vault secrets have no default: a credential names its own.
    for (const r of rows) if (!out.has(r.kind) && r.kind !== 'application' && r.kind !== 'vault-secret') out.set(r.kind, r);
    return out;
  }

  /** Whether the platform workspace is assigned to the tenant. */
  async owns(tenantId: string, kind: ResourceKind, key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('tenant_resources')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .where('resource', '=', key.toLowerCase())
      .executeTakeFirst();
    return Boolean(row);
  }

  /** 404 unless the platform workspace is the caller's tenant's (an operator reaches every one). */
  async requirePlatformWorkspace(caller: Caller, platformWorkspaceId: string, field = 'workspaceId'): Promise<string> {
    const key = platformWorkspaceKey(platformWorkspaceId, field);
    if (hasScope(caller.scopes, 'operator') || (await this.owns(caller.tenantId, 'platform-workspace', key))) return platformWorkspaceId;
    throw new NotFoundError('Platform workspace', platformWorkspaceId);
  }

  /**
   * Checks a dedicated install's targetOverrides against the tenant's assignments: every platform workspace and
   * address must be the tenant's. `strict` (when the install is accepted): 404 naming the first one that is not, as
   * for an unknown id. Otherwise (when a job runs, later) the ones no longer held are listed, so the caller leaves them
   * unset rather than falling back to anything else. The settings of the assigned KQL cluster come back with it.
   */
  async checkOverrides(
    tenantId: string,
    overrides: TargetOverrides,
    strict: boolean,
  ): Promise<{ unheld: CheckedField[]; kql?: TargetSettings }> {
    const checks: Array<{ field: CheckedField; kind: ResourceKind; key: string }> = [];
    if (overrides.platformWorkspaceId)
      checks.push({
        field: 'platformWorkspaceId',
        kind: 'platform-workspace',
        key: platformWorkspaceKey(overrides.platformWorkspaceId, 'targetOverrides.platformWorkspaceId'),
      });
    const address = (field: CheckedField, kind: TargetKind, value?: string) => {
      if (value) checks.push({ field, kind, key: addressOf(this.profile, value, `targetOverrides.${field}`).key });
    };
    address('kqlClusterUri', 'kql-cluster', overrides.kqlClusterUri);
    address('searchService', 'search-service', overrides.searchService);
    address(
      'warehouseServer',
      'warehouse',
      overrides.warehouseServer ?? (overrides.warehouseWorkspace ? this.warehouseServerOf(overrides.warehouseWorkspace) : undefined),
    );
    address('lakeAccount', 'lake', overrides.lakeAccount);
    const rows = checks.length
      ? await this.db
          .selectFrom('tenant_resources')
          .select(['kind', 'resource', 'settings'])
          .where('tenant_id', '=', tenantId)
          .where((eb) => eb.or(checks.map((c) => eb.and([eb('kind', '=', c.kind), eb('resource', '=', c.key)]))))
          .execute()
      : [];
    const held = (c: { kind: string; key: string }) => rows.find((r) => r.kind === c.kind && r.resource === c.key);
    const unheld = checks.filter((c) => !held(c));
    if (strict && unheld[0]) {
      const c = unheld[0];
      throw new NotFoundError(KIND_NAMES[c.kind], c.field === 'platformWorkspaceId' ? overrides.platformWorkspaceId! : c.key);
    }
    const kql = checks.find((c) => c.kind === 'kql-cluster');
    return { unheld: unheld.map((c) => c.field), kql: kql ? (held(kql)?.settings as TargetSettings | undefined) : undefined };
  }

  /**
   * The tenant's shared set. Its platform workspace is the workspace's binding, or the tenant's default when unbound;
   * a binding to a platform workspace the tenant no longer holds resolves to none (the gate), never to a fallback.
   */
  async sharedSet(tenantId: string, binding: string | null = null): Promise<SharedSet> {
    const rows = await this.db
      .selectFrom('tenant_resources')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // The default tenant's targets are its SVC_* settings, exactly as written, while they are still its own.
    const set = tenantId === DEFAULT_TENANT ? this.defaultTenantSet(rows) : sharedSetOf(this.defaultsOf(tenantId, rows));
    if (!binding) return set;
    const held = rows.some((r) => r.kind === 'platform-workspace' && r.resource === binding.toLowerCase());
    return { ...set, platformWorkspaceId: held ? binding : undefined };
  }

  /** The default tenant's shared set: each SVC_* setting while its resource is still the default tenant's. */
  private defaultTenantSet(rows: Row[]): SharedSet {
    const held = new Set(rows.map((r) => `${r.kind} ${r.resource}`));
    const own = new Set(
      this.envResources()
        .filter((r) => held.has(`${r.kind} ${r.key}`))
        .map((r) => r.kind),
    );
    const e = this.envSet;
    return {
      ...(own.has('platform-workspace') ? { platformWorkspaceId: e.platformWorkspaceId } : {}),
      ...(own.has('kql-cluster')
        ? { kqlClusterUri: e.kqlClusterUri, kqlClusterResourceId: e.kqlClusterResourceId, kqlLocation: e.kqlLocation }
        : {}),
      ...(own.has('search-service') ? { searchService: e.searchService } : {}),
      ...(own.has('warehouse')
        ? {
            warehouseWorkspace: e.warehouseWorkspace,
            warehousePool: e.warehousePool,
            warehouseServer: e.warehouseServer,
            warehouseDatabase: e.warehouseDatabase,
          }
        : {}),
      ...(own.has('lake') ? { lakeAccount: e.lakeAccount, lakeContainer: e.lakeContainer } : {}),
    };
  }
}
