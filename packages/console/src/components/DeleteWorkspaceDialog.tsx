import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Text,
} from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { useInstalledApps } from '../api/installed-apps';
import { deleteWorkspace, type Job } from '../api/lifecycle';
import type { Workspace } from '../api/types';
import { JobRun } from './JobRun';
import { ErrorMessage } from './RequestState';

type Stage = { kind: 'confirm' } | { kind: 'has-apps'; message: string } | { kind: 'uninstalling'; jobId: string };

/**
 * Confirms deleting a workspace and every item in it. A workspace with installed apps is refused (409
 * workspace_has_apps): the dialog names the apps and offers to uninstall them and delete (force), following that job.
 */
export function DeleteWorkspaceDialog({
  workspace,
  onClose,
  onDeleted,
}: {
  workspace: Workspace;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const qc = useQueryClient();
  const apps = useInstalledApps(workspace.id);
  const [stage, setStage] = useState<Stage>({ kind: 'confirm' });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const [ended, setEnded] = useState<Job>();
  const gone = () => {
    qc.removeQueries({ queryKey: ['workspace', workspace.id] });
    void qc.invalidateQueries({ queryKey: ['workspaces'] });
    onClose();
    onDeleted?.();
  };
  const remove = async (force: boolean) => {
    setPending(true);
    setError(undefined);
    try {
      const r = await deleteWorkspace(workspace.id, force);
      if (r.job) setStage({ kind: 'uninstalling', jobId: r.job.id });
      else gone();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'workspace_has_apps') {
        void apps.refetch();
        setStage({ kind: 'has-apps', message: err.message });
      } else setError(err);
    } finally {
      setPending(false);
    }
  };
  const jobEnded = (job: Job) => {
    setEnded(job);
    void qc.invalidateQueries({ queryKey: ['installed-apps', workspace.id] });
    void qc.invalidateQueries({ queryKey: ['items', workspace.id] });
    // The job's finish deleted the workspace when every app came off.
    if (job.status === 'done') gone();
  };
  const names = apps.data?.map((a) => `${a.displayName} (${a.version})`) ?? [];
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined} style={stage.kind === 'uninstalling' ? { maxWidth: 820, width: '92vw' } : undefined}>
        <DialogBody>
          <DialogTitle>{stage.kind === 'confirm' ? 'Delete workspace?' : `Delete ${workspace.name}: apps are installed`}</DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 12 }}>
            {stage.kind === 'confirm' && (
              <Text>
                <strong>{workspace.name}</strong> and all of its items and lineage will be deleted.
              </Text>
            )}
            {stage.kind === 'has-apps' && (
              <MessageBar intent="warning" layout="multiline" data-testid="workspace-has-apps">
                <MessageBarBody>
                  <MessageBarTitle>This workspace has installed apps</MessageBarTitle>
                  {names.length ? (
                    <ul style={{ margin: '4px 0', paddingLeft: 18 }} data-testid="blocking-apps">
                      {apps.data?.map((a) => (
                        <li key={a.appId}>
                          {a.displayName} ({a.version})
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <div>{stage.message}</div>
                  )}
                  Their live resources would be left behind. Uninstall them first: their live resources are deleted (data stores are kept),
                  then the workspace is deleted.
                </MessageBarBody>
              </MessageBar>
            )}
            {stage.kind === 'uninstalling' && (
              <>
                <Text>
                  Uninstalling {names.length ? names.join(', ') : 'the installed apps'}; the workspace is deleted when they are off.
                </Text>
                <JobRun jobId={stage.jobId} onEnd={jobEnded} />
                {ended && ended.status !== 'done' && (
                  <Text weight="semibold" role="alert">
                    Not every app could be uninstalled, so the workspace was kept. Fix what the steps above name, then try again.
                  </Text>
                )}
              </>
            )}
            {error ? <ErrorMessage error={error} title="The workspace could not be deleted" /> : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{stage.kind === 'uninstalling' ? 'Close' : 'Cancel'}</Button>
            {stage.kind !== 'uninstalling' && (
              <Button
                appearance="primary"
                disabled={pending}
                onClick={() => void remove(stage.kind === 'has-apps')}
                style={{ backgroundColor: 'var(--colorPaletteRedBackground3)' }}
              >
                {pending ? 'Working…' : stage.kind === 'has-apps' ? 'Uninstall them and delete' : 'Delete'}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
