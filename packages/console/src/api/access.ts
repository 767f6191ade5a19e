import { useWhoAmI } from './session';
import type { Workspace } from './types';
import { useWorkspace, useWorkspaces } from './workspaces';

/** A workspace role, as the service names it. */
export type Role = Workspace['role'];
/** Where the caller's role on a workspace comes from. */
export type RoleSource = Workspace['roleSource'];
/** The data platform's workspace roles, lowest first: the same order the service ranks them in. */
export const ROLES = ['Viewer', 'Contributor', 'Member', 'Admin'] as const satisfies readonly Role[];

type Scope = 'read' | 'write' | 'install' | 'reports' | 'admin';

/** What the console offers on a workspace, each with the role and scope the service checks for it, and its wording. */
const ACTIONS = {
  'item.create': { role: 'Contributor', scope: 'write', verb: 'create items' },
  'item.edit': { role: 'Contributor', scope: 'write', verb: 'edit items' },
  'item.delete': { role: 'Contributor', scope: 'write', verb: 'delete items' },
  'item.apply': { role: 'Contributor', scope: 'install', verb: 'apply items' },
  'app.install': { role: 'Contributor', scope: 'install', verb: 'install apps' },
  'app.upgrade': { role: 'Contributor', scope: 'install', verb: 'upgrade apps' },
  'app.uninstall': { role: 'Contributor', scope: 'install', verb: 'uninstall apps' },
  'drift.check': { role: 'Contributor', scope: 'install', verb: 'check for drift' },
  'job.retry': { role: 'Contributor', scope: 'install', verb: 'retry steps' },
  'thread.edit': { role: 'Contributor', scope: 'write', verb: 'edit lineage' },
  'report.create': { role: 'Contributor', scope: 'reports', verb: 'create reports' },
  'report.publish': { role: 'Contributor', scope: 'reports', verb: 'publish reports' },
  'report.clone': { role: 'Contributor', scope: 'reports', verb: 'clone reports' },
  'report.delete': { role: 'Contributor', scope: 'reports', verb: 'delete reports' },
  'report.datasources': { role: 'Contributor', scope: 'reports', verb: 'change data sources' },
  'report.export': { role: 'Viewer', scope: 'reports', verb: 'export reports' },
  'access.manage': { role: 'Member', scope: 'write', verb: 'manage access' },
  'workspace.rename': { role: 'Admin', scope: 'write', verb: 'rename the workspace' },
  'workspace.delete': { role: 'Admin', scope: 'write', verb: 'delete the workspace' },
  'workspace.bind': { role: 'Admin', scope: 'admin', verb: 'bind the platform workspace' },
} as const satisfies Record<string, { role: Role; scope: Scope; verb: string }>;
export type WorkspaceAction = keyof typeof ACTIONS;

/** The answer for one action: allowed, or not with the reason shown next to it. */
export type Permission = { ok: true; reason?: undefined } | { ok: false; reason: string };

/** True when `role` ranks at least `needed`. */
export const atLeast = (role: Role | null | undefined, needed: Role): boolean => !!role && ROLES.indexOf(role) >= ROLES.indexOf(needed);

const holds = (scopes: readonly string[], needed: Scope) => scopes.includes(needed) || scopes.includes('admin');

/** Decides whether the console offers `action` to a caller with `role` on the workspace and these session scopes. */
export function can(role: Role | null | undefined, scopes: readonly string[], action: WorkspaceAction): Permission {
  const a = ACTIONS[action];
  if (!atLeast(role, a.role)) {
    return { ok: false, reason: `${role ? `${role}s` : 'Callers without a role'} cannot ${a.verb} (it needs the ${a.role} role)` };
  }
  if (!holds(scopes, a.scope)) return { ok: false, reason: `Your sign-in lacks the '${a.scope}' scope needed to ${a.verb}` };
  return { ok: true };
}

/** The roles the caller may grant, change or remove: a Member handles Contributors and Viewers, an Admin every role. */
export function grantableRoles(role: Role | null | undefined): Role[] {
  if (atLeast(role, 'Admin')) return [...ROLES].reverse();
  if (atLeast(role, 'Member')) return ['Contributor', 'Viewer'];
  return [];
}

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
