import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { DEFAULT_TENANT } from '../auth/token-service.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import {
  addressOf,
  lakeAddressOf,
  KIND_NAMES,
  platformWorkspaceKey,
  TARGET_KINDS,
  type ApplicationSettings,
  type ResourceKind,
  type ResourceSettings,
  type TargetKind,
  type TargetSettings,
} from './resources.js';
import type { SharedSets } from './shared-set.js';
import type { TenantDirectory } from './tenants.js';

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

/** One assignment of a backing resource to a tenant. */
export interface Assignment {
  id: string;
  kind: ResourceKind;
  /** The platform workspace id, or the target's host[:port]. */
  resource: string;
  tenantId: string;
  settings: ResourceSettings;
  /** The tenant's shared-mode choice of its kind (the first assigned; for the default tenant, the SVC_* setting). */
  isDefault: boolean;
  assignedBy: string | null;
  assignedAt: string;
}

/** Assigning backing resources to tenants and taking them back; each resource is one tenant's at most. */
export class ResourceAssignments {
  private constructor(
    private readonly db: Db,
    private readonly profile: CloudProfile,
    private readonly tenants: TenantDirectory,
    private readonly sharedSets: SharedSets,
  ) {}

  /** The assignments over the store; `tenants` answers 404 for an unknown tenant, `sharedSets` names each kind's default. */
  static create(options: { db: Db; profile: CloudProfile; tenants: TenantDirectory; sharedSets: SharedSets }): ResourceAssignments {
    return new ResourceAssignments(options.db, options.profile, options.tenants, options.sharedSets);
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

  /** The tenant's assignments of one kind (or every kind), oldest first; the first of each kind is its default. */
  async assignments(tenantId: string, kinds?: readonly ResourceKind[]): Promise<Assignment[]> {
    await this.tenants.getTenant(tenantId);
    let q = this.db.selectFrom('tenant_resources').selectAll().where('tenant_id', '=', tenantId);
    if (kinds) q = q.where('kind', 'in', [...kinds]);
    const rows = await q.orderBy('created_at').orderBy('id').execute();
    const defaults = this.sharedSets.defaultsOf(tenantId, rows);
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
    settings: ResourceSettings,
  ): Promise<{ assignment: Assignment; created: boolean }> {
    await this.tenants.getTenant(tenantId);
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
    const { url, key } = (input.kind === 'lake' ? lakeAddressOf : addressOf)(this.profile, input.address, 'address');
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
    await this.tenants.getTenant(tenantId);
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

  /** Takes an install target from a tenant by its assignment id. */
  async unassignTarget(tenantId: string, id: string): Promise<void> {
    await this.tenants.getTenant(tenantId);
    const gone = await this.db
      .deleteFrom('tenant_resources')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('kind', 'in', [...TARGET_KINDS])
      .executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw new NotFoundError('Target', id);
  }

  /**
   * Takes a resource from a tenant. A platform workspace's bindings in that tenant's workspaces are cleared, so
   * nothing keeps reaching it; the items and reports in it are left as they are.
   */
  async unassign(tenantId: string, kind: ResourceKind, key: string): Promise<{ unboundWorkspaces: number }> {
    await this.tenants.getTenant(tenantId);
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
}
