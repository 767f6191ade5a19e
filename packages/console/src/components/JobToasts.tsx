import { Toaster } from '@fluentui/react-components';
import { JobWatcher } from './JobWatcher';

/** The toaster and the follower of started installs, loaded together by JobNotifications. */
export function JobToasts({ toasterId }: { toasterId: string }) {
  return (
    <>
      <Toaster toasterId={toasterId} position="bottom-end" pauseOnHover />
      <JobWatcher toasterId={toasterId} />
    </>
  );
}
