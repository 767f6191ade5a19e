import { useState } from 'react';
import { Button, CounterBadge } from '@fluentui/react-components';
import { History20Regular } from '@fluentui/react-icons';
import { useTrackedJobs } from '../api/tracked-jobs';
import { lazyDialog } from './lazy';

// The drawer (and the job list's code) loads on the first click: the first page shows only the button.
const JobsTrayDrawer = lazyDialog(() => import('./JobsTrayDrawer').then((m) => m.JobsTrayDrawer));

/** The jobs tray: running and recent installs, opened from the brand bar. */
export function JobsTray() {
  const [open, setOpen] = useState(false);
  const running = useTrackedJobs().filter((t) => !t.notified).length;
  return (
    <>
      <Button
        appearance="transparent"
        icon={<History20Regular />}
        style={{ color: 'inherit' }}
        onClick={() => setOpen(true)}
        aria-label={`Install jobs${running ? `, ${running} running` : ''}`}
        data-testid="jobs-tray-button"
      >
        Jobs{running > 0 && <CounterBadge count={running} size="small" color="informative" style={{ marginLeft: 6 }} />}
      </Button>
      <JobsTrayDrawer open={open} onOpenChange={setOpen} />
    </>
  );
}
