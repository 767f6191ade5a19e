import type { Caller } from '../auth/caller.js';
import type { TokenService } from '../auth/token-service.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { TargetOverrides } from '../install/types.js';
import type { Db } from '../store/db.js';
import type { PageRequest } from '../store/paging.js';
import { ResourceAssignments, type TargetInput } from './assignments.js';
import { OwnershipChecks } from './ownership-checks.js';
import type { ResourceKind } from './resources.js';
import { type NativeHosts, type SharedSet, SharedSets } from './shared-set.js';
import { TenantDirectory } from './tenants.js';

/**
 * Which tenant may use which backing resource. Every platform workspace, reporting group and install target the
 * service's identity can reach is used only by the tenant it is assigned to; another tenant's resource is not found.
 * Composes the tenant directory, the resource assignments, the shared sets and the ownership checks.
 */
export class TenancyService {
  private constructor(
    private readonly tenants: TenantDirectory,
    private readonly resources: ResourceAssignments,
    private readonly sharedSets: SharedSets,
    private readonly checks: OwnershipChecks,
  ) {}

  /** The service; `sharedSet` is the default tenant's, from the SVC_* settings (config.ts, section `sharedSet`). */
  static create(options: {
    db: Db;
    profile: CloudProfile;
    sharedSet: SharedSet;
    native?: NativeHosts;
    tokens: TokenService;
  }): TenancyService {
    const { db, profile } = options;
    const tenants = TenantDirectory.create({ db, tokens: options.tokens });
    const sharedSets = SharedSets.create({ db, profile, envSet: options.sharedSet, native: options.native });
    return new TenancyService(
      tenants,
      ResourceAssignments.create({ db, profile, tenants, sharedSets }),
      sharedSets,
      OwnershipChecks.create({ db, profile, sharedSets }),
    );
  }

  // ---- Shared sets (shared-set.ts) ----

  /** The warehouse server of a workspace name in this cloud (what the provisioner connects to). */
  warehouseServerOf(workspace: string): string {
    return this.sharedSets.warehouseServerOf(workspace);
  }

  /** At start: reserves the SVC_* shared set for the default tenant. */
  reserveDefaults(): Promise<void> {
    return this.sharedSets.reserveDefaults();
  }

  /** The tenant's shared set, with the workspace's platform workspace binding when it is still the tenant's. */
  sharedSet(tenantId: string, binding: string | null = null): Promise<SharedSet> {
    return this.sharedSets.sharedSet(tenantId, binding);
  }

  // ---- Tenants and admin tokens (tenants.ts) ----

  /** A page of tenants. */
  listTenants(page: PageRequest) {
    return this.tenants.listTenants(page);
  }

  /** One tenant; 404 when unknown. */
  getTenant(tenantId: string) {
    return this.tenants.getTenant(tenantId);
  }

  /** Creates a tenant; 409 when the id is taken. */
  createTenant(input: { id: string; name: string }) {
    return this.tenants.createTenant(input);
  }

  /** A token with every tenant scope for the tenant's first admin; the secret is shown once. */
  mintAdminToken(tenantId: string, expiresInDays?: number) {
    return this.tenants.mintAdminToken(tenantId, expiresInDays);
  }

  // ---- Resource assignments (assignments.ts) ----

  /** In the sandbox: reserves its app registrations and their vault secrets for the default tenant. */
  reserveApplications(apps: Array<{ clientId: string; vaultSecretName: string }>, by: string): Promise<void> {
    return this.resources.reserveApplications(apps, by);
  }

  /** The tenant's assignments of one kind (or every kind), oldest first. */
  assignments(tenantId: string, kinds?: readonly ResourceKind[]) {
    return this.resources.assignments(tenantId, kinds);
  }

  /** Assigns a platform workspace (and with it its reporting group). */
  assignPlatformWorkspace(operator: Caller, tenantId: string, platformWorkspaceId: string) {
    return this.resources.assignPlatformWorkspace(operator, tenantId, platformWorkspaceId);
  }

  /** Assigns an install target. */
  assignTarget(operator: Caller, tenantId: string, input: TargetInput) {
    return this.resources.assignTarget(operator, tenantId, input);
  }

  /** Assigns an app registration and the vault secret its rotations write to. */
  assignApplication(operator: Caller, tenantId: string, input: { clientId: string; vaultSecretName?: string }) {
    return this.resources.assignApplication(operator, tenantId, input);
  }

  /** Takes an application from a tenant, with the vault secret assigned with it. */
  unassignApplication(tenantId: string, clientId: string): Promise<void> {
    return this.resources.unassignApplication(tenantId, clientId);
  }

  /** Takes an install target from a tenant by its assignment id. */
  unassignTarget(tenantId: string, id: string): Promise<void> {
    return this.resources.unassignTarget(tenantId, id);
  }

  /** Takes a resource from a tenant, clearing a platform workspace's bindings. */
  unassign(tenantId: string, kind: ResourceKind, key: string) {
    return this.resources.unassign(tenantId, kind, key);
  }

  // ---- Ownership checks (ownership-checks.ts) ----

  /** Whether the resource is assigned to the tenant. */
  owns(tenantId: string, kind: ResourceKind, key: string): Promise<boolean> {
    return this.checks.owns(tenantId, kind, key);
  }

  /** 404 unless the platform workspace is the caller's tenant's (an operator reaches every one). */
  requirePlatformWorkspace(caller: Caller, platformWorkspaceId: string, field = 'workspaceId'): Promise<string> {
    return this.checks.requirePlatformWorkspace(caller, platformWorkspaceId, field);
  }

  /** 404 unless the app registration (and the vault secret, when named) is the caller's tenant's. */
  requireApplication(caller: Caller, clientId: string, vaultSecretName?: string): Promise<void> {
    return this.checks.requireApplication(caller, clientId, vaultSecretName);
  }

  /** 404 unless the vault secret is the caller's tenant's (an operator reaches every one). */
  requireVaultSecret(caller: Caller, name: string): Promise<void> {
    return this.checks.requireVaultSecret(caller, name);
  }

  /** Checks a dedicated install's targetOverrides against the tenant's assignments. */
  checkOverrides(tenantId: string, overrides: TargetOverrides, strict: boolean) {
    return this.checks.checkOverrides(tenantId, overrides, strict);
  }
}
