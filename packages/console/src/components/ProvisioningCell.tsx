import { Text, Tooltip } from '@fluentui/react-components';
import type { ItemProvisioning } from '../api/types';
import { StepStatusBadge } from './JobStatus';

/** An item's live provisioning state in one cell: status, resource id, and the gate or error on hover. */
export function ProvisioningCell({ state }: { state: ItemProvisioning | null }) {
  if (!state)
    return (
      <Text size={200} italic>
        not provisioned
      </Text>
    );
  if (state.status === 'stored')
    return (
      <Tooltip content={state.message ?? 'kept in this service only'} relationship="description">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so a keyboard user can read why it is stored */}
        <Text size={200} italic tabIndex={0} wrap={false}>
          stored here
        </Text>
      </Tooltip>
    );
  const detail = state.gate ? `${state.gate.reason} — ${state.gate.remediation}` : (state.error ?? state.resourceId ?? '');
  const badge = <StepStatusBadge status={state.status} />;
  return (
    <span style={{ display: 'flex', gap: 6, alignItems: 'center', minWidth: 0, overflow: 'hidden' }}>
      {detail ? (
        <Tooltip content={detail} relationship="description">
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the badge takes focus so a keyboard user can open its tooltip (the gate or error) */}
          <span tabIndex={0}>{badge}</span>
        </Tooltip>
      ) : (
        badge
      )}
      {state.resourceId && (
        <Text size={200} font="monospace" truncate wrap={false} style={{ minWidth: 0 }} title={state.resourceId}>
          {state.resourceId}
        </Text>
      )}
    </span>
  );
}
