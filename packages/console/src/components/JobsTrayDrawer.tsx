import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  makeStyles,
  OverlayDrawer,
  ProgressBar,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons';
import { Link as RouterLink } from 'react-router-dom';
import { useApps } from '../api/catalog';
import { useJobs } from '../api/jobs';
import { JobStatusBadge, PHASES } from './JobStatus';
import { RequestState } from './RequestState';

const useStyles = makeStyles({
  entry: { display: 'grid', gap: '4px', padding: '10px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  row: { display: 'flex', alignItems: 'center', gap: '8px', justifyContent: 'space-between' },
  link: { color: tokens.colorBrandForegroundLink, fontWeight: tokens.fontWeightSemibold },
});

/** The jobs tray's drawer: running and recent installs (its code loads when the tray first opens). */
export function JobsTrayDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const s = useStyles();
  return (
    <OverlayDrawer position="end" open={open} onOpenChange={(_, d) => onOpenChange(d.open)} size="medium">
      <DrawerHeader>
        <DrawerHeaderTitle
          action={<Button appearance="subtle" aria-label="Close" icon={<Dismiss24Regular />} onClick={() => onOpenChange(false)} />}
        >
          Install jobs
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>{open && <TrayList className={s} onNavigate={() => onOpenChange(false)} />}</DrawerBody>
    </OverlayDrawer>
  );
}

function TrayList({ className: s, onNavigate }: { className: ReturnType<typeof useStyles>; onNavigate: () => void }) {
  const jobs = useJobs(undefined, true);
  const apps = useApps();
  const name = (id: string) => apps.data?.find((a) => a.id === id)?.displayName ?? id;
  return (
    <RequestState query={jobs} label="install jobs">
      {(list) => {
        const sorted = [...list]
          .sort((a, b) => Number(b.status === 'running') - Number(a.status === 'running') || b.createdAt.localeCompare(a.createdAt))
          .slice(0, 15);
        if (!sorted.length) return <Text>No installs yet. Start one from the App catalog.</Text>;
        return sorted.map((j) => (
          <div key={j.id} className={s.entry} data-testid="tray-job">
            <div className={s.row}>
              <RouterLink to={`/jobs/${j.id}`} className={s.link} onClick={onNavigate}>
                {name(j.appId)}
              </RouterLink>
              <JobStatusBadge status={j.status} />
            </div>
            <Text size={200}>
              {PHASES[j.phase]} · {j.percentComplete}% · started {new Date(j.createdAt).toLocaleString()}
            </Text>
            {j.status === 'running' && <ProgressBar value={j.percentComplete / 100} aria-label={`${name(j.appId)} progress`} />}
          </div>
        ));
      }}
    </RequestState>
  );
}
