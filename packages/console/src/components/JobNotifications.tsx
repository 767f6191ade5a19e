import { useState } from 'react';
import { useTrackedJobs } from '../api/tracked-jobs';
import { lazyPart } from './lazy';

const JobToasts = lazyPart(() => import('./JobToasts').then((m) => m.JobToasts));

/**
 * Notifications of the installs this browser follows. The toaster and the follower load once there is an install to
 * follow, not with the first page; they stay mounted afterwards so a raised notification is not taken down with them.
 */
export function JobNotifications({ toasterId }: { toasterId: string }) {
  const following = useTrackedJobs().some((t) => !t.notified);
  const [loaded, setLoaded] = useState(false);
  if (following && !loaded) setLoaded(true);
  return loaded || following ? <JobToasts toasterId={toasterId} /> : null;
}
