import { useEffect, useRef } from 'react';
import { Field, ProgressBar, Text, makeStyles } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import { type Job, useLifecycleJob } from '../api/lifecycle';
import { JobStatusBadge } from './JobStatus';
import { LifecycleStep, STEP_STATUS } from './LifecycleStep';
import { RequestState } from './RequestState';

const useStyles = makeStyles({
  // Every step is shown: the page scrolls, never a region capped at part of the window.
  list: { display: 'grid', gap: '2px' },
  line: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
});

const KIND: Record<Job['kind'], string> = {
  install: 'Install',
  upgrade: 'Upgrade',
  uninstall: 'Uninstall',
  apply: 'Apply',
  drift: 'Drift check',
};

const PHASE: Record<string, string> = {
  'creating-items': 'Creating items',
  provisioning: 'Provisioning',
  applying: 'Applying',
  reading: 'Reading the live state',
  removing: 'Removing',
  upgrading: 'Upgrading',
  finalizing: 'Finalizing',
  done: 'Done',
};

/** The finished steps counted by status, in words ("2 updated, 1 conflict"). */
export const summaryText = (job: Job) =>
  Object.entries(job.summary)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${STEP_STATUS[status]?.label ?? status}`)
    .join(', ');

/**
 * Any job's progress (install, upgrade, uninstall, apply, drift): its phase and percent, a progress bar, and each step's
 * result as it lands (`compact`: without them, where the page lists the results its own way). Polled every second while
 * it runs; `onEnd` is called once with the finished job.
 */
export function JobRun({ jobId, onEnd, compact }: { jobId: string; onEnd?: (job: Job) => void; compact?: boolean }) {
  const s = useStyles();
  const job = useLifecycleJob(jobId);
  const ended = useRef<string>(undefined);
  useEffect(() => {
    if (!job.data || job.data.status === 'running' || ended.current === jobId) return;
    ended.current = jobId;
    onEnd?.(job.data);
  }, [job.data, jobId, onEnd]);
  return (
    <RequestState query={job} label="the job">
      {(j) => {
        const done = j.steps.filter((st) => st.result).length;
        return (
          <section
            style={{ display: 'grid', gap: 10 }}
            aria-label={`${KIND[j.kind]} job`}
            data-testid="lifecycle-job"
            data-kind={j.kind}
            data-job-status={j.status}
          >
            <div className={s.line}>
              <JobStatusBadge status={j.status} />
              <Text weight="semibold" data-testid="job-phase">
                {KIND[j.kind]} · {PHASE[j.phase] ?? j.phase}
              </Text>
              <Text>· {j.percentComplete}%</Text>
              <Link to={`/jobs/${j.id}`} style={{ marginLeft: 'auto', fontSize: 12 }}>
                Job {j.id.slice(0, 8)}
              </Link>
            </div>
            <Field
              validationState="none"
              validationMessage={
                <span data-testid="job-summary">
                  {j.status === 'running' ? `${done} of ${j.steps.length} steps done` : summaryText(j) || 'nothing to do'}
                </span>
              }
            >
              <ProgressBar
                value={j.percentComplete / 100}
                thickness="large"
                aria-label={`${KIND[j.kind]} progress`}
                color={j.status === 'failed' ? 'error' : j.status === 'partial' ? 'warning' : 'brand'}
              />
            </Field>
            {!compact ? (
              <section className={s.list} aria-label="Per-item results">
                {j.steps.map((st) => (
                  <LifecycleStep key={st.stepIndex} step={st} />
                ))}
              </section>
            ) : null}
          </section>
        );
      }}
    </RequestState>
  );
}
