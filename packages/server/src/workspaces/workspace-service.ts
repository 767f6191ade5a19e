import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { StoreRow } from '../store/schema.js';
import { platformWorkspaceKey } from '../tenancy/resources.js';
import type { AccessService } from '../access/access-service.js';
import { RoleAssignmentService } from '../access/role-assignment-service.js';
import type { RoleSource, WorkspaceRole } from '../access/roles.js';

/** A workspace as the API shows it. */
export interface Workspace {
  id: string;
  name: string;
  description: string;
  platformWorkspaceId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A workspace as its caller sees it: with the caller's effective role on it. */
export interface VisibleWorkspace extends Workspace {
  role: WorkspaceRole;
  roleSource: RoleSource;
}

const COLUMNS = ['id', 'name', 'description', 'platform_workspace_id', 'created_at', 'updated_at'] as const;

type Row = StoreRow<'workspaces', (typeof COLUMNS)[number]>;

function toWorkspace(r: Row): Workspace {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    platformWorkspaceId: r.platform_workspace_id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/**
 * Turns the unique index on (tenant, lower(name)) refusing a write into 409 duplicate_workspace naming the field; any
 * other failure passes through. The index, not a read before the write, decides: two concurrent creates cannot both win.
 */
function refuseDuplicateName(name: string) {
  return (err: unknown): never => {
    const e = err as { code?: string; constraint?: string; message?: string };
    if (e?.code === '23505' && (e.constraint === 'workspaces_tenant_name' || e.message?.includes('workspaces_tenant_name')))
      throw new ConflictError(
        `A workspace named '${name}' already exists in this tenant (names are compared ignoring case); choose another name`,
        'duplicate_workspace',
        'name',
      );
    throw err;
  };
}

/** Workspaces of the caller's tenant; another tenant's workspace is indistinguishable from an unknown one. */
export class WorkspaceService {
  private constructor(
    private readonly db: Db,
    private readonly tenancy: TenancyService,
    private readonly access: AccessService,
  ) {}

  static create(db: Db, tenancy: TenancyService, access: AccessService): WorkspaceService {
    return new WorkspaceService(db, tenancy, access);
  }

  /**
   * Creates a workspace whose creator is its Admin (the assignment is written in the same transaction); a token
   * limited to workspaces cannot create one (it could never reach it).
   */
  async create(caller: Caller, input: { name: string; description?: string }): Promise<VisibleWorkspace> {
    if (caller.workspaceIds !== undefined) {
      throw new ForbiddenError('A token limited to workspaces cannot create a workspace', 'workspace_limited_token');
    }
    const name = input.name.trim();
    const row = await this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('workspaces')
        .values({
          id: randomUUID(),
          tenant_id: caller.tenantId,
          name,
          description: input.description ?? '',
          platform_workspace_id: null,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow()
        .catch(refuseDuplicateName(name));
      await RoleAssignmentService.grantCreator(trx, caller, created.id);
      return created;
    });
    return this.withRole(caller, toWorkspace(row));
  }

  /** The workspaces the caller may see, each with its role on it. */
  async list(caller: Caller, page: PageRequest) {
    let q = this.db
      .selectFrom('workspaces')
      .select(COLUMNS)
      .where('tenant_id', '=', caller.tenantId)
      .where(this.access.visible(caller, 'workspaces.id'))
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    if (page.cursor) q = q.where(afterCursor(page.cursor));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    const roles = await this.access.rolesOn(
      caller,
      rows.map((r) => r.id),
    );
    const workspaces: VisibleWorkspace[] = [];
    for (const r of rows) {
      const held = roles.get(r.id);
      // A role removed between the two reads hides the workspace, as the next list would.
      if (held) workspaces.push({ ...toWorkspace(r), role: held.role, roleSource: held.source });
    }
    return { workspaces, nextCursor };
  }

  /** A condition on a workspace id column keeping the rows of workspaces the caller may see (lists spanning workspaces). */
  visible(caller: Caller, column: string) {
    return this.access.visible(caller, column);
  }

  /** The workspace with the caller's role on it; 404 when the caller may not see it. */
  async view(caller: Caller, id: string): Promise<VisibleWorkspace> {
    return this.withRole(caller, await this.get(caller, id));
  }

  private async withRole(caller: Caller, ws: Workspace): Promise<VisibleWorkspace> {
    const held = await this.access.roleOn(caller, ws.id);
    if (!held) throw new NotFoundError('Workspace', ws.id);
    return { ...ws, role: held.role, roleSource: held.source };
  }

  /** The workspace, or 404 when unknown or of another tenant. */
  async get(caller: Caller, id: string): Promise<Workspace> {
    const row = await this.db
      .selectFrom('workspaces')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Workspace', id);
    return toWorkspace(row);
  }

  /**
   * Renames or redescribes; binding a platform workspace needs the admin scope and one assigned to the caller's
   * tenant (another tenant's, or an unknown one, is 404).
   */
  async update(
    caller: Caller,
    id: string,
    patch: { name?: string; description?: string; platformWorkspaceId?: string | null },
  ): Promise<VisibleWorkspace> {
    if (patch.platformWorkspaceId !== undefined && !hasScope(caller.scopes, 'admin')) {
      throw new ForbiddenError("Binding a platform workspace needs the 'admin' scope", 'missing_scope');
    }
    if (patch.platformWorkspaceId) {
      await this.get(caller, id);
      if (
        !(await this.tenancy.owns(
          caller.tenantId,
          'platform-workspace',
          platformWorkspaceKey(patch.platformWorkspaceId, 'platformWorkspaceId'),
        ))
      ) {
        throw new NotFoundError('Platform workspace', patch.platformWorkspaceId);
      }
    }
    const row = await this.db
      .updateTable('workspaces')
      .set({
        ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.platformWorkspaceId !== undefined ? { platform_workspace_id: patch.platformWorkspaceId } : {}),
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .where('tenant_id', '=', caller.tenantId)
      .returning(COLUMNS)
      .executeTakeFirst()
      .catch(refuseDuplicateName(patch.name?.trim() ?? ''));
    if (!row) throw new NotFoundError('Workspace', id);
    return this.withRole(caller, toWorkspace(row));
  }

  /**
   * Deletes the workspace and its items; refused while a job in it is running, and (409 workspace_has_apps, naming
   * them) while apps are installed in it, unless `force`: then one uninstall job of every installed app is started,
   * whose end deletes the workspace, and its id is answered.
   */
  async delete(caller: Caller, id: string, opts: { force?: boolean; purgeData?: boolean } = {}): Promise<{ jobId: string } | undefined> {
    await this.get(caller, id);
    if (this.busy && (await this.busy(caller.tenantId, id))) {
      throw new ConflictError(
        'A job (an install, upgrade, uninstall, apply or drift check) is running in this workspace; wait for it to finish',
        'workspace_busy',
      );
    }
    const apps = this.uninstaller ? await this.uninstaller.installedApps(caller.tenantId, id) : [];
    if (apps.length && !opts.force)
      throw new ConflictError(
        `The workspace has installed apps: ${apps.join(', ')}. Uninstall them first (DELETE /api/workspaces/${id}/apps/{appId}), or pass force=true to uninstall them and delete the workspace`,
        'workspace_has_apps',
      );
    if (apps.length) return this.uninstaller!.uninstallWorkspace(caller, id, { purgeData: opts.purgeData });
    await this.db.deleteFrom('workspaces').where('id', '=', id).where('tenant_id', '=', caller.tenantId).execute();
    return undefined;
  }

  /** Set by the install domain: whether a workspace has a running install. */
  busy?: (tenantId: string, workspaceId: string) => Promise<boolean>;

  /** Set by the lifecycle: the apps installed in a workspace, and the job that uninstalls them all before it goes. */
  uninstaller?: WorkspaceUninstaller;
}

/** What deleting a workspace asks of the lifecycle. */
export interface WorkspaceUninstaller {
  installedApps(tenantId: string, workspaceId: string): Promise<string[]>;
  uninstallWorkspace(caller: Caller, workspaceId: string, opts: { purgeData?: boolean }): Promise<{ jobId: string }>;
}
