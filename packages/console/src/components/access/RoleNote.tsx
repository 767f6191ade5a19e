import { Badge, Text } from '@fluentui/react-components';
import { type Role, roleSourceText } from '../../api/access';
import type { Workspace } from '../../api/types';

/** What each role cannot do on a workspace, said once on the page (the disabled actions carry the same reason). */
const LIMITS: Record<Role, string | undefined> = {
  Viewer: 'Viewers read this workspace: creating, editing, installing, applying and deleting need the Contributor role.',
  Contributor: 'Managing access needs the Member role; renaming, deleting and binding the workspace need the Admin role.',
  Member: 'Renaming, deleting and binding the workspace need the Admin role.',
  Admin: undefined,
};

/** The colour of a role's badge: the higher the role, the stronger. */
export const ROLE_COLOR = { Viewer: 'subtle', Contributor: 'informative', Member: 'brand', Admin: 'important' } as const;

/** A role as a badge. */
export function RoleBadge({ role }: { role: Role | null | undefined }) {
  if (!role) return null;
  return (
    <Badge appearance="tint" color={ROLE_COLOR[role]} data-testid="role-badge" data-role={role}>
      {role}
    </Badge>
  );
}

/** The caller's role on the workspace, how it holds it, and what that role does not allow. */
export function RoleNote({ workspace }: { workspace: Workspace }) {
  if (!workspace.role) return null;
  const limit = LIMITS[workspace.role];
  return (
    <Text block size={200} style={{ marginBottom: 12 }} data-testid="role-note">
      Your role: <RoleBadge role={workspace.role} /> {roleSourceText(workspace.roleSource)}.{limit ? ` ${limit}` : ''}
    </Text>
  );
}
