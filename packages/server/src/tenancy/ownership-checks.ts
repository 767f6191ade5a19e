import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { NotFoundError } from '../errors.js';
import type { TargetOverrides } from '../install/types.js';
import type { Db } from '../store/db.js';
import {
  addressOf,
  lakeAddressOf,
  KIND_NAMES,
  platformWorkspaceKey,
  type ResourceKind,
  type TargetKind,
  type TargetSettings,
} from './resources.js';
import type { SharedSets } from './shared-set.js';

/** The targetOverrides fields that name a resource the tenant must hold. */
export type CheckedField = 'platformWorkspaceId' | 'kqlClusterUri' | 'searchService' | 'warehouseServer' | 'lakeAccount';

/** The checks every tenant-facing path makes: a resource another tenant holds is not found. */
export class OwnershipChecks {
  private constructor(
    private readonly db: Db,
    private readonly profile: CloudProfile,
    private readonly sharedSets: SharedSets,
  ) {}

  /** The checks over the store; `sharedSets` names a warehouse workspace's server. */
  static create(options: { db: Db; profile: CloudProfile; sharedSets: SharedSets }): OwnershipChecks {
    return new OwnershipChecks(options.db, options.profile, options.sharedSets);
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
      overrides.warehouseServer ??
        (overrides.warehouseWorkspace ? this.sharedSets.warehouseServerOf(overrides.warehouseWorkspace) : undefined),
    );
    if (overrides.lakeAccount)
      checks.push({
        field: 'lakeAccount',
        kind: 'lake',
        key: lakeAddressOf(this.profile, overrides.lakeAccount, 'targetOverrides.lakeAccount').key,
      });
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
}
