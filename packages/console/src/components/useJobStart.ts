import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/**
 * Starting a lifecycle job from a dialog: `start` runs the call that answers the job, keeps its id, and the error of a
 * refused start; `ended` refreshes what a finished job changes in the workspace (its apps, items, drift and edges).
 */
export function useJobStart(workspaceId: string) {
  const qc = useQueryClient();
  const [jobId, setJobId] = useState<string>();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>();
  const start = async (call: () => Promise<{ id: string }>) => {
    setStarting(true);
    setError(undefined);
    try {
      setJobId((await call()).id);
    } catch (err) {
      setError(err);
    } finally {
      setStarting(false);
    }
  };
  const ended = () => {
    for (const key of ['installed-apps', 'items', 'drift', 'edges']) void qc.invalidateQueries({ queryKey: [key, workspaceId] });
  };
  return { jobId, starting, error, start, ended };
}
