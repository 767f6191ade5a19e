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
  Text,
} from '@fluentui/react-components';
import { startUpgrade, useLifecyclePlan } from '../api/lifecycle';
import type { InstalledApp } from '../api/types';
import { JobRun } from './JobRun';
import { LifecyclePlanView } from './LifecyclePlanView';
import { ErrorMessage } from './RequestState';
import { useJobStart } from './useJobStart';

/**
 * Upgrades an installed app to the catalog's version: the upgrade plan first (what changes, merges, conflicts, what the
 * new version dropped), "remove items the new version dropped" as a choice, then the job with its per-item results.
 */
export function UpgradeDialog({ app, workspaceId, onClose }: { app: InstalledApp; workspaceId: string; onClose: () => void }) {
  const [removeDropped, setRemoveDropped] = useState(false);
  const { jobId, starting, error, start: startJob, ended } = useJobStart(workspaceId);
  const plan = useLifecyclePlan(app.appId, { workspaceId, operation: 'upgrade', removeDropped });
  const to = app.catalogVersion ?? '?';
  const start = () => startJob(() => startUpgrade(workspaceId, app.appId, removeDropped));
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined} style={{ maxWidth: 860, width: '92vw' }}>
        <DialogBody>
          <DialogTitle>
            Upgrade {app.displayName} from {app.version} to {to}
          </DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 12 }}>
            {!jobId ? (
              <>
                <Text>
                  Changes between {app.version} and {to} are applied to each item. Where you edited an item, your edits are kept; an edit of
                  the same part the new version changes is reported as a conflict and never overwritten.
                </Text>
                <Checkbox
                  label="Remove items the new version dropped"
                  checked={removeDropped}
                  onChange={(_, d) => setRemoveDropped(!!d.checked)}
                />
                <LifecyclePlanView plan={plan} label="Upgrade plan" />
                {error ? <ErrorMessage error={error} title="The upgrade was refused" /> : null}
              </>
            ) : (
              <JobRun jobId={jobId} onEnd={ended} />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{jobId ? 'Close' : 'Cancel'}</Button>
            {!jobId && (
              <Button appearance="primary" onClick={() => void start()} disabled={starting || (!plan.data && !plan.isError)}>
                {starting ? 'Starting…' : `Upgrade to ${to}`}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
