import { Button } from '@fluentui/react-components';
import { useNavigate, useParams } from 'react-router-dom';
import { useApp } from '../api/catalog';
import { useJob } from '../api/jobs';
import { JobProgress } from '../components/JobProgress';
import { PageHeader } from '../components/PageHeader';

/** One install job: progress, the per-item report, and Retry of a step. */
export default function JobPage() {
  const { jobId = '' } = useParams();
  const job = useJob(jobId);
  const app = useApp(job.data?.appId);
  const navigate = useNavigate();
  const title = `Install of ${app.data?.displayName ?? job.data?.appId ?? 'an app'}`;
  return (
    <>
      <PageHeader
        title={title}
        crumbs={[
          { to: '/jobs', label: 'Install jobs' },
          { to: `/jobs/${jobId}`, label: title },
        ]}
        actions={
          job.data && (
            <>
              <Button onClick={() => navigate(`/workspaces/${job.data!.workspaceId}`)}>Open workspace</Button>
              <Button onClick={() => navigate(`/workspaces/${job.data!.workspaceId}/thread`)}>Lineage</Button>
            </>
          )
        }
      />
      <div style={{ maxWidth: 960 }}>
        <JobProgress jobId={jobId} />
      </div>
    </>
  );
}
