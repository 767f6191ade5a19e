import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Radio,
  RadioGroup,
  Select,
  Switch,
  Text,
} from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { can } from '../api/access';
import { useApp } from '../api/catalog';
import { useStartInstall } from '../api/jobs';
import type { PlanRequest } from '../api/plan';
import { trackJob } from '../api/tracked-jobs';
import { useWhoAmI } from '../api/session';
import type { TargetOverrides } from '../api/types';
import { useWorkspaces } from '../api/workspaces';
import { InstallPlan } from './InstallPlan';
import { JobProgress } from './JobProgress';
import { ErrorMessage, RequestState } from './RequestState';

const OVERRIDES: Array<[keyof TargetOverrides, string]> = [
  ['platformWorkspaceId', 'Platform workspace id'],
  ['kqlClusterUri', 'KQL cluster URI'],
  ['kqlDatabase', 'KQL database'],
  ['warehouseWorkspace', 'Warehouse workspace'],
  ['warehouseServer', 'Warehouse server'],
  ['warehouseDatabase', 'Warehouse database'],
  ['searchService', 'Search service'],
  ['lakeAccount', 'Lake account'],
  ['lakeContainer', 'Lake container'],
];

/** Install an app: choose where and how, see the plan, start, then follow progress; closing leaves the job running. */
export function InstallDialog({ appId, initialWorkspaceId, onClose }: { appId: string; initialWorkspaceId?: string; onClose: () => void }) {
  const app = useApp(appId);
  const workspaces = useWorkspaces();
  const start = useStartInstall();
  const navigate = useNavigate();
  const [workspaceId, setWorkspaceId] = useState(initialWorkspaceId ?? '');
  const [deploy, setDeploy] = useState(true);
  const [mode, setMode] = useState<'shared' | 'dedicated'>('shared');
  const [overrides, setOverrides] = useState<TargetOverrides>({});
  const [jobId, setJobId] = useState<string>();
  const scopes = useWhoAmI().data?.scopes ?? [];
  // Only the workspaces where the caller's role and scopes allow an install are offered.
  const allowed = workspaces.data?.filter((w) => can(w.role, scopes, 'app.install').ok);
  const wsId = (allowed?.some((w) => w.id === workspaceId) ? workspaceId : '') || allowed?.[0]?.id || '';
  const appName = app.data?.displayName ?? appId;

  const targetOverrides = Object.fromEntries(
    Object.entries(overrides)
      .filter(([, v]) => v?.trim())
      .map(([k, v]) => [k, v!.trim()]),
  );
  const body: PlanRequest = {
    workspaceId: wsId,
    deploy,
    mode,
    ...(mode === 'dedicated' && Object.keys(targetOverrides).length ? { targetOverrides } : {}),
  };
  // The live plan is read for the body as chosen; while dedicated targets are typed, only once they name something.
  const planned = wsId && (mode === 'shared' || !deploy || body.targetOverrides) ? body : undefined;

  const submit = () => {
    start.mutate(
      { appId, ...body },
      {
        onSuccess: (r) => {
          trackJob({ jobId: r.jobId, appId, appName, workspaceId: wsId, startedAt: new Date().toISOString() });
          setJobId(r.jobId);
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()} modalType="modal">
      <DialogSurface style={{ maxWidth: 720, width: '90vw' }} aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>{jobId ? `Installing ${appName}` : `Install ${appName}`}</DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 14 }}>
            {jobId ? (
              <>
                <JobProgress jobId={jobId} />
                <Text size={200}>
                  You can close this dialog: the install keeps running, the Jobs tray follows it, and a notification says when it ends.
                </Text>
              </>
            ) : (
              <RequestState query={workspaces} label="workspaces">
                {(all) => {
                  const list = all.filter((w) => can(w.role, scopes, 'app.install').ok);
                  if (all.length === 0) return <Text>Create a workspace first: the app is installed into one.</Text>;
                  if (list.length === 0)
                    return (
                      <Text data-testid="no-install-workspace">
                        None of your workspaces lets you install apps: installing needs the Contributor role on the workspace
                        {can('Admin', scopes, 'app.install').ok ? '' : " and the 'install' scope"}.
                      </Text>
                    );
                  return (
                    <>
                      <Field label="Workspace" required>
                        <Select value={wsId} onChange={(_, d) => setWorkspaceId(d.value)}>
                          {list.map((w) => (
                            <option key={w.id} value={w.id}>
                              {w.name}
                            </option>
                          ))}
                        </Select>
                      </Field>
                      <Field
                        label="Deploy"
                        hint={
                          deploy
                            ? 'Live items are provisioned in the backing services.'
                            : 'Items are stored in the workspace only; nothing is provisioned.'
                        }
                      >
                        <Switch
                          checked={deploy}
                          onChange={(_, d) => setDeploy(d.checked)}
                          label="Provision live items in the backing services"
                        />
                      </Field>
                      {deploy && (
                        <Field
                          label="Backing resources"
                          hint={scopes.includes('admin') ? undefined : 'A dedicated install needs the admin scope (a tenant admin).'}
                        >
                          <RadioGroup layout="horizontal" value={mode} onChange={(_, d) => setMode(d.value as 'shared' | 'dedicated')}>
                            <Radio value="shared" label="Shared (the tenant's workspace, cluster, pool and search service)" />
                            <Radio value="dedicated" label="Dedicated (an isolated set)" disabled={!scopes.includes('admin')} />
                          </RadioGroup>
                        </Field>
                      )}
                      {deploy && mode === 'dedicated' && (
                        <fieldset
                          style={{ border: 'none', padding: 0, margin: 0, display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}
                        >
                          <legend style={{ marginBottom: 4 }}>Target overrides (leave empty to keep the resolved setting)</legend>
                          {OVERRIDES.map(([k, label]) => (
                            <Field key={k} label={label} size="small">
                              <Input
                                size="small"
                                value={overrides[k] ?? ''}
                                onChange={(_, d) => setOverrides((o) => ({ ...o, [k]: d.value }))}
                              />
                            </Field>
                          ))}
                        </fieldset>
                      )}
                      <RequestState query={app} label="the app's plan">
                        {(a) => <InstallPlan app={a} request={planned} />}
                      </RequestState>
                    </>
                  );
                }}
              </RequestState>
            )}
            {start.isError && <ErrorMessage error={start.error} title="The install was not started" />}
          </DialogContent>
          <DialogActions>
            {jobId ? (
              <>
                <Button
                  onClick={() => {
                    onClose();
                    navigate(`/jobs/${jobId}`);
                  }}
                >
                  Open the report page
                </Button>
                <Button appearance="primary" onClick={onClose}>
                  Close
                </Button>
              </>
            ) : (
              <>
                <Button onClick={onClose}>Cancel</Button>
                <Button appearance="primary" onClick={submit} disabled={!wsId || start.isPending || !app.data}>
                  {start.isPending ? 'Starting…' : 'Install'}
                </Button>
              </>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
