/**
 * Workspace roles, lowest first, with the data platform's names and meaning. Each role holds the rights of the roles
 * before it.
 */
export const WORKSPACE_ROLES = ['Viewer', 'Contributor', 'Member', 'Admin'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Who holds an assignment: a user of the tenant, or an identity-provider group id. */
export const PRINCIPAL_TYPES = ['User', 'Group'] as const;
export type PrincipalType = (typeof PRINCIPAL_TYPES)[number];

/** Where the caller's effective role on a workspace comes from. */
export type RoleSource = 'user' | 'group' | 'tenant-admin';

/** The caller's role on a workspace and where it comes from. */
export interface EffectiveRole {
  role: WorkspaceRole;
  source: RoleSource;
}

const rank = (r: WorkspaceRole) => WORKSPACE_ROLES.indexOf(r);

/** True when `role` holds the rights of `needed`. */
export function atLeast(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return rank(role) >= rank(needed);
}

/** True when the string names a role. */
export const isWorkspaceRole = (s: string): s is WorkspaceRole => (WORKSPACE_ROLES as readonly string[]).includes(s);

/** The highest of several effective roles (a direct user assignment wins a tie, as it is the more specific). */
export function highest(roles: EffectiveRole[]): EffectiveRole | undefined {
  let best: EffectiveRole | undefined;
  for (const r of roles) {
    if (!best || rank(r.role) > rank(best.role) || (rank(r.role) === rank(best.role) && r.source === 'user')) best = r;
  }
  return best;
}

/** The role that may add, change or remove an assignment of `role`: Member manages Contributors and Viewers, Admin all. */
export function managerOf(role: WorkspaceRole): WorkspaceRole {
  return atLeast(role, 'Member') ? 'Admin' : 'Member';
}

/**
 * The rights table: what each role adds to the one below it. Routes name the role (config.role); this table is what
 * the README's roles section and the console's explanations are derived from.
 */
export const ROLE_RIGHTS: Record<WorkspaceRole, string> = {
  Viewer:
    'reads the workspace, its items and content, jobs and their events, the thread, installed apps, drift results and role assignments; plans an install; reads and exports paginated reports (and their embed tokens)',
  Contributor:
    'creates, edits and deletes items and content; installs, upgrades and uninstalls apps; applies items; checks drift; retries job steps; edits thread edges; publishes, clones, edits and deletes paginated reports and their datasources',
  Member: 'adds, changes and removes Contributor and Viewer assignments',
  Admin: 'manages every assignment (Member and Admin too); renames, updates and deletes the workspace; binds its platform workspace',
};

/** The refusal message of a role too low (the contract's words). */
export function roleRequiredMessage(needed: WorkspaceRole, held: WorkspaceRole): string {
  return `This operation needs the ${needed} role on the workspace (yours is ${held})`;
}
