import {
  Link,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons';
import { Link as RouterLink } from 'react-router-dom';
import type { Permission } from '../api/access';
import { consoleDiagnosisLink, useIsAdmin } from '../api/identity';
import type { Item, ProvisionStep } from '../api/types';
import { BackendBadge } from './BackendLabel';
import { GuardedButton } from './GuardedButton';
import { ItemTypeIcon } from './ItemTypeIcon';
import { StepStatusBadge } from './JobStatus';

const useStyles = makeStyles({
  row: { display: 'grid', gap: '6px', padding: '8px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  line: { display: 'flex', alignItems: 'center', gap: '8px', minWidth: 0 },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  id: { maxWidth: '260px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/**
 * One provisioning step of the report: its status and resource, a gate as a warning, a failure with the service's text,
 * and Retry. `retrying`: the step is re-opened and the service's worker runs it; `retryDisabled`: the job runs.
 */
export function StepRow({
  step,
  onRetry,
  retrying,
  retryDisabled,
  retryError,
  retryPermission = { ok: true },
}: {
  retryPermission?: Permission;
  step: ProvisionStep;
  onRetry?: () => void;
  retrying?: boolean;
  retryDisabled?: boolean;
  retryError?: string;
}) {
  const s = useStyles();
  const r = step.result;
  const isAdmin = useIsAdmin();
  // The service links an identity failure to its diagnosis; admins open it on the identity page.
  const diagnosis = isAdmin ? consoleDiagnosisLink(r.diagnosis) : undefined;
  const diagnose = diagnosis && (
    <RouterLink to={diagnosis} data-testid="diagnose-link">
      Diagnose this failure
    </RouterLink>
  );
  const retry = onRetry && (
    <MessageBarActions>
      <GuardedButton
        icon={retrying ? <Spinner size="tiny" /> : <ArrowClockwise20Regular />}
        onClick={onRetry}
        disabled={retrying || retryDisabled}
        permission={retryPermission}
        aria-label={`Retry ${step.displayName}`}
      >
        {retrying ? 'Retrying…' : 'Retry'}
      </GuardedButton>
    </MessageBarActions>
  );
  return (
    <div className={s.row} data-testid="provision-step" data-step={step.stepIndex} data-status={retrying ? 'running' : r.status}>
      <div className={s.line}>
        <ItemTypeIcon itemType={step.itemType} title={step.itemType} />
        <Text className={s.name} weight="semibold">
          {step.displayName}
        </Text>
        {r.resourceId && (
          <Text size={200} font="monospace" className={s.id} title={r.resourceId}>
            {r.resourceId}
          </Text>
        )}
        <BackendBadge backend={(r.backend as Item['backend']) ?? null} />
        <StepStatusBadge status={retrying ? 'running' : r.status} />
      </div>
      {r.status === 'remediation' && r.gate && (
        <MessageBar intent="warning" layout="multiline" data-testid="remediation">
          <MessageBarBody>
            <MessageBarTitle>Needs an admin: {r.gate.reason}</MessageBarTitle>
            {/* A multi-line remediation is a script to run (the warehouse's T-SQL): kept as lines so it copies as written. */}
            {r.gate.remediation.includes('\n') ? (
              <pre data-testid="remediation-script" style={{ whiteSpace: 'pre-wrap', margin: '4px 0' }}>
                {r.gate.remediation}
              </pre>
            ) : (
              r.gate.remediation
            )}{' '}
            {r.gate.link && (
              <Link href={r.gate.link} target="_blank" rel="noreferrer">
                Open the setting
              </Link>
            )}
            {diagnose && <> · {diagnose}</>}
          </MessageBarBody>
          {retry}
        </MessageBar>
      )}
      {r.status === 'failed' && (
        <MessageBar intent="error" layout="multiline" data-testid="step-failed">
          <MessageBarBody>
            {r.error !== undefined ? (
              <>
                <MessageBarTitle>The backing service refused</MessageBarTitle>
                <code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{r.error}</code>
              </>
            ) : (
              <>
                <MessageBarTitle>Failed{r.code ? ` (${r.code})` : ''}</MessageBarTitle>
                {r.message ?? 'no description'}
              </>
            )}
            {diagnose && <div>{diagnose}</div>}
          </MessageBarBody>
          {retry}
        </MessageBar>
      )}
      {retryError && (
        <Text size={200} style={{ color: tokens.colorPaletteRedForeground1 }} role="alert">
          Retry failed: {retryError}
        </Text>
      )}
    </div>
  );
}
