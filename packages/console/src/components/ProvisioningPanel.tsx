import { Card, CardHeader, Link, MessageBar, MessageBarBody, MessageBarTitle, Text } from '@fluentui/react-components';
import type { Item } from '../api/types';
import { StepStatusBadge } from './JobStatus';
import { LIVE_STATES, LiveStateBadge } from './LiveStateBadge';
import { BackendBadge, PortalLink } from './BackendLabel';

/** An item's live state in words (what it means, what to do), its resource id, the last step, and its gate or error. */
export function ProvisioningPanel({ item, live }: { item: Item; live: boolean }) {
  const p = item.provisioning;
  return (
    <Card data-testid="provisioning-panel">
      <CardHeader header={<Text weight="semibold">Live state</Text>} action={<LiveStateBadge state={item.liveState} />} />
      <Text size={200} data-testid="live-state-help">
        {LIVE_STATES[item.liveState]?.help}
      </Text>
      {item.backend && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
          <Text size={200}>Lives in</Text>
          <BackendBadge backend={item.backend} />
          <PortalLink portal={item.portal} />
        </div>
      )}
      {!p && live && item.liveState === 'not-provisioned' && (
        <Text size={200}>Apply creates it in its backing service from the stored content.</Text>
      )}
      {p?.status === 'stored' && (
        <MessageBar intent="info" layout="multiline" data-testid="stored-reason">
          <MessageBarBody>
            <MessageBarTitle>Kept in this service</MessageBarTitle>
            {p.message}
          </MessageBarBody>
        </MessageBar>
      )}
      {p && p.status !== 'stored' && (
        <div style={{ display: 'grid', gap: 6 }}>
          <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <Text size={200}>Last step</Text>
            <StepStatusBadge status={p.status} />
          </div>
          <Text size={200}>Resource id</Text>
          <Text font="monospace" size={200} style={{ wordBreak: 'break-all' }}>
            {p.resourceId ?? '—'}
          </Text>
          {p.steps?.length ? (
            <>
              <Text size={200}>Last log line</Text>
              <Text size={200}>{p.steps[p.steps.length - 1]}</Text>
            </>
          ) : null}
          {p.at && <Text size={200}>Updated {new Date(p.at).toLocaleString()}</Text>}
          {p.gate && (
            <MessageBar intent="warning" layout="multiline">
              <MessageBarBody>
                <MessageBarTitle>{p.gate.reason}</MessageBarTitle>
                {p.gate.remediation}{' '}
                {p.gate.link && (
                  <Link href={p.gate.link} target="_blank" rel="noreferrer">
                    How to fix
                  </Link>
                )}
              </MessageBarBody>
            </MessageBar>
          )}
          {p.error && (
            <MessageBar intent="error" layout="multiline">
              <MessageBarBody>
                <MessageBarTitle>Backing service error</MessageBarTitle>
                <code style={{ whiteSpace: 'pre-wrap' }}>{p.error}</code>
              </MessageBarBody>
            </MessageBar>
          )}
          {!p.error && p.message && (
            <MessageBar intent="error" layout="multiline">
              <MessageBarBody>
                <MessageBarTitle>Failed ({p.code ?? 'error'})</MessageBarTitle>
                {p.message}
              </MessageBarBody>
            </MessageBar>
          )}
        </div>
      )}
    </Card>
  );
}
