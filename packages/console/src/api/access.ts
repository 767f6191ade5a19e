import { can, type Permission, type Role, type RoleSource, type WorkspaceAction } from './roles';
import { useWhoAmI } from './session';
import type { Workspace } from './types';
import { useWorkspace, useWorkspaces } from './workspaces';

export { ACTIONS, atLeast, can, grantableRoles, ROLES } from './roles';
export type { Permission, Role, RoleSource, WorkspaceAction } from './roles';

// The service's Workspace schema names the same roles and sources as the table: a difference does not compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rolesMatch: [Same<Role, Workspace['role']>, Same<RoleSource, Workspace['roleSource']>] = [true, true];
void rolesMatch;

/** `can` bound to the signed-in caller's scopes and a workspace's role (undefined while either loads: nothing allowed). */
export function useCan(workspace: Workspace | undefined) {
  const scopes = useWhoAmI().data?.scopes ?? [];
  return (action: WorkspaceAction): Permission =>
    workspace ? can(workspace.role, scopes, action) : { ok: false, reason: 'Loading the workspace…' };
}

/** How the caller holds its role, in words: "through a group", "as tenant admin", or directly. */
export function roleSourceText(source: RoleSource | null | undefined, group?: string): string {
  if (source === 'group') return group ? `through group ${group}` : 'through a group';
  if (source === 'tenant-admin') return 'as tenant admin';
  return 'assigned to you';
}

/** Whether the caller may install apps into at least one of its workspaces (the catalog's Install buttons). */
export function useInstallPermission(): Permission {
  const scopes = useWhoAmI().data?.scopes ?? [];
  const workspaces = useWorkspaces().data;
  if (!workspaces) return { ok: false, reason: 'Loading your workspaces…' };
  if (workspaces.some((w) => can(w.role, scopes, 'app.install').ok)) return { ok: true };
  return {
    ok: false,
    reason: workspaces.length
      ? 'None of your workspaces lets you install apps (it needs the Contributor role and the install scope)'
      : 'Create a workspace first: an app is installed into one',
  };
}

/** `useCan` for a workspace known by id (its query is shared with every other reader of that workspace). */
export function useCanOn(workspaceId: string) {
  return useCan(useWorkspace(workspaceId).data);
}
