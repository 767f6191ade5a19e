import { ProgressBar, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import { useApps } from '../api/catalog';
import { useJobs } from '../api/jobs';
import { useWorkspaces } from '../api/workspaces';
import { JobStatusBadge, PHASES } from '../components/JobStatus';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';

/** Every install job of the tenant, newest first. */
export default function JobsPage() {
  const jobs = useJobs(undefined, true);
  const apps = useApps();
  const workspaces = useWorkspaces();
  const appName = (id: string) => apps.data?.find((a) => a.id === id)?.displayName ?? id;
  const wsName = (id: string) => workspaces.data?.find((w) => w.id === id)?.name ?? id;
  return (
    <>
      <PageHeader title="Install jobs" />
      <RequestState query={jobs} label="install jobs">
        {(list) =>
          list.length === 0 ? (
            <Text>No installs yet.</Text>
          ) : (
            <Table size="small" aria-label="Install jobs">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>App</TableHeaderCell>
                  <TableHeaderCell>Workspace</TableHeaderCell>
                  <TableHeaderCell style={{ width: 110 }}>Status</TableHeaderCell>
                  <TableHeaderCell style={{ width: 240 }}>Progress</TableHeaderCell>
                  <TableHeaderCell style={{ width: 180 }}>Started</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {[...list]
                  .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
                  .map((j) => (
                    <TableRow key={j.id}>
                      <TableCell>
                        <Link to={`/jobs/${j.id}`}>{appName(j.appId)}</Link>
                      </TableCell>
                      <TableCell>
                        <Link to={`/workspaces/${j.workspaceId}`}>{wsName(j.workspaceId)}</Link>
                      </TableCell>
                      <TableCell>
                        <JobStatusBadge status={j.status} />
                      </TableCell>
                      <TableCell>
                        <Text size={200}>
                          {PHASES[j.phase]} · {j.percentComplete}%{j.provision ? ` · ${j.provision.outcome}` : ''}
                        </Text>
                        {j.status === 'running' && (
                          <ProgressBar value={j.percentComplete / 100} aria-label={`${appName(j.appId)} progress`} />
                        )}
                      </TableCell>
                      <TableCell>{new Date(j.createdAt).toLocaleString()}</TableCell>
                    </TableRow>
                  ))}
              </TableBody>
            </Table>
          )
        }
      </RequestState>
    </>
  );
}
