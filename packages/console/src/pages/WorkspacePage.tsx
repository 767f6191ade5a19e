import { useEffect, useState } from 'react';
import { Button, Menu, MenuList, MenuPopover, MenuTrigger, MessageBar, MessageBarBody, Text } from '@fluentui/react-components';
import {
  Add20Regular,
  Apps20Regular,
  BranchFork20Regular,
  Delete20Regular,
  Link20Regular,
  MoreHorizontal20Regular,
  PeopleTeam20Regular,
  Rename20Regular,
} from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useCan } from '../api/access';
import { useInstalledApps } from '../api/installed-apps';
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
import { WorkspaceItems } from '../components/WorkspaceItems';
import { PageHeader } from '../components/PageHeader';
import { RenameWorkspaceDialog } from '../components/RenameWorkspaceDialog';
import { RequestState } from '../components/RequestState';

/** One workspace: its installed apps, drift, its items (sortable, filterable, with their live state), and its actions. */
export default function WorkspacePage() {
  const { workspaceId = '' } = useParams();
  const ws = useWorkspace(workspaceId);
  const apps = useInstalledApps(workspaceId);
  const jobs = useJobs(workspaceId, true);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const isAdmin = useWhoAmI().data?.scopes.includes('admin') ?? false;
  const [dialog, setDialog] = useState<'item' | 'rename' | 'delete' | 'bind' | 'access'>();
  const allow = useCan(ws.data);

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
            <WorkspaceItems
              workspace={w}
              onCreateItem={() => setDialog('item')}
              onInstallApp={() => navigate(`/apps?workspaceId=${workspaceId}`)}
            />
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
