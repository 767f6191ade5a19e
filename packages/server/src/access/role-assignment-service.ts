import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Caller } from '../auth/caller.js';
import { ConflictError, ForbiddenError, InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { Database } from '../store/schema.js';
import { GUID_PATTERN } from '../values.js';
import type { AccessService } from './access-service.js';
import { atLeast, managerOf, roleRequiredMessage, type EffectiveRole, type PrincipalType, type WorkspaceRole } from './roles.js';

/** A user or a group as the API shows it. */
export interface Principal {
  id: string;
  type: PrincipalType;
  displayName: string;
  email?: string;
}

/** One principal's role on one workspace. */
export interface RoleAssignment {
  id: string;
  workspaceId: string;
  principal: Principal;
  role: WorkspaceRole;
  createdAt: string;
  createdBy: string;
}

const GUID = new RegExp(GUID_PATTERN);
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

/** Lists, adds, changes and removes a workspace's role assignments (Member manages Contributors and Viewers, Admin all). */
export class RoleAssignmentService {
  private constructor(
    private readonly db: Db,
    private readonly access: AccessService,
  ) {}

  static create(db: Db, access: AccessService): RoleAssignmentService {
    return new RoleAssignmentService(db, access);
  }

  /** The workspace's assignments, oldest first (the route checked the caller may read it). */
  async list(caller: Caller, workspaceId: string, page: PageRequest) {
    let q = this.select(this.db, caller.tenantId)
      .where('a.workspace_id', '=', workspaceId)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .limit(page.limit + 1);
    if (page.cursor) q = q.where(afterCursor(page.cursor, 'a'));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    return { roleAssignments: rows.map(toAssignment), nextCursor };
  }

  /** Adds a principal's role; 409 conflict when it already has one on the workspace (change it instead). */
  async add(
    caller: Caller,
    workspaceId: string,
    input: { principal: { type: PrincipalType; id: string }; role: WorkspaceRole },
  ): Promise<RoleAssignment> {
    const held = await this.access.require(caller, workspaceId, 'Viewer');
    mayManage(held, input.role);
    const principalId = await this.principalId(caller, input.principal);
    const id = randomUUID();
    try {
      await this.db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, caller.tenantId, workspaceId);
        await trx
          .insertInto('workspace_role_assignments')
          .values({
            id,
            tenant_id: caller.tenantId,
            workspace_id: workspaceId,
            principal_type: input.principal.type,
            principal_id: principalId,
            role: input.role,
            created_by: caller.userId,
          })
          .execute();
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(
          `This ${input.principal.type.toLowerCase()} already has a role on the workspace; change it with PATCH instead`,
          'conflict',
          'principal.id',
        );
      throw err;
    }
    return this.get(caller.tenantId, workspaceId, id);
  }

  /** Changes an assignment's role; 409 last_admin when it would leave the workspace without an Admin. */
  async change(caller: Caller, workspaceId: string, assignmentId: string, role: WorkspaceRole): Promise<RoleAssignment> {
    const held = await this.access.require(caller, workspaceId, 'Viewer');
    await this.db.transaction().execute(async (trx) => {
      const current = await lockAssignment(trx, caller.tenantId, workspaceId, assignmentId);
      mayManage(held, current.role);
      mayManage(held, role);
      if (current.role === 'Admin' && role !== 'Admin') await keepAnAdmin(trx, workspaceId, 'demote');
      await trx.updateTable('workspace_role_assignments').set({ role }).where('id', '=', assignmentId).execute();
    });
    return this.get(caller.tenantId, workspaceId, assignmentId);
  }

  /** Removes an assignment; 409 last_admin for the workspace's last Admin. */
  async remove(caller: Caller, workspaceId: string, assignmentId: string): Promise<void> {
    const held = await this.access.require(caller, workspaceId, 'Viewer');
    await this.db.transaction().execute(async (trx) => {
      const current = await lockAssignment(trx, caller.tenantId, workspaceId, assignmentId);
      mayManage(held, current.role);
      if (current.role === 'Admin') await keepAnAdmin(trx, workspaceId, 'remove');
      await trx.deleteFrom('workspace_role_assignments').where('id', '=', assignmentId).execute();
    });
  }

  /** Writes the creator's Admin assignment inside the transaction that creates the workspace. */
  static async grantCreator(trx: Transaction<Database>, caller: Caller, workspaceId: string): Promise<void> {
    await trx
      .insertInto('workspace_role_assignments')
      .values({
        id: randomUUID(),
        tenant_id: caller.tenantId,
        workspace_id: workspaceId,
        principal_type: 'User',
        principal_id: caller.userId,
        role: 'Admin',
        created_by: caller.userId,
      })
      .execute();
  }

  private async get(tenantId: string, workspaceId: string, id: string): Promise<RoleAssignment> {
    const row = await this.select(this.db, tenantId).where('a.workspace_id', '=', workspaceId).where('a.id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError('Role assignment', id);
    return toAssignment(row);
  }

  /** The stored id of a principal: a user of the caller's tenant, or a group's GUID (lowercase); 400 naming principal.id otherwise. */
  private async principalId(caller: Caller, principal: { type: PrincipalType; id: string }): Promise<string> {
    if (principal.type === 'Group') {
      if (!GUID.test(principal.id)) throw new InputError('body/principal/id of a group must be its object id (a GUID)', 'principal.id');
      return principal.id.toLowerCase();
    }
    const user = await this.db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', principal.id)
      .executeTakeFirst();
    if (!user) throw new InputError(`body/principal/id '${principal.id}' is not a user of the tenant`, 'principal.id');
    return user.id;
  }

  private select(db: Db | Transaction<Database>, tenantId: string) {
    return db
      .selectFrom('workspace_role_assignments as a')
      .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'a.principal_id').on('a.principal_type', '=', 'User'))
      .select([
        'a.id',
        'a.workspace_id',
        'a.principal_type',
        'a.principal_id',
        'a.role',
        'a.created_at',
        'a.created_by',
        'u.display_name',
        'u.email',
      ])
      .where('a.tenant_id', '=', tenantId);
  }
}

