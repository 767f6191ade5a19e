import { useState } from 'react';
import {
  Button,
  Menu,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Link20Regular, MoreHorizontal20Regular, Rename20Regular } from '@fluentui/react-icons';
import { Link } from 'react-router-dom';
import { can, type Permission } from '../api/access';
import { useWhoAmI } from '../api/session';
import type { Workspace } from '../api/types';
import { useWorkspaces } from '../api/workspaces';
import { RoleBadge } from '../components/access/RoleNote';
import { BindWorkspaceDialog, CreateWorkspaceDialog, DeleteWorkspaceDialog, RenameWorkspaceDialog } from '../components/workspace-dialogs';
import { GuardedButton, GuardedMenuItem } from '../components/GuardedButton';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';

type Action = { kind: 'rename' | 'delete' | 'bind'; ws: Workspace };

/** The tenant's workspaces: open, create, rename, bind (admins), delete. */
export function WorkspacesPage() {
  const workspaces = useWorkspaces();
  const me = useWhoAmI().data;
  const scopes = me?.scopes ?? [];
  const isAdmin = scopes.includes('admin');
  const create: Permission = me?.workspaceIds
    ? { ok: false, reason: 'Your sign-in is limited to listed workspaces: it cannot create one' }
    : scopes.includes('write') || isAdmin
      ? { ok: true }
      : { ok: false, reason: "Your sign-in lacks the 'write' scope needed to create workspaces" };
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action>();
  return (
    <>
      <PageHeader
        title="Workspaces"
        actions={
          <GuardedButton appearance="primary" icon={<Add20Regular />} onClick={() => setCreating(true)} permission={create}>
            New workspace
          </GuardedButton>
        }
      />
      <RequestState query={workspaces} label="workspaces">
        {(list) =>
          list.length === 0 ? (
            <Text>No workspaces yet. Create one to start.</Text>
          ) : (
            <Table aria-label="Workspaces" size="small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: '30%' }}>Name</TableHeaderCell>
                  <TableHeaderCell>Description</TableHeaderCell>
                  <TableHeaderCell style={{ width: 130 }}>Your role</TableHeaderCell>
                  <TableHeaderCell style={{ width: 220 }}>Platform workspace</TableHeaderCell>
                  <TableHeaderCell style={{ width: 170 }}>Updated</TableHeaderCell>
                  <TableHeaderCell style={{ width: 60 }}>
                    <span className="sr-only">Actions</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((ws) => (
                  <TableRow key={ws.id}>
                    <TableCell>
                      <Link to={`/workspaces/${ws.id}`}>{ws.name}</Link>
                    </TableCell>
                    <TableCell>
                      <Text truncate wrap={false}>
                        {ws.description}
                      </Text>
                    </TableCell>
                    <TableCell data-testid="workspace-role">
                      <RoleBadge role={ws.role} />
                      {ws.roleSource && ws.roleSource !== 'user' && (
                        <Text size={200}> {ws.roleSource === 'group' ? 'via group' : 'tenant admin'}</Text>
                      )}
                    </TableCell>
                    <TableCell>{ws.platformWorkspaceId ?? <Text italic>tenant shared</Text>}</TableCell>
                    <TableCell>{new Date(ws.updatedAt).toLocaleString()}</TableCell>
                    <TableCell>
                      <Menu>
                        <MenuTrigger disableButtonEnhancement>
                          <Button appearance="subtle" icon={<MoreHorizontal20Regular />} aria-label={`Actions for ${ws.name}`} />
                        </MenuTrigger>
                        <MenuPopover>
                          <MenuList>
                            <GuardedMenuItem
                              icon={<Rename20Regular />}
                              onClick={() => setAction({ kind: 'rename', ws })}
                              permission={can(ws.role, scopes, 'workspace.rename')}
                            >
                              Rename
                            </GuardedMenuItem>
                            {isAdmin && (
                              <GuardedMenuItem
                                icon={<Link20Regular />}
                                onClick={() => setAction({ kind: 'bind', ws })}
                                permission={can(ws.role, scopes, 'workspace.bind')}
                              >
                                Platform binding
                              </GuardedMenuItem>
                            )}
                            <GuardedMenuItem
                              icon={<Delete20Regular />}
                              onClick={() => setAction({ kind: 'delete', ws })}
                              permission={can(ws.role, scopes, 'workspace.delete')}
                            >
                              Delete
                            </GuardedMenuItem>
                          </MenuList>
                        </MenuPopover>
                      </Menu>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )
        }
      </RequestState>
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
      {action?.kind === 'rename' && <RenameWorkspaceDialog workspace={action.ws} onClose={() => setAction(undefined)} />}
      {action?.kind === 'bind' && <BindWorkspaceDialog workspace={action.ws} onClose={() => setAction(undefined)} />}
      {action?.kind === 'delete' && <DeleteWorkspaceDialog workspace={action.ws} onClose={() => setAction(undefined)} />}
    </>
  );
}
