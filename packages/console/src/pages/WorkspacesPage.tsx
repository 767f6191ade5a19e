import { useMemo, useState } from 'react';
import {
  Button,
  Field,
  Input,
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
import {
  Add20Regular,
  Delete20Regular,
  Dismiss20Regular,
  Link20Regular,
  MoreHorizontal20Regular,
  Rename20Regular,
  Search20Regular,
} from '@fluentui/react-icons';
import { Link, useSearchParams } from 'react-router-dom';
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
type SortKey = 'name' | 'role' | 'created';
type Direction = 'ascending' | 'descending';

const SORTABLE: Array<{ key: SortKey; label: string; width?: number | string }> = [
  { key: 'name', label: 'Name', width: '25%' },
  { key: 'role', label: 'Your role', width: 130 },
  { key: 'created', label: 'Created', width: 170 },
];
// The strongest role first when sorted ascending: what a user looks for is where they can do the most.
const ROLE_RANK: Record<string, number> = { Admin: 0, Member: 1, Contributor: 2, Viewer: 3 };
// One collator for every comparison: localeCompare with options builds a new one per call (about 0.5 ms each). Made
// when this code loads (while the sign-in page shows), since the first costs some 7 ms of locale data.
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const compare: Record<SortKey, (a: Workspace, b: Workspace) => number> = {
  name: (a, b) => collator.compare(a.name, b.name),
  role: (a, b) => (ROLE_RANK[a.role] ?? 9) - (ROLE_RANK[b.role] ?? 9) || compare.name(a, b),
  created: (a, b) => a.createdAt.localeCompare(b.createdAt) || compare.name(a, b),
};

/** The tenant's workspaces, searchable by name and sortable (name, role, created; kept in the URL): open, create, rename, bind (admins), delete. */
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
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const sortKey: SortKey = (['name', 'role', 'created'] as const).find((k) => k === params.get('sort')) ?? 'name';
  const direction: Direction = params.get('dir') === 'descending' ? 'descending' : 'ascending';
  const update = (changes: Record<string, string>) =>
    setParams(
      (p) => {
        for (const [k, v] of Object.entries(changes)) v ? p.set(k, v) : p.delete(k);
        return p;
      },
      { replace: true },
    );
  const sortBy = (key: SortKey) => update({ sort: key, dir: key === sortKey && direction === 'ascending' ? 'descending' : 'ascending' });
  const all = workspaces.data;
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const out = (all ?? []).filter((w) => w.name.toLowerCase().includes(needle)).sort(compare[sortKey]);
    return direction === 'ascending' ? out : out.reverse();
  }, [all, search, sortKey, direction]);
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
            <>
              <div style={{ display: 'flex', gap: 12, alignItems: 'end', flexWrap: 'wrap', marginBottom: 8 }}>
                <Field label="Search workspaces">
                  <Input
                    type="search"
                    contentBefore={<Search20Regular />}
                    value={search}
                    onChange={(_, d) => update({ q: d.value })}
                    placeholder="Name contains…"
                  />
                </Field>
                <Text size={200} aria-live="polite" style={{ paddingBottom: 6 }}>
                  {shown.length} of {list.length} workspaces
                </Text>
              </div>
              {shown.length === 0 ? (
                <div style={{ display: 'grid', justifyItems: 'start', gap: 8, padding: 24 }} data-testid="workspaces-no-match">
                  <Text weight="semibold">No workspaces match “{search}”</Text>
                  <Button icon={<Dismiss20Regular />} onClick={() => update({ q: '' })}>
                    Clear search
                  </Button>
                </div>
              ) : (
                <Table aria-label="Workspaces" size="small" sortable>
                  <TableHeader>
                    <TableRow>
                      {SORTABLE.slice(0, 1).map((c) => (
                        <TableHeaderCell
                          key={c.key}
                          style={{ width: c.width }}
                          sortDirection={sortKey === c.key ? direction : undefined}
                          onClick={() => sortBy(c.key)}
                        >
                          {c.label}
                        </TableHeaderCell>
                      ))}
                      <TableHeaderCell>Description</TableHeaderCell>
                      {SORTABLE.slice(1).map((c) => (
                        <TableHeaderCell
                          key={c.key}
                          style={{ width: c.width }}
                          sortDirection={sortKey === c.key ? direction : undefined}
                          onClick={() => sortBy(c.key)}
                        >
                          {c.label}
                        </TableHeaderCell>
                      ))}
                      <TableHeaderCell style={{ width: 190 }}>Platform workspace</TableHeaderCell>
                      <TableHeaderCell style={{ width: 60 }}>
                        <span className="sr-only">Actions</span>
                      </TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {shown.map((ws) => (
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
                        <TableCell title={`Updated ${new Date(ws.updatedAt).toLocaleString()}`}>
                          {new Date(ws.createdAt).toLocaleString()}
                        </TableCell>
                        <TableCell>{ws.platformWorkspaceId ?? <Text italic>tenant shared</Text>}</TableCell>
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
              )}
            </>
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
