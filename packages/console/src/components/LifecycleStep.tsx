import { Badge, Link, MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { JobStep, JobStepResult } from '../api/lifecycle';
import { changedLines, DiffView } from './DiffView';
import { ItemTypeIcon } from './ItemTypeIcon';
import { lineDiff } from './line-diff';

type Color = 'success' | 'warning' | 'danger' | 'informative' | 'subtle' | 'brand' | 'severe';

/** Every step status of every job kind, in words. */
export const STEP_STATUS: Record<string, { label: string; color: Color }> = {
  created: { label: 'created', color: 'success' },
  exists: { label: 'exists', color: 'success' },
  updated: { label: 'updated', color: 'success' },
  'no-change': { label: 'no change', color: 'subtle' },
  conflict: { label: 'conflict', color: 'severe' },
  'in-sync': { label: 'in sync', color: 'success' },
  drifted: { label: 'drifted', color: 'severe' },
  missing: { label: 'missing', color: 'danger' },
  deleted: { label: 'deleted', color: 'informative' },
  kept: { label: 'kept', color: 'success' },
  'not-found': { label: 'not found', color: 'subtle' },
  dropped: { label: 'dropped', color: 'informative' },
  stored: { label: 'stored only', color: 'subtle' },
  skipped: { label: 'skipped', color: 'subtle' },
  remediation: { label: 'needs an admin', color: 'warning' },
  failed: { label: 'failed', color: 'danger' },
  pending: { label: 'pending', color: 'brand' },
};

/** A step status as a badge (unknown statuses show as they are). */
export function StepBadge({ status }: { status: string }) {
  const s = STEP_STATUS[status] ?? { label: status, color: 'informative' as const };
  return (
    <Badge appearance="tint" color={s.color} data-testid="step-status">
      {s.label}
    </Badge>
  );
}

const useStyles = makeStyles({
  row: { display: 'grid', gap: '6px', padding: '8px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  line: { display: 'flex', alignItems: 'center', gap: '8px', minWidth: 0 },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  sides: { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '8px' },
  side: {
    margin: 0,
    padding: '6px',
    maxHeight: '200px',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    background: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
});

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v, null, 2));

/** The conflicts of an upgrade step: per content path, the installed version, the user's kept edit and the new version. */
export function ConflictView({ conflicts }: { conflicts: NonNullable<JobStepResult['conflicts']> }) {
  const s = useStyles();
  return (
    <div style={{ display: 'grid', gap: 8 }} data-testid="conflicts">
      <Text size={200}>
        You edited the same part the new version changes. Your version is kept and nothing was overwritten; merge the new version's change
        into the item yourself if you want it, then Apply.
      </Text>
      {conflicts.map((c) => (
        <div key={c.path} data-testid="conflict" data-path={c.path} style={{ display: 'grid', gap: 4 }}>
          <Text size={200} font="monospace" weight="semibold">
            {c.path}
          </Text>
          <DiffView
            diff={lineDiff(show(c.ours), show(c.theirs), ['yours', 'new version'])}
            label={`Yours against the new version at ${c.path}`}
          />
          <div className={s.sides}>
            {(
              [
                ['Installed version', c.base],
                ['Yours (kept)', c.ours],
                ['New version (not applied)', c.theirs],
              ] as const
            ).map(([label, value]) => (
              <div key={label} style={{ minWidth: 0 }}>
                <Text size={200} weight="semibold" block>
                  {label}
                </Text>
                <pre className={s.side} data-side={label}>
                  {show(value)}
                </pre>
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

/** A step's result in full: its diff, its conflicts, the gate an admin must clear, or the backing service's own error. */
export function StepResultDetail({ result }: { result: JobStepResult }) {
  return (
    <>
      {result.diff && (
        <details open={result.status === 'updated' || result.status === 'drifted'}>
          <summary>
            <Text size={200}>
              {result.status === 'drifted' ? 'Live against stored' : 'What changed'} ({changedLines(result.diff)} lines)
            </Text>
          </summary>
          <DiffView diff={result.diff} />
        </details>
      )}
      {result.conflicts?.length ? <ConflictView conflicts={result.conflicts} /> : null}
      {result.status === 'remediation' && result.gate && (
        <MessageBar intent="warning" layout="multiline" data-testid="remediation">
          <MessageBarBody>
            <MessageBarTitle>Needs an admin: {result.gate.reason}</MessageBarTitle>
            <span style={{ whiteSpace: 'pre-wrap' }}>{result.gate.remediation}</span>{' '}
            {result.gate.link && (
              <Link href={result.gate.link} target="_blank" rel="noreferrer">
                Open the setting
              </Link>
            )}
          </MessageBarBody>
        </MessageBar>
      )}
      {result.status === 'failed' && (
        <MessageBar intent="error" layout="multiline" data-testid="step-failed">
          <MessageBarBody>
            {result.error !== undefined ? (
              <>
                <MessageBarTitle>The backing service refused</MessageBarTitle>
                <code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{result.error}</code>
              </>
            ) : (
              <>
                <MessageBarTitle>Failed{result.code ? ` (${result.code})` : ''}</MessageBarTitle>
                {result.message ?? 'no description'}
              </>
            )}
          </MessageBarBody>
        </MessageBar>
      )}
      {result.status !== 'failed' && result.message && (
        <Text size={200} block>
          {result.message}
        </Text>
      )}
    </>
  );
}

/** One step of a lifecycle job: item, status (or "waiting" before it ran), and its result's detail. */
export function LifecycleStep({ step }: { step: JobStep }) {
  const s = useStyles();
  const r = step.result;
  return (
    <div className={s.row} data-testid="job-step" data-step={step.stepIndex} data-status={r?.status ?? 'waiting'}>
      <div className={s.line}>
        <ItemTypeIcon itemType={step.itemType} title={step.itemType} />
        <Text className={s.name} weight="semibold">
          {step.displayName}
        </Text>
        {r ? <StepBadge status={r.status} /> : <Text size={200}>{step.live ? 'waiting' : 'stored only'}</Text>}
      </div>
      {r?.resourceId && (
        <Text size={200} font="monospace" truncate wrap={false} block title={r.resourceId} style={{ paddingLeft: 28 }}>
          {r.resourceId}
        </Text>
      )}
      {r && <StepResultDetail result={r} />}
    </div>
  );
}