type AssignmentRow = {
  id: string;
  workspace_id: string;
  principal_type: PrincipalType;
  principal_id: string;
  role: WorkspaceRole;
  created_at: Date;
  created_by: string;
  display_name: string | null;
  email: string | null;
};

function toAssignment(r: AssignmentRow): RoleAssignment {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    principal: {
      id: r.principal_id,
      type: r.principal_type,
      // A group is known by its id only (the id token carries ids, not names).
      displayName: r.display_name ?? r.principal_id,
      ...(r.email ? { email: r.email } : {}),
    },
    role: r.role,
    createdAt: r.created_at.toISOString(),
    createdBy: r.created_by,
  };
}

/** 403 workspace_role_required unless the caller's role may manage assignments of `role`. */
function mayManage(held: EffectiveRole, role: WorkspaceRole): void {
  const needed = managerOf(role);
  if (!atLeast(held.role, needed)) throw new ForbiddenError(roleRequiredMessage(needed, held.role), 'workspace_role_required');
}

/** Serializes assignment changes of one workspace, so two removals cannot each leave "the other" Admin. */
async function lockWorkspace(trx: Transaction<Database>, tenantId: string, workspaceId: string): Promise<void> {
  const ws = await trx
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!ws) throw new NotFoundError('Workspace', workspaceId);
}

async function lockAssignment(trx: Transaction<Database>, tenantId: string, workspaceId: string, id: string) {
  await lockWorkspace(trx, tenantId, workspaceId);
  const row = await trx
    .selectFrom('workspace_role_assignments')
    .select(['id', 'role'])
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('Role assignment', id);
  return row;
}

/** 409 last_admin when the workspace holds no other Admin assignment. */
async function keepAnAdmin(trx: Transaction<Database>, workspaceId: string, action: 'remove' | 'demote'): Promise<void> {
  const { n } = await trx
    .selectFrom('workspace_role_assignments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'Admin')
    .executeTakeFirstOrThrow();
  if (Number(n) <= 1)
    throw new ConflictError(`This is the workspace's last Admin assignment: add another Admin before you ${action} it`, 'last_admin');
}
