import { useEffect, useState } from 'react';
import {
  Button,
  Field,
  Input,
  Menu,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  Select,
  Text,
  Toolbar,
} from '@fluentui/react-components';
import {
  Add20Regular,
  Apps20Regular,
  BranchFork20Regular,
  Delete20Regular,
  Link20Regular,
  MoreHorizontal20Regular,
  PeopleTeam20Regular,
  Rename20Regular,
  Search20Regular,
} from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useCan } from '../api/access';
import { useInstalledApps } from '../api/installed-apps';
import { useItems, useItemTypes } from '../api/items';
import { useJobs } from '../api/jobs';
import { useWhoAmI } from '../api/session';
import { useWorkspace } from '../api/workspaces';
import { ManageAccessPanel } from '../components/access/ManageAccessPanel';
import { RoleNote } from '../components/access/RoleNote';
import { BindWorkspaceDialog } from '../components/BindWorkspaceDialog';
import { CreateItemDialog } from '../components/CreateItemDialog';
import { DeleteWorkspaceDialog } from '../components/DeleteWorkspaceDialog';
import { DriftPanel } from '../components/DriftPanel';
import { GuardedButton, GuardedMenuItem } from '../components/GuardedButton';
import { InstalledApps } from '../components/InstalledApps';
import { ItemsTable } from '../components/ItemsTable';
import { PageHeader } from '../components/PageHeader';
import { RenameWorkspaceDialog } from '../components/RenameWorkspaceDialog';
import { RequestState } from '../components/RequestState';

