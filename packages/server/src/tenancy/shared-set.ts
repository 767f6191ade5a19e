import { randomUUID } from 'node:crypto';
import { DEFAULT_TENANT } from '../auth/token-service.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { Db } from '../store/db.js';
import type { StoreRow } from '../store/schema.js';
import {
  addressOf,
  lakeAddressOf,
  platformWorkspaceKey,
  type ResourceKind,
  type ResourceSettings,
  type TargetKind,
  type TargetSettings,
} from './resources.js';

/**
 * The deployment's Azure-native services (SVC_SYNAPSE_SPARK_POOL and the others, config/native.ts), the same for every
 * tenant: what an install creates in them is named under the tenant's platform workspace.
 */
export interface NativeHosts {
  sparkPool?: string;
  eventHubNamespace?: string;
  alertResourceGroup?: string;
  alertScope?: string;
  /** The Synapse workspace's serverless SQL pool (T-SQL host[:port]); absent: `<workspace>-ondemand` of the cloud's Synapse SQL suffix. */
  serverlessServer?: string;
}

/** The shared-mode targets of a tenant: what SVC_* settings are for the default tenant. */
export interface SharedSet extends NativeHosts {
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
 * The shared-mode targets of each tenant: for the default tenant its SVC_* settings (reserved for it at start), for
 * another the first resource of each kind assigned to it.
 */
export class SharedSets {
  private constructor(
    private readonly db: Db,
    private readonly profile: CloudProfile,
    private readonly envSet: SharedSet,
    private readonly native: NativeHosts,
  ) {}

  /** The shared sets; `envSet` is the default tenant's, from the SVC_* settings (config.ts, section `sharedSet`). */
  static create(options: { db: Db; profile: CloudProfile; envSet: SharedSet; native?: NativeHosts }): SharedSets {
    return new SharedSets(options.db, options.profile, options.envSet, options.native ?? {});
  }

  /** The warehouse server of a workspace name in this cloud (what the provisioner connects to). */
  warehouseServerOf(workspace: string): string {
    const synapse = this.profile.sqlSuffixes.find((s) => s.includes('azuresynapse')) ?? this.profile.sqlSuffixes[0]!;
    return `${workspace}${synapse}`;
  }

  /** The SVC_* shared set's resources, as (kind, key, settings) to reserve for the default tenant. */
  private envResources(): Array<{ kind: ResourceKind; key: string; settings: ResourceSettings }> {
    const e = this.envSet;
    const out: Array<{ kind: ResourceKind; key: string; settings: ResourceSettings }> = [];
    const add = (kind: ResourceKind, make: () => { key: string; settings: ResourceSettings }) => {
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
        const a = lakeAddressOf(this.profile, e.lakeAccount!, 'SVC_LAKE_ACCOUNT');
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

  /** The default of each kind: for the default tenant its SVC_* setting's resource, for another the first assigned. */
  defaultsOf(tenantId: string, rows: Row[]): Map<ResourceKind, Row> {
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
    const own = tenantId === DEFAULT_TENANT ? this.defaultTenantSet(rows) : sharedSetOf(this.defaultsOf(tenantId, rows));
    const set = { ...own, ...this.native };
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
