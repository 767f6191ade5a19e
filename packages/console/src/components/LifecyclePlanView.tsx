import { Badge, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { LifecyclePlan, LifecyclePlanItem } from '../api/lifecycle';
import { changedLines, DiffView } from './DiffView';
import { ItemTypeIcon } from './ItemTypeIcon';
import { ConflictView } from './LifecycleStep';
import { ErrorMessage } from './RequestState';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gap: '2px',
    maxHeight: '340px',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 8px',
  },
  row: { display: 'grid', gridTemplateColumns: '20px minmax(0, 1fr) auto', gap: '8px', alignItems: 'center', padding: '4px 0' },
  detail: { gridColumn: '2 / 4', minWidth: 0 },
  warn: { gridColumn: '2 / 4', color: tokens.colorPaletteRedForeground1 },
});

type Color = 'brand' | 'success' | 'informative' | 'warning' | 'danger' | 'subtle' | 'severe';
/** Every action of an install, upgrade or uninstall plan, in words. */
export const PLAN_ACTION: Record<LifecyclePlanItem['action'], { label: string; color: Color }> = {
  create: { label: 'create', color: 'brand' },
  update: { label: 'update', color: 'warning' },
  'no-change': { label: 'no change', color: 'success' },
  blocked: { label: 'blocked', color: 'danger' },
  failed: { label: 'read failed', color: 'danger' },
  stored: { label: 'stored only', color: 'subtle' },
  conflict: { label: 'conflict', color: 'severe' },
  remove: { label: 'remove', color: 'danger' },
  keep: { label: 'keep', color: 'success' },
  delete: { label: 'delete', color: 'danger' },
};

function PlanRow({ item }: { item: LifecyclePlanItem }) {
  const s = useStyles();
  const action = PLAN_ACTION[item.action] ?? { label: item.action, color: 'informative' as const };
  return (
    <div className={s.row} data-testid="plan-item" data-action={item.action} data-data-loss={item.dataLoss ? 'true' : undefined}>
      <ItemTypeIcon itemType={item.itemType} title={item.itemType} />
      <Text truncate wrap={false}>
        {item.displayName}
      </Text>
      <span style={{ display: 'inline-flex', gap: 4 }}>
        {item.dataLoss && (
          <Badge appearance="filled" color="danger" data-testid="data-loss">
            data lost
          </Badge>
        )}
        <Badge appearance="tint" color={action.color}>
          {action.label}
        </Badge>
      </span>
      {item.gate && (
        <Text size={200} className={s.warn} role="note">
          {item.gate.reason}: {item.gate.remediation}
        </Text>
      )}
      {item.action === 'failed' && (
        <Text size={200} className={s.warn}>
          {item.error ?? item.message}
        </Text>
      )}
      {item.action !== 'failed' && item.message && (
        <Text size={200} className={s.detail}>
          {item.message}
        </Text>
      )}
      {item.diff && (
        <details className={s.detail}>
          <summary>
            <Text size={200}>What changes ({changedLines(item.diff)} lines)</Text>
          </summary>
          <DiffView diff={item.diff} />
        </details>
      )}
      {item.conflicts?.length ? (
        <div className={s.detail}>
          <ConflictView conflicts={item.conflicts} />
        </div>
      ) : null}
    </div>
  );
}

/** A plan's items with their actions, and a count per action; nothing has changed yet. */
export function LifecyclePlanView({
  plan,
  label,
}: {
  plan: { data?: LifecyclePlan; isFetching: boolean; isError: boolean; error: unknown };
  label: string;
}) {
  const s = useStyles();
  if (plan.isError) return <ErrorMessage error={plan.error} title="The plan could not be made" />;
  if (!plan.data) return <Spinner size="tiny" label="Reading what would change…" labelPosition="after" />;
  const counts: Record<string, number> = {};
  for (const i of plan.data.items) counts[i.action] = (counts[i.action] ?? 0) + 1;
  return (
    <section aria-label={label} style={{ display: 'grid', gap: 6 }}>
      <Text size={200} data-testid="plan-summary">
        {plan.data.items.length} items:{' '}
        {Object.entries(counts)
          .map(([a, n]) => `${n} ${PLAN_ACTION[a as LifecyclePlanItem['action']]?.label ?? a}`)
          .join(', ')}
        . Nothing has been changed yet.{plan.isFetching ? ' Planning again…' : ''}
      </Text>
      {/* A scroll box: focusable and named, so a keyboard user can scroll it (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard */}
      <section className={s.list} aria-label="Planned items" tabIndex={0}>
        {plan.data.items.map((i) => (
          <PlanRow key={i.key} item={i} />
        ))}
      </section>
    </section>
  );
}
