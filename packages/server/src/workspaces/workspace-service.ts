import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { StoreRow } from '../store/schema.js';
import { platformWorkspaceKey } from '../tenancy/resources.js';

/** A workspace as the API shows it. */
export interface Workspace {
  id: string;
  name: string;
  description: string;
  platformWorkspaceId: string | null;
  createdAt: string;
  updatedAt: string;
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

/** Workspaces of the caller's tenant; another tenant's workspace is indistinguishable from an unknown one. */
export class WorkspaceService {
  private constructor(
    private readonly db: Db,
    private readonly tenancy: TenancyService,
  ) {}

  static create(db: Db, tenancy: TenancyService): WorkspaceService {
    return new WorkspaceService(db, tenancy);
  }

  async create(caller: Caller, input: { name: string; description?: string }): Promise<Workspace> {
    const row = await this.db
      .insertInto('workspaces')
      .values({
        id: randomUUID(),
        tenant_id: caller.tenantId,
        name: input.name.trim(),
        description: input.description ?? '',
        platform_workspace_id: null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toWorkspace(row);
  }

  async list(caller: Caller, page: PageRequest) {
    let q = this.db
      .selectFrom('workspaces')
      .select(COLUMNS)
      .where('tenant_id', '=', caller.tenantId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    if (page.cursor) q = q.where(afterCursor(page.cursor));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    return { workspaces: rows.map(toWorkspace), nextCursor };
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
  ): Promise<Workspace> {
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
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Workspace', id);
    return toWorkspace(row);
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
