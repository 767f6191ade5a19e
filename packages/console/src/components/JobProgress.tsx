import { useEffect, useRef, useState } from 'react';
import { Field, ProgressBar, Text, makeStyles } from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { useJob, useJobEvents, useRetryStep, useStepEvents } from '../api/jobs';
import { useCan } from '../api/access';
import type { InstallJob } from '../api/types';
import { useWorkspace } from '../api/workspaces';
import { ItemTypeIcon } from './ItemTypeIcon';
import { JobStatusBadge, outcomeText, PHASES, StepStatusBadge } from './JobStatus';
import { RequestState } from './RequestState';
import { StepRow } from './StepRow';

const useStyles = makeStyles({
  list: { display: 'grid', gap: '2px', maxHeight: '46vh', overflowY: 'auto', paddingRight: '4px' },
  line: { display: 'flex', alignItems: 'center', gap: '8px', padding: '4px 0' },
});

/** An install's progress (phase, percent), its items and step results as they land, and Retry of a gated or failed step. */
export function JobProgress({ jobId }: { jobId: string }) {
  const s = useStyles();
  const job = useJob(jobId);
  const running = !job.data || job.data.status === 'running';
  useJobEvents(jobId, running);
  const seen = useStepEvents(jobId).data;
  const retry = useRetryStep(jobId);
  const allow = useCan(useWorkspace(job.data?.workspaceId ?? '').data);
  const mayRetry = allow('job.retry');
  const qc = useQueryClient();
  // Steps re-opened from this page: their rows show "Retrying…" until the worker has run them and the job has ended.
  const [retried, setRetried] = useState<ReadonlySet<number>>(new Set());
  // While a retried job runs again it has no report (SPEC.md): the page keeps showing the last one it had.
  const lastReport = useRef<{ jobId: string; report: InstallJob['provision'] }>(undefined);
  if (job.data?.provision) lastReport.current = { jobId, report: job.data.provision };
  const report = job.data?.provision ?? (running && lastReport.current?.jobId === jobId ? lastReport.current.report : undefined);
  useEffect(() => {
    if (!retried.size || running || retry.isPending) return;
    setRetried(new Set());
    // The worker has run the retried steps: the items' live state and the job list changed.
    void qc.invalidateQueries({ queryKey: ['items', job.data!.workspaceId] });
    void qc.invalidateQueries({ queryKey: ['jobs'] });
    void qc.invalidateQueries({ queryKey: ['edges', job.data!.workspaceId] });
  }, [retried, running, retry.isPending, qc, job.data]);
  const startRetry = (stepIndex: number) => {
    setRetried((prev) => new Set([...(running ? prev : []), stepIndex]));
    // A refused retry (409 while a worker runs the job) is shown on its row, which stops showing "Retrying…".
    retry.mutate(stepIndex, { onError: () => setRetried((prev) => new Set([...prev].filter((i) => i !== stepIndex))) });
  };
  return (
    <RequestState query={job} label="the install job">
      {(j) => (
        <div style={{ display: 'grid', gap: 12 }} data-testid="job-progress" data-job-status={j.status}>
          <div className={s.line}>
            <JobStatusBadge status={j.status} />
            <Text weight="semibold" data-testid="job-phase">
              {PHASES[j.phase]}
            </Text>
            <Text>· {j.percentComplete}%</Text>
            <Text size={200}>· {j.deploy ? `deploy on, ${j.mode}` : 'deploy off (stored only)'}</Text>
          </div>
          <Field validationMessage={running ? `${j.createdItems} of ${j.totalItems} items created` : outcomeText(j)} validationState="none">
            <ProgressBar
              value={j.percentComplete / 100}
              thickness="large"
              aria-label="Install progress"
              color={j.status === 'failed' ? 'error' : j.status === 'partial' ? 'warning' : 'brand'}
            />
          </Field>
          <section className={s.list} aria-label="Per-item results">
            {report
              ? report.steps.map((step) => (
                  <StepRow
                    key={step.stepIndex}
                    step={step}
                    onRetry={
                      step.result.status === 'remediation' || step.result.status === 'failed' ? () => startRetry(step.stepIndex) : undefined
                    }
                    retryPermission={mayRetry}
                    retrying={retried.has(step.stepIndex) && (running || retry.isPending)}
                    // A worker runs the job: another step can be retried once it has finished.
                    retryDisabled={running}
                    retryError={retry.isError && retry.variables === step.stepIndex ? (retry.error as Error).message : undefined}
                  />
                ))
              : j.installed.map((it, i) => {
                  const ev = Object.values(seen).find((e) => e.displayName === it.displayName && e.itemType === it.itemType);
                  return (
                    <div key={it.id ?? i} className={s.line} data-testid="installed-item">
                      <ItemTypeIcon itemType={it.itemType} title={it.itemType} />
                      <Text style={{ flexGrow: 1 }}>{it.displayName}</Text>
                      {ev ? (
                        <StepStatusBadge status={ev.status} />
                      ) : (
                        <Text size={200}>stored{j.phase === 'provisioning' ? ', provisioning…' : ''}</Text>
                      )}
                    </div>
                  );
                })}
            {!report && j.installed.length === 0 && <Text size={200}>Creating the app's items…</Text>}
          </section>
        </div>
      )}
    </RequestState>
  );
}
