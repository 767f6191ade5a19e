import { Badge, Button, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { type PlanRequest, useInstallPlan } from '../api/plan';
import type { AppDetail, PlanItem, Item } from '../api/types';
import { ItemTypeIcon } from './ItemTypeIcon';
import { BackendBadge } from './BackendLabel';
import { ErrorMessage } from './RequestState';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gap: '2px',
    maxHeight: '320px',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 8px',
  },
  // Icon, name, action, where it lives: one line; the notes below span from the name to the end.
  row: { display: 'grid', gridTemplateColumns: '20px minmax(0, 1fr) auto auto', gap: '8px', alignItems: 'center', padding: '4px 0' },
  detail: { gridColumn: '2 / -1', color: tokens.colorNeutralForeground3 },
  gate: { gridColumn: '2 / -1', color: tokens.colorPaletteDarkOrangeForeground1 },
  diff: {
    gridColumn: '2 / -1',
    margin: 0,
    maxHeight: '220px',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    background: tokens.colorNeutralBackground3,
    padding: '6px',
    whiteSpace: 'pre',
  },
});

type BadgeColor = 'brand' | 'success' | 'informative' | 'warning' | 'danger' | 'subtle';
// The install's actions; the plan's other operations (upgrade, uninstall) add theirs, shown by LifecyclePlanView.
const ACTION: Record<string, { label: string; color: BadgeColor }> = {
  create: { label: 'create', color: 'brand' },
  update: { label: 'update', color: 'warning' },
  'no-change': { label: 'no change', color: 'success' },
  blocked: { label: 'blocked', color: 'danger' },
  failed: { label: 'read failed', color: 'danger' },
  stored: { label: 'stored only', color: 'subtle' },
};

/** One item of the live plan: its action, then the gate, the failure or the diff (expandable) that goes with it. */
function PlanRow({ item }: { item: PlanItem }) {
  const s = useStyles();
  const action = ACTION[item.action] ?? { label: item.action, color: 'informative' as const };
  return (
    <div className={s.row} data-testid="plan-item" data-action={item.action}>
      <ItemTypeIcon itemType={item.itemType} title={item.itemType} />
      <Text truncate wrap={false}>
        {item.displayName}
      </Text>
      <Badge appearance="tint" color={action.color}>
        {action.label}
      </Badge>
      <BackendBadge backend={(item.backend as Item['backend']) ?? null} />
      {item.action === 'stored' && item.message && (
        <Text size={200} className={s.detail} data-testid="stored-reason">
          {item.message}
        </Text>
      )}
      {item.gate && (
        <Text size={200} className={s.gate} role="note">
          {item.gate.reason}: {item.gate.remediation}
        </Text>
      )}
      {item.action === 'failed' && (
        <Text size={200} className={s.gate}>
          {item.error ?? item.message}
        </Text>
      )}
      {item.message && item.action === 'update' && (
        <Text size={200} className={s.detail}>
          {item.message}
        </Text>
      )}
      {item.diff && (
        <details className={s.detail}>
          <summary>What changes ({item.diff.split('\n').filter((l) => /^[-+][^-+]/.test(l)).length} lines)</summary>
          <pre className={s.diff} data-testid="plan-diff">
            {item.diff}
          </pre>
        </details>
      )}
    </div>
  );
}

/** What installing the app would do now, item by item: read live from the backing services before Install. */
export function InstallPlan({ app, request }: { app: AppDetail; request: PlanRequest | undefined }) {
  const s = useStyles();
  const plan = useInstallPlan(app.id, request);
  const counts = plan.data?.items.reduce<Record<string, number>>((n, i) => ({ ...n, [i.action]: (n[i.action] ?? 0) + 1 }), {});
  return (
    <section aria-label="Install plan">
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 4 }}>
        <Text weight="semibold">Plan</Text>
        <Button size="small" appearance="subtle" onClick={() => void plan.refetch()} disabled={plan.isFetching || !request}>
          Plan again
        </Button>
      </div>
      {request?.deploy === false && (
        <Text block size={200} style={{ marginBottom: 6 }}>
          Nothing is provisioned: deploy is off.
        </Text>
      )}
      {plan.isFetching && !plan.data && <Spinner size="tiny" label="Reading the live state of each item…" labelPosition="after" />}
      {plan.isError && <ErrorMessage error={plan.error} title="The plan could not be made" />}
      {plan.data && counts && (
        <>
          <Text block size={200} style={{ marginBottom: 6 }} data-testid="plan-summary">
            {app.items.length} items, version {plan.data.version}:{' '}
            {Object.entries(counts)
              .map(([action, n]) => `${n} ${ACTION[action]?.label ?? action}`)
              .join(', ')}
            . Nothing has been changed yet.
          </Text>
          {/* A scroll box: focusable and named, so a keyboard user can scroll it (axe: scrollable-region-focusable). */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard */}
          <section className={s.list} aria-label="Planned items" tabIndex={0}>
            {plan.data.items.map((i) => (
              <PlanRow key={i.key} item={i} />
            ))}
          </section>
        </>
      )}
    </section>
  );
}
