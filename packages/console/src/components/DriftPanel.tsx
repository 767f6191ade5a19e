import { useState } from 'react';
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import { CloudArrowUp20Regular, DocumentSearch20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useItems } from '../api/items';
import { type DriftItem, startApply, startDriftCheck, useDriftReport } from '../api/lifecycle';
import { type Permission, useCan } from '../api/access';
import type { Item, Workspace } from '../api/types';
import { GuardedButton } from './GuardedButton';
import { changedLines, DiffView } from './DiffView';
import { ItemTypeIcon } from './ItemTypeIcon';
import { JobRun, summaryText } from './JobRun';
import { StepBadge } from './LifecycleStep';
import { ErrorMessage, RequestState } from './RequestState';

const useStyles = makeStyles({
  row: { display: 'grid', gap: '6px', padding: '8px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  line: { display: 'flex', alignItems: 'center', gap: '8px', minWidth: 0 },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/**
 * A drifted or missing item: the difference live against stored, and Apply, which writes the stored content back. An
 * item whose live state moved on since the check (applied, say) says so instead of offering Apply again.
 */
function DriftRow({
  item,
  workspaceId,
  now,
  applyAllowed,
}: {
  item: DriftItem;
  workspaceId: string;
  now?: Item['liveState'] | 'gone';
  applyAllowed: Permission;
}) {
  const s = useStyles();
  const qc = useQueryClient();
  const [jobId, setJobId] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [starting, setStarting] = useState(false);
  const apply = async () => {
    if (!item.itemId) return;
    setStarting(true);
    setError(undefined);
    try {
      setJobId((await startApply(workspaceId, item.itemId)).id);
    } catch (err) {
      setError(err);
    } finally {
      setStarting(false);
    }
  };
  const resolved = !jobId && now !== undefined && now !== 'drifted' && now !== 'missing';
  return (
    <div className={s.row} data-testid="drift-item" data-status={item.status} data-resolved={resolved || undefined}>
      <div className={s.line}>
        <ItemTypeIcon itemType={item.itemType} title={item.itemType} />
        <Text className={s.name} weight="semibold">
          {item.itemId ? <Link to={`/workspaces/${workspaceId}/items/${item.itemId}`}>{item.displayName}</Link> : item.displayName}
        </Text>
        <StepBadge status={item.status} />
        {item.itemId && !jobId && !resolved && (
          <GuardedButton
            size="small"
            appearance="primary"
            icon={<CloudArrowUp20Regular />}
            permission={applyAllowed}
            disabled={starting}
            onClick={() => void apply()}
            aria-label={`Apply ${item.displayName}`}
          >
            Apply
          </GuardedButton>
        )}
      </div>
      {resolved ? (
        <Text size={200} weight="semibold" data-testid="drift-resolved">
          {now === 'created'
            ? 'Repaired since this check: the live resource holds the stored content again.'
            : `Its live state is now ${now}.`}
        </Text>
      ) : (
        <Text size={200}>
          {item.status === 'missing'
            ? 'The live resource was deleted outside the service. Apply creates it again from the stored content.'
            : 'The live resource was changed outside the service. Apply overwrites it with the stored content (lines marked - are live only, + stored only).'}
        </Text>
      )}
      {item.diff && !jobId && !resolved && (
        <details open>
          <summary>
            <Text size={200}>Live against stored ({changedLines(item.diff)} lines)</Text>
          </summary>
          <DiffView diff={item.diff} label={`Drift of ${item.displayName}`} />
        </details>
      )}
      {(item.error || item.message) && item.status === 'failed' && (
        <Text size={200}>
          <code>{item.error ?? item.message}</code>
        </Text>
      )}
      {error ? <ErrorMessage error={error} title="Apply was refused" /> : null}
      {jobId && (
        <JobRun
          jobId={jobId}
          onEnd={() => {
            void qc.invalidateQueries({ queryKey: ['items', workspaceId] });
          }}
        />
      )}
    </div>
  );
}

/**
 * Drift of a workspace's live items: "Check for drift" runs a drift job (followed here), and the last check's drifted
 * and missing items are listed with their difference and an Apply each.
 */
export function DriftPanel({ workspace }: { workspace: Workspace }) {
  const workspaceId = workspace.id;
  const allow = useCan(workspace);
  const qc = useQueryClient();
  const report = useDriftReport(workspaceId);
  const items = useItems(workspaceId);
  // What became of each reported item since the check: its live state now, or gone (deleted, uninstalled).
  const liveState = (id: string | null) => (items.data ? (items.data.find((i) => i.id === id)?.liveState ?? 'gone') : undefined);
  const [jobId, setJobId] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [starting, setStarting] = useState(false);
  const check = async () => {
    setStarting(true);
    setError(undefined);
    try {
      setJobId((await startDriftCheck(workspaceId)).id);
    } catch (err) {
      setError(err);
    } finally {
      setStarting(false);
    }
  };
  const ended = () => {
    void qc.invalidateQueries({ queryKey: ['drift', workspaceId] });
    void qc.invalidateQueries({ queryKey: ['items', workspaceId] });
  };
  return (
    <section aria-label="Drift" style={{ marginBottom: 16 }} data-testid="drift-panel">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 4 }}>
        <Text weight="semibold" as="h2" style={{ margin: 0 }}>
          Drift
        </Text>
        <GuardedButton
          size="small"
          icon={<DocumentSearch20Regular />}
          onClick={() => void check()}
          disabled={starting}
          permission={allow('drift.check')}
        >
          {starting ? 'Starting…' : 'Check for drift'}
        </GuardedButton>
      </div>
      {error ? <ErrorMessage error={error} title="The drift check was refused" /> : null}
      {jobId && (
        <div style={{ marginBottom: 8 }}>
          <JobRun key={jobId} jobId={jobId} onEnd={ended} compact />
        </div>
      )}
      <RequestState query={report} label="the last drift check">
        {(r) => {
          if (!r) return <Text size={200}>No drift check has run in this workspace yet.</Text>;
          const off = r.items.filter((i) => i.status !== 'in-sync' && i.status !== 'stored');
          return (
            <>
              <Text size={200} block data-testid="drift-summary">
                {r.job.status === 'running'
                  ? 'A drift check is running…'
                  : `Last checked ${new Date(r.job.finishedAt ?? r.job.updatedAt).toLocaleString()}: ${summaryText(r.job) || 'no live items'}.`}
                {r.job.status !== 'running' && !off.length ? ' Every live item matches its stored content.' : ''}
              </Text>
              {off.map((i) => (
                <DriftRow
                  key={`${r.job.id}-${i.itemId ?? i.displayName}`}
                  item={i}
                  workspaceId={workspaceId}
                  now={liveState(i.itemId)}
                  applyAllowed={allow('item.apply')}
                />
              ))}
            </>
          );
        }}
      </RequestState>
    </section>
  );
}
