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
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { type Job, startDeleteLive } from '../api/lifecycle';
import type { Item } from '../api/types';
import { JobRun } from './JobRun';
import { ErrorMessage } from './RequestState';

/** Live states whose resource exists (or may) in the backing service: deleting the item can take it along. */
const HAS_LIVE = new Set<Item['liveState']>(['created', 'changed', 'drifted', 'remediation', 'failed']);

/**
 * Deletes an item. One with a live resource offers "also delete it in its backing service" (deleteLive: an uninstall
 * job of the item, followed here); otherwise only the stored item goes and the live resource stays.
 */
export function DeleteItemDialog({ item, onClose, onDeleted }: { item: Item; onClose: () => void; onDeleted: () => void }) {
  const qc = useQueryClient();
  const live = HAS_LIVE.has(item.liveState);
  const [deleteLive, setDeleteLive] = useState(live);
  const [jobId, setJobId] = useState<string>();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const [ended, setEnded] = useState<Job>();
  const gone = () => {
    void qc.invalidateQueries({ queryKey: ['items', item.workspaceId] });
    void qc.invalidateQueries({ queryKey: ['installed-apps', item.workspaceId] });
    qc.removeQueries({ queryKey: ['item', item.workspaceId, item.id] });
    onDeleted();
  };
  const remove = async () => {
    setPending(true);
    setError(undefined);
    try {
      if (live && deleteLive) setJobId((await startDeleteLive(item.workspaceId, item.id)).id);
      else {
        await api('DELETE', `/api/workspaces/${item.workspaceId}/items/${item.id}`);
        gone();
      }
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>Delete {item.displayName}?</DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 12 }}>
            {!jobId ? (
              <>
                <Text>The stored item, its content and its lineage edges are deleted from this workspace.</Text>
                {live ? (
                  <Checkbox
                    label="Also delete its live resource in the backing service (a data store loses its data)"
                    checked={deleteLive}
                    onChange={(_, d) => setDeleteLive(!!d.checked)}
                  />
                ) : (
                  <Text size={200}>Nothing of it is live in a backing service.</Text>
                )}
                {live && !deleteLive && (
                  <Text size={200} weight="semibold">
                    The live resource stays in its backing service, no longer managed by this service.
                  </Text>
                )}
              </>
            ) : (
              <>
                <JobRun
                  jobId={jobId}
                  onEnd={(job) => {
                    setEnded(job);
                    void qc.invalidateQueries({ queryKey: ['items', item.workspaceId] });
                  }}
                />
                {ended && ended.status !== 'done' && (
                  <Text weight="semibold" role="alert">
                    The live resource could not be deleted, so the item was kept. Fix what the step names and try again.
                  </Text>
                )}
              </>
            )}
            {error ? <ErrorMessage error={error} title="The item could not be deleted" /> : null}
          </DialogContent>
          <DialogActions>
            {/* Once the job deleted the item, its page is gone: closing goes back to the workspace. */}
            <Button onClick={ended?.status === 'done' ? gone : onClose}>{jobId ? 'Close' : 'Cancel'}</Button>
            {!jobId && (
              <Button
                appearance="primary"
                disabled={pending}
                onClick={() => void remove()}
                style={{ backgroundColor: 'var(--colorPaletteRedBackground3)' }}
              >
                {pending ? 'Working…' : 'Delete'}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
