// The console's rights table, free of imports so the service's tests can hold it to the OpenAPI document.
/** The data platform's workspace roles, lowest first: the same order the service ranks them in (a test holds it). */
export const ROLES = ['Viewer', 'Contributor', 'Member', 'Admin'] as const;
/** A workspace role, as the service names it. */
export type Role = (typeof ROLES)[number];
/** Where the caller's role on a workspace comes from. */
export type RoleSource = 'user' | 'group' | 'tenant-admin';

type Scope = 'read' | 'write' | 'install' | 'reports' | 'admin';

/**
 * What the console offers on a workspace: the operation it calls, the role and scope the service checks for it (its
 * x-required-role and x-required-scope; a test holds them equal), and its wording.
 */
export const ACTIONS = {
  'item.create': { op: 'createItem', role: 'Contributor', scope: 'write', verb: 'create items' },
  'item.edit': { op: 'putItemContent', role: 'Contributor', scope: 'write', verb: 'edit items' },
  'item.delete': { op: 'deleteItem', role: 'Contributor', scope: 'write', verb: 'delete items' },
  'item.apply': { op: 'applyItem', role: 'Contributor', scope: 'install', verb: 'apply items' },
  'app.install': { op: 'installApp', role: 'Contributor', scope: 'install', verb: 'install apps' },
  'app.upgrade': { op: 'upgradeApp', role: 'Contributor', scope: 'install', verb: 'upgrade apps' },
  'app.uninstall': { op: 'uninstallApp', role: 'Contributor', scope: 'install', verb: 'uninstall apps' },
  'drift.check': { op: 'checkDrift', role: 'Contributor', scope: 'install', verb: 'check for drift' },
  'job.retry': { op: 'retryInstallStep', role: 'Contributor', scope: 'install', verb: 'retry steps' },
  'thread.edit': { op: 'createThreadEdge', role: 'Contributor', scope: 'write', verb: 'edit lineage' },
  'report.create': { op: 'publishPaginatedReport', role: 'Contributor', scope: 'reports', verb: 'create reports' },
  'report.publish': { op: 'putPaginatedReportDefinition', role: 'Contributor', scope: 'reports', verb: 'publish reports' },
  'report.clone': { op: 'clonePaginatedReport', role: 'Contributor', scope: 'reports', verb: 'clone reports' },
  'report.delete': { op: 'deletePaginatedReport', role: 'Contributor', scope: 'reports', verb: 'delete reports' },
  'report.datasources': { op: 'updatePaginatedReportDatasources', role: 'Contributor', scope: 'reports', verb: 'change data sources' },
  'report.export': { op: 'startPaginatedReportExport', role: 'Viewer', scope: 'reports', verb: 'export reports' },
  'report.preview': { op: 'previewPaginatedReport', role: 'Contributor', scope: 'reports', verb: 'run drafts of reports' },
  'access.manage': { op: 'addRoleAssignment', role: 'Member', scope: 'write', verb: 'manage access' },
  'workspace.rename': { op: 'updateWorkspace', role: 'Admin', scope: 'write', verb: 'rename the workspace' },
  'workspace.delete': { op: 'deleteWorkspace', role: 'Admin', scope: 'write', verb: 'delete the workspace' },
  'workspace.bind': { op: 'updateWorkspace', role: 'Admin', scope: 'admin', verb: 'bind the platform workspace' },
} as const satisfies Record<string, { op: string; role: Role; scope: Scope; verb: string }>;
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
