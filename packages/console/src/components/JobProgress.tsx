import { useEffect, useRef, useState } from 'react';
import { Field, ProgressBar, Spinner, Text, makeStyles } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useJob, useJobEvents, useRetryGated, useRetryStep, useStepEvents } from '../api/jobs';
import { GuardedButton } from './GuardedButton';
import { useCan } from '../api/access';
import { useApp } from '../api/catalog';
import type { AppDetail, InstallJob } from '../api/types';
import { useWorkspace } from '../api/workspaces';
import { ItemTypeIcon } from './ItemTypeIcon';
import { JobStatusBadge, outcomeText, PHASES, StepStatusBadge } from './JobStatus';
import { RequestState } from './RequestState';
import { StepRow } from './StepRow';

const useStyles = makeStyles({
  // Every step is shown: the page scrolls, never a region capped at part of the window.
  list: { display: 'grid', gap: '2px' },
  line: { display: 'flex', alignItems: 'center', gap: '8px', padding: '4px 0' },
});

/**
 * What an item without a step result says while the install runs: an item type the install keeps in this service only
 * (the app's plan or the report's backends say `stored`, or deploy is off) is "stored only", never "provisioning…".
 */
function storedText(it: { itemType: string; displayName: string }, j: InstallJob, app: AppDetail | undefined): string {
  const planned = app?.items.find((p) => p.itemType === it.itemType && p.displayName === it.displayName);
  if (!j.deploy || planned?.provisioning === 'stored' || j.provision?.backends?.[it.itemType] === 'stored') return 'stored only';
  return j.phase === 'provisioning' ? 'stored, provisioning…' : 'stored';
}

/** An install's progress (phase, percent), its items and step results as they land, and Retry of a gated or failed step. */
export function JobProgress({ jobId }: { jobId: string }) {
  const s = useStyles();
  const job = useJob(jobId);
  const running = !job.data || job.data.status === 'running';
  useJobEvents(jobId, running);
  const seen = useStepEvents(jobId).data;
  const retry = useRetryStep(jobId);
  const app = useApp(job.data?.appId);
  const allow = useCan(useWorkspace(job.data?.workspaceId ?? '').data);
  const mayRetry = allow('job.retry');
  const qc = useQueryClient();
  // Steps re-opened from this page: their rows show "Retrying…" until the worker has run them and the job has ended.
  const [retried, setRetried] = useState<ReadonlySet<number>>(new Set());
  // Steps retried from this page since it opened: one still gated or failed after its run says it was refused again.
  const [everRetried, setEverRetried] = useState<ReadonlySet<number>>(new Set());
  const retryAll = useRetryGated(jobId);
  // While a retried job runs again it has no report (SPEC.md): the page keeps showing the last one it had.
  const lastReport = useRef<{ jobId: string; report: InstallJob['provision'] }>(undefined);
  if (job.data?.provision) lastReport.current = { jobId, report: job.data.provision };
  const report = job.data?.provision ?? (running && lastReport.current?.jobId === jobId ? lastReport.current.report : undefined);
  useEffect(() => {
    if (!retried.size || running || retry.isPending || retryAll.isPending) return;
    setRetried(new Set());
    // The worker has run the retried steps: the items' live state and the job list changed.
    void qc.invalidateQueries({ queryKey: ['items', job.data!.workspaceId] });
    void qc.invalidateQueries({ queryKey: ['jobs'] });
    void qc.invalidateQueries({ queryKey: ['edges', job.data!.workspaceId] });
  }, [retried, running, retry.isPending, retryAll.isPending, qc, job.data]);
  const gated = report?.steps.filter((st) => st.result.status === 'remediation').map((st) => st.stepIndex) ?? [];
  const startRetryAll = () => {
    setEverRetried((prev) => new Set([...prev, ...gated]));
    setRetried(new Set(gated));
    retryAll.mutate(gated);
  };
  const startRetry = (stepIndex: number) => {
    setEverRetried((prev) => new Set([...prev, stepIndex]));
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
          {report && (gated.length > 0 || retryAll.isPending) && (
            <div className={s.line}>
              <GuardedButton
                icon={retryAll.isPending ? <Spinner size="tiny" /> : <ArrowClockwise20Regular />}
                onClick={startRetryAll}
                disabled={running || retryAll.isPending || retry.isPending}
                permission={mayRetry}
              >
                {retryAll.isPending ? 'Retrying the gated steps…' : `Retry all gated steps (${gated.length})`}
              </GuardedButton>
              <Text size={200}>after an admin has fixed what the gates name</Text>
            </div>
          )}
          {retryAll.isError && (
            <Text size={200} role="alert" data-testid="retry-all-error">
              Retry of the gated steps stopped: {(retryAll.error as Error).message}
            </Text>
          )}
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
                    retrying={retried.has(step.stepIndex) && (running || retry.isPending || retryAll.isPending)}
                    refusedAgain={everRetried.has(step.stepIndex)}
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
                      {ev ? <StepStatusBadge status={ev.status} /> : <Text size={200}>{storedText(it, j, app.data)}</Text>}
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
