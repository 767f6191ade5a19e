import { useState } from 'react';
import {
  Button,
  Menu,
  MenuItem,
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
import { useWhoAmI } from '../api/session';
import type { Workspace } from '../api/types';
import { useWorkspaces } from '../api/workspaces';
import { BindWorkspaceDialog } from '../components/BindWorkspaceDialog';
import { CreateWorkspaceDialog } from '../components/CreateWorkspaceDialog';
import { DeleteWorkspaceDialog } from '../components/DeleteWorkspaceDialog';
import { PageHeader } from '../components/PageHeader';
import { RenameWorkspaceDialog } from '../components/RenameWorkspaceDialog';
import { RequestState } from '../components/RequestState';

type Action = { kind: 'rename' | 'delete' | 'bind'; ws: Workspace };

/** The tenant's workspaces: open, create, rename, bind (admins), delete. */
export function WorkspacesPage() {
  const workspaces = useWorkspaces();
  const isAdmin = useWhoAmI().data?.scopes.includes('admin') ?? false;
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action>();
  return (
    <>
      <PageHeader
        title="Workspaces"
        actions={
          <Button appearance="primary" icon={<Add20Regular />} onClick={() => setCreating(true)}>
            New workspace
          </Button>
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
                    <TableCell>{ws.platformWorkspaceId ?? <Text italic>tenant shared</Text>}</TableCell>
                    <TableCell>{new Date(ws.updatedAt).toLocaleString()}</TableCell>
                    <TableCell>
                      <Menu>
                        <MenuTrigger disableButtonEnhancement>
                          <Button appearance="subtle" icon={<MoreHorizontal20Regular />} aria-label={`Actions for ${ws.name}`} />
                        </MenuTrigger>
                        <MenuPopover>
                          <MenuList>
                            <MenuItem icon={<Rename20Regular />} onClick={() => setAction({ kind: 'rename', ws })}>
                              Rename
                            </MenuItem>
                            {isAdmin && (
                              <MenuItem icon={<Link20Regular />} onClick={() => setAction({ kind: 'bind', ws })}>
                                Platform binding
                              </MenuItem>
                            )}
                            <MenuItem icon={<Delete20Regular />} onClick={() => setAction({ kind: 'delete', ws })}>
                              Delete
                            </MenuItem>
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
