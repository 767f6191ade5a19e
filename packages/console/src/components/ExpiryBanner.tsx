import { MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Button } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { ErrorMessage } from './RequestState';
import { useExpiryAlerts, useIsAdmin, type ExpiryAlert } from '../api/identity';

const INTENT = { notice: 'info', warning: 'warning', critical: 'error', expired: 'error' } as const;
const RANK = { expired: 0, critical: 1, warning: 2, notice: 3 } as const;

const when = (a: ExpiryAlert) =>
  a.level === 'expired' ? 'has expired' : `expires in ${a.daysRemaining} day${a.daysRemaining === 1 ? '' : 's'}`;

/** Admins only: the registered service-principal secrets that expire within 90, 30 or 7 days, most urgent first. */
export function ExpiryBanner() {
  const isAdmin = useIsAdmin();
  const alerts = useExpiryAlerts(isAdmin);
  const navigate = useNavigate();
  if (!isAdmin) return null;
  // A failed check must not pass for "nothing expires".
  if (alerts.isError)
    return (
      <div style={{ marginBottom: 16 }}>
        <ErrorMessage error={alerts.error} title="Could not check secret expiry" onRetry={() => void alerts.refetch()} />
      </div>
    );
  if (!alerts.data?.length) return null;
  const sorted = [...alerts.data].sort((a, b) => RANK[a.level] - RANK[b.level] || a.daysRemaining - b.daysRemaining);
  const top = sorted[0]!;
  const others = sorted.length - 1;
  return (
    <MessageBar intent={INTENT[top.level]} data-testid="expiry-banner" data-level={top.level} style={{ marginBottom: 16 }}>
      <MessageBarBody>
        <MessageBarTitle>
          Secret {top.displayName} {when(top)}
        </MessageBarTitle>
        {new Date(top.expiresAt).toLocaleDateString()} · client {top.clientId} · key {top.keyId}.
        {others > 0 && ` ${others} more secret${others === 1 ? '' : 's'} to rotate.`}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={() => navigate('/identity?tab=secrets')}>Review secrets</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
