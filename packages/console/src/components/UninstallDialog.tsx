import { useState } from 'react';
import {
  Button,
  Checkbox,
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
import { startUninstall, useLifecyclePlan } from '../api/lifecycle';
import type { InstalledApp } from '../api/types';
import { JobRun } from './JobRun';
import { LifecyclePlanView } from './LifecyclePlanView';
import { ErrorMessage } from './RequestState';
import { useJobStart } from './useJobStart';

/**
 * Uninstalls an app: the uninstall plan first (what is deleted, what is kept), "also delete data" with a data-loss
 * warning, then the job with each item's result (deleted, kept, not found, needs an admin, failed).
 */
export function UninstallDialog({ app, workspaceId, onClose }: { app: InstalledApp; workspaceId: string; onClose: () => void }) {
  const [purgeData, setPurgeData] = useState(false);
  const { jobId, starting, error, start: startJob, ended } = useJobStart(workspaceId);
  const plan = useLifecyclePlan(app.appId, { workspaceId, operation: 'uninstall', purgeData });
  const lost = plan.data?.items.filter((i) => i.dataLoss) ?? [];
  const start = () => startJob(() => startUninstall(workspaceId, app.appId, purgeData));
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined} style={{ maxWidth: 820, width: '92vw' }}>
        <DialogBody>
          <DialogTitle>Uninstall {app.displayName}?</DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 12 }}>
            {!jobId ? (
              <>
                <Text>
                  The app's live resources are deleted from their backing services, last-created first, and then its items and lineage are
                  removed from this workspace. Data stores are kept unless you choose otherwise below.
                </Text>
                <Checkbox
                  label="Also delete data (lakehouses, warehouses, KQL databases, search indexes)"
                  checked={purgeData}
                  onChange={(_, d) => setPurgeData(!!d.checked)}
                />
                {purgeData && (
                  <MessageBar intent="error" layout="multiline" data-testid="data-loss-warning">
                    <MessageBarBody>
                      <MessageBarTitle>The data in these stores is deleted for good</MessageBarTitle>
                      Tables, files, documents and databases
                      {lost.length ? ` in ${lost.map((i) => i.displayName).join(', ')}` : ''} cannot be recovered by the service. Leave this
                      unchecked to keep them.
                    </MessageBarBody>
                  </MessageBar>
                )}
                <LifecyclePlanView plan={plan} label="Uninstall plan" />
                {error ? <ErrorMessage error={error} title="The uninstall was refused" /> : null}
              </>
            ) : (
              <JobRun jobId={jobId} onEnd={ended} />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{jobId ? 'Close' : 'Cancel'}</Button>
            {!jobId && (
              <Button
                appearance="primary"
                onClick={() => void start()}
                disabled={starting || (!plan.data && !plan.isError)}
                style={{ backgroundColor: 'var(--colorPaletteRedBackground3)' }}
              >
                {starting ? 'Starting…' : purgeData ? 'Uninstall and delete data' : 'Uninstall'}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
