import { useState } from 'react';
import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  OverlayDrawer,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { Delete20Regular, Dismiss20Regular } from '@fluentui/react-icons';
import { can, grantableRoles, type Role, roleSourceText } from '../../api/access';
import { type RoleAssignment, useRoleAssignmentMutations, useRoleAssignments } from '../../api/role-assignments';
import { useWhoAmI } from '../../api/session';
import type { Workspace } from '../../api/types';
import { ErrorMessage, RequestState } from '../RequestState';
import { AddAssignmentForm } from './AddAssignmentForm';

/**
 * "Manage access" of a workspace: the caller's own role, every role assignment, and (for a Member or Admin) add, change
 * and remove. A refusal (the last Admin, say) shows the service's message here; the list stays as the service has it.
 */
export function ManageAccessPanel({ workspace, onClose }: { workspace: Workspace; onClose: () => void }) {
  const me = useWhoAmI().data;
  const scopes = me?.scopes ?? [];
  const assignments = useRoleAssignments(workspace.id);
  const m = useRoleAssignmentMutations(workspace.id);
  const [confirming, setConfirming] = useState<string>();
  const manage = can(workspace.role, scopes, 'access.manage');
  const grantable = manage.ok ? grantableRoles(workspace.role) : [];
  const mayHandle = (role: Role) => grantable.includes(role);
  const error = m.add.error ?? m.change.error ?? m.remove.error;
  const resetErrors = () => {
    m.add.reset();
    m.change.reset();
    m.remove.reset();
  };
  // The group the caller's role comes through: a group assignment of the caller's groups with that role.
  const myGroups = me?.groups ?? [];
  const through = assignments.data?.find(
    (a) => a.principal.type === 'Group' && a.role === workspace.role && myGroups.includes(a.principal.id),
  )?.principal.displayName;

  const row = (a: RoleAssignment) => {
    const name = a.principal.displayName || a.principal.id;
    const editable = mayHandle(a.role);
    return (
      <TableRow key={a.id} data-testid="role-assignment" data-principal={a.principal.id}>
        <TableCell>
          <Text weight="semibold">{name}</Text>
        </TableCell>
        <TableCell>{a.principal.type}</TableCell>
        <TableCell>
          <Text size={200}>{a.principal.email ?? '—'}</Text>
        </TableCell>
        <TableCell>
          {editable ? (
            <Select
              aria-label={`Role of ${name}`}
              value={a.role}
              disabled={m.change.isPending}
              onChange={(_, d) => {
                resetErrors();
                m.change.mutate({ id: a.id, role: d.value as Role });
              }}
            >
              {grantable.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </Select>
          ) : (
            <Text title={manage.ok ? `Only an Admin changes a ${a.role}` : manage.reason}>{a.role}</Text>
          )}
        </TableCell>
        <TableCell>
          {editable &&
            (confirming === a.id ? (
              <fieldset
                style={{ display: 'inline-flex', gap: 4, alignItems: 'center', border: 'none', margin: 0, padding: 0 }}
                aria-label={`Confirm removing ${name}`}
              >
                <Button
                  size="small"
                  appearance="primary"
                  autoFocus
                  disabled={m.remove.isPending}
                  onClick={() => {
                    resetErrors();
                    m.remove.mutate(a.id, { onSettled: () => setConfirming(undefined) });
                  }}
                >
                  {m.remove.isPending ? 'Removing…' : `Remove ${name}`}
                </Button>
                <Button size="small" onClick={() => setConfirming(undefined)}>
                  Keep
                </Button>
              </fieldset>
            ) : (
              <Button
                size="small"
                appearance="subtle"
                icon={<Delete20Regular />}
                aria-label={`Remove the ${a.role} role of ${name}`}
                onClick={() => setConfirming(a.id)}
              />
            ))}
        </TableCell>
      </TableRow>
    );
  };

  return (
    <OverlayDrawer open position="end" size="large" onOpenChange={(_, d) => !d.open && onClose()} aria-label="Manage access">
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label="Close" icon={<Dismiss20Regular />} onClick={onClose} />}>
          Manage access to {workspace.name}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody style={{ display: 'grid', gap: 14, alignContent: 'start' }}>
        <Text data-testid="my-role">
          Your role: <strong>{workspace.role ?? 'unknown'}</strong>
          {workspace.role && `, ${roleSourceText(workspace.roleSource, through)}`}
        </Text>
        {!manage.ok && (
          <Text size={200} data-testid="access-hint">
            {manage.reason}. You can see who has access.
          </Text>
        )}
        {manage.ok && workspace.role === 'Member' && (
          <Text size={200} data-testid="access-hint">
            As a Member you add, change and remove Contributors and Viewers; an Admin manages Members and Admins.
          </Text>
        )}
        {error ? <ErrorMessage error={error} title="The change was refused" /> : null}
        <RequestState query={assignments} label="the role assignments">
          {(list) => (
            <Table aria-label="Role assignments" size="small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Name</TableHeaderCell>
                  <TableHeaderCell style={{ width: 70 }}>Type</TableHeaderCell>
                  <TableHeaderCell>Email</TableHeaderCell>
                  <TableHeaderCell style={{ width: 150 }}>Role</TableHeaderCell>
                  <TableHeaderCell style={{ width: 200 }}>
                    <span className="sr-only">Remove</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>{list.map(row)}</TableBody>
            </Table>
          )}
        </RequestState>
        {manage.ok && (
          <AddAssignmentForm
            roles={grantable}
            assigned={new Set(assignments.data?.map((a) => a.principal.id))}
            pending={m.add.isPending}
            onAdd={(principal, role, done) => {
              resetErrors();
              m.add.mutate({ principal, role }, { onSuccess: done });
            }}
          />
        )}
      </DrawerBody>
    </OverlayDrawer>
  );
}