/** One workspace: its installed apps, drift, its items (sortable, filterable, with their live state), and its actions. */
export default function WorkspacePage() {
  const { workspaceId = '' } = useParams();
  const ws = useWorkspace(workspaceId);
  const items = useItems(workspaceId);
  const apps = useInstalledApps(workspaceId);
  const types = useItemTypes();
  const jobs = useJobs(workspaceId, true);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const isAdmin = useWhoAmI().data?.scopes.includes('admin') ?? false;
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<'item' | 'rename' | 'delete' | 'bind' | 'access'>();
  const allow = useCan(ws.data);
  const text = params.get('q') ?? '';
  const type = params.get('type') ?? '';
  const setFilter = (k: string, v: string) =>
    setParams(
      (p) => {
        if (v) p.set(k, v);
        else p.delete(k);
        return p;
      },
      { replace: true },
    );

  const running = jobs.data?.filter((j) => j.status === 'running') ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: jobs.dataUpdatedAt is the trigger: each jobs poll refreshes the items
  useEffect(() => {
    // live provisioning state and the installed apps follow the jobs
    void qc.invalidateQueries({ queryKey: ['items', workspaceId] });
    void qc.invalidateQueries({ queryKey: ['installed-apps', workspaceId] });
  }, [jobs.dataUpdatedAt, qc, workspaceId]);

  const name = ws.data?.name ?? 'Workspace';
  return (
    <>
      <PageHeader
        title={name}
        crumbs={[
          { to: '/workspaces', label: 'Workspaces' },
          { to: `/workspaces/${workspaceId}`, label: name },
        ]}
        actions={
          <>
            <GuardedButton appearance="primary" icon={<Add20Regular />} onClick={() => setDialog('item')} permission={allow('item.create')}>
              New item
            </GuardedButton>
            <GuardedButton
              icon={<Apps20Regular />}
              onClick={() => navigate(`/apps?workspaceId=${workspaceId}`)}
              permission={allow('app.install')}
            >
              Install an app
            </GuardedButton>
            <Button icon={<BranchFork20Regular />} onClick={() => navigate(`/workspaces/${workspaceId}/thread`)}>
              Lineage
            </Button>
            <Button icon={<PeopleTeam20Regular />} onClick={() => setDialog('access')} disabled={!ws.data}>
              Manage access
            </Button>
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <Button icon={<MoreHorizontal20Regular />} aria-label="Workspace actions" disabled={!ws.data} />
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <GuardedMenuItem icon={<Rename20Regular />} onClick={() => setDialog('rename')} permission={allow('workspace.rename')}>
                    Rename
                  </GuardedMenuItem>
                  {isAdmin && (
                    <GuardedMenuItem icon={<Link20Regular />} onClick={() => setDialog('bind')} permission={allow('workspace.bind')}>
                      Platform binding
                    </GuardedMenuItem>
                  )}
                  <GuardedMenuItem icon={<Delete20Regular />} onClick={() => setDialog('delete')} permission={allow('workspace.delete')}>
                    Delete
                  </GuardedMenuItem>
                </MenuList>
              </MenuPopover>
            </Menu>
          </>
        }
      />
      <RequestState query={ws} label="the workspace">
        {(w) => (
          <>
            <RoleNote workspace={w} />
            {w.description && (
              <Text block style={{ marginBottom: 12 }}>
                {w.description}
              </Text>
            )}
            {running.map((j) => (
              <MessageBar key={j.id} intent="info" style={{ marginBottom: 8 }}>
                <MessageBarBody>
                  Installing {j.appId}: {j.phase} · {j.percentComplete}% · <Link to={`/jobs/${j.id}`}>follow</Link>
                </MessageBarBody>
              </MessageBar>
            ))}
            <section aria-label="Installed apps" style={{ marginBottom: 16 }}>
              <Text weight="semibold" as="h2" block style={{ margin: '0 0 4px' }}>
                Installed apps
              </Text>
              <RequestState query={apps} label="installed apps">
                {(list) => <InstalledApps apps={list} workspace={w} />}
              </RequestState>
            </section>
            <DriftPanel workspace={w} />
            <Text weight="semibold" as="h2" block style={{ margin: '0 0 4px' }}>
              Items
            </Text>
            <Toolbar aria-label="Filter items" style={{ gap: 12, padding: '4px 0 12px', alignItems: 'end' }}>
              <Field label="Filter by name">
                <Input
                  contentBefore={<Search20Regular />}
                  value={text}
                  onChange={(_, d) => setFilter('q', d.value)}
                  placeholder="Name contains…"
                />
              </Field>
              <Field label="Type">
                <Select value={type} onChange={(_, d) => setFilter('type', d.value)}>
                  <option value="">All types</option>
                  {types.data?.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.displayName}
                    </option>
                  ))}
                </Select>
              </Field>
            </Toolbar>
            <RequestState query={items} label="items">
              {(list) => {
                const shown = list.filter(
                  (i) => (!type || i.itemType === type) && i.displayName.toLowerCase().includes(text.toLowerCase()),
                );
                if (!list.length)
                  return (
                    <Text>
                      {allow('item.create').ok
                        ? 'This workspace has no items. Create one, or install an app from the catalog.'
                        : 'This workspace has no items.'}
                    </Text>
                  );
                return (
                  <>
                    <Text size={200} block style={{ marginBottom: 4 }} aria-live="polite">
                      {shown.length} of {list.length} items
                    </Text>
                    <ItemsTable items={shown} types={types.data ?? []} workspaceId={workspaceId} />
                  </>
                );
              }}
            </RequestState>
            <CreateItemDialog workspaceId={workspaceId} open={dialog === 'item'} onClose={() => setDialog(undefined)} />
            {dialog === 'access' && <ManageAccessPanel workspace={w} onClose={() => setDialog(undefined)} />}
            {dialog === 'rename' && <RenameWorkspaceDialog workspace={w} onClose={() => setDialog(undefined)} />}
            {dialog === 'bind' && <BindWorkspaceDialog workspace={w} onClose={() => setDialog(undefined)} />}
            {dialog === 'delete' && (
              <DeleteWorkspaceDialog workspace={w} onClose={() => setDialog(undefined)} onDeleted={() => navigate('/workspaces')} />
            )}
          </>
        )}
      </RequestState>
    </>
  );
}
