import { Badge, Tooltip } from '@fluentui/react-components';
import type { Item } from '../api/types';

type LiveState = Item['liveState'];
type Color = 'success' | 'warning' | 'danger' | 'informative' | 'subtle' | 'severe' | 'important';

/** Each live state in words, with what it means and what to do about it. */
export const LIVE_STATES: Record<LiveState, { label: string; color: Color; help: string }> = {
  'stored-only': {
    label: 'Stored only',
    color: 'subtle',
    help: 'This type is stored in the service only: it has no backing service, so there is nothing to provision or apply.',
  },
  'not-provisioned': {
    label: 'Not provisioned',
    color: 'informative',
    help: 'Nothing exists in the backing service yet. Open the item and Apply it (or install its app with deploy on) to create it.',
  },
  created: {
    label: 'Live',
    color: 'success',
    help: 'The backing service holds what is stored here. Nothing to do.',
  },
  changed: {
    label: 'Changed since provisioned',
    color: 'warning',
    help: 'The stored content was saved after it was provisioned, so the backing service still runs the older version. Open it and Apply to push your changes.',
  },
  drifted: {
    label: 'Drifted',
    color: 'severe',
    help: 'Someone changed the live resource outside the service. See the drift panel for the difference; Apply overwrites it with the stored content.',
  },
  missing: {
    label: 'Missing',
    color: 'danger',
    help: 'The live resource was deleted outside the service. Apply creates it again from the stored content.',
  },
  deleted: {
    label: 'Deleted',
    color: 'subtle',
    help: 'The service deleted the live resource on request; only the stored item remains. Apply creates it again.',
  },
  remediation: {
    label: 'Needs remediation',
    color: 'warning',
    help: 'A permission or setting in the backing service is missing. An admin must fix what the item page names, then Apply again.',
  },
  failed: {
    label: 'Failed',
    color: 'danger',
    help: 'The backing service refused the last operation. The item page shows its error text; fix the content and Apply again.',
  },
};

/** An item's live state as a badge, with a tooltip (reachable by keyboard) saying what it means and what to do. */
export function LiveStateBadge({ state }: { state: LiveState }) {
  const s = LIVE_STATES[state] ?? { label: state, color: 'informative' as const, help: state };
  return (
    <Tooltip content={s.help} relationship="description" withArrow>
      <Badge appearance="tint" color={s.color} tabIndex={0} data-testid="live-state" data-state={state}>
        {s.label}
      </Badge>
    </Tooltip>
  );
}
