import { useEffect } from 'react';
import { Link, Toast, ToastBody, ToastTitle, useToastController } from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useJob, useJobEvents } from '../api/jobs';
import { markNotified, useTrackedJobs, type TrackedJob } from '../api/tracked-jobs';
import { outcomeText } from './JobStatus';

const INTENT = { done: 'success', partial: 'warning', failed: 'error', running: 'info' } as const;

/** Follows one started install in the background and raises a notification naming the app when it ends. */
function WatchedJob({ tracked, toasterId }: { tracked: TrackedJob; toasterId: string }) {
  const { data: job } = useJob(tracked.jobId);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { dispatchToast } = useToastController(toasterId);
  useJobEvents(tracked.jobId, !job || job.status === 'running');

  useEffect(() => {
    if (!job) return;
    void qc.invalidateQueries({ queryKey: ['items', job.workspaceId] });
    if (job.status === 'running') return;
    void qc.invalidateQueries({ queryKey: ['jobs'] });
    void qc.invalidateQueries({ queryKey: ['edges', job.workspaceId] });
    markNotified(job.id);
    dispatchToast(
      <Toast data-testid="install-toast">
        <ToastTitle>
          {tracked.appName}: {job.status === 'failed' ? 'install failed' : 'install finished'}
        </ToastTitle>
        <ToastBody>
          {tracked.appName} {outcomeText(job)}.{' '}
          <Link
            href={`/jobs/${job.id}`}
            onClick={(e) => {
              e.preventDefault();
              navigate(`/jobs/${job.id}`);
            }}
          >
            See the report
          </Link>
        </ToastBody>
      </Toast>,
      { intent: INTENT[job.status], timeout: 15_000 },
    );
  }, [job, qc, dispatchToast, navigate, tracked.appName]);
  return null;
}

/** Background follower of every install this browser started and has not yet notified. */
export function JobWatcher({ toasterId }: { toasterId: string }) {
  const tracked = useTrackedJobs();
  return (
    <>
      {tracked
        .filter((t) => !t.notified)
        .map((t) => (
          <WatchedJob key={t.jobId} tracked={t} toasterId={toasterId} />
        ))}
    </>
  );
}
