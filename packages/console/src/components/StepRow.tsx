import {
  Button,
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
import { ArrowClockwise20Regular, ChevronDown16Regular, ChevronRight16Regular } from '@fluentui/react-icons';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { Permission } from '../api/access';
import { consoleDiagnosisLink, useIsAdmin } from '../api/identity';
import type { Item, ProvisionStep } from '../api/types';
import { BackendBadge } from './BackendLabel';
import { BackingText, readableBackingMessage } from './BackingText';
import { GuardedButton } from './GuardedButton';
import { ItemTypeIcon } from './ItemTypeIcon';
import { StepStatusBadge } from './JobStatus';

const useStyles = makeStyles({
  row: { display: 'grid', gap: '6px', padding: '8px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  line: { display: 'flex', alignItems: 'center', gap: '8px', minWidth: 0 },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  id: { maxWidth: '260px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  log: {
    margin: '0',
    padding: '6px 8px 6px 28px',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
  },
});

/** What the refusal said, readably: the backing service's message, else the service's own description. */
const said = (r: ProvisionStep['result']) =>
  r.error !== undefined ? (readableBackingMessage(r.error)?.message ?? r.error) : (r.message ?? r.gate?.remediation);

/** The step's log (`result.steps`), behind a toggle: what the provisioner did, line by line. */
function StepLog({ lines, name }: { lines: string[]; name: string }) {
  const s = useStyles();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!lines.length) return null;
  return (
    <div>
      <Button
        appearance="subtle"
        size="small"
        icon={open ? <ChevronDown16Regular /> : <ChevronRight16Regular />}
        aria-expanded={open}
        aria-controls={id}
        aria-label={`${open ? 'Hide' : 'Show'} the log of ${name}`}
        onClick={() => setOpen((o) => !o)}
      >
        Log ({lines.length} {lines.length === 1 ? 'line' : 'lines'})
      </Button>
      {open && (
        <ol id={id} className={s.log} data-testid="step-log" aria-label={`Log of ${name}`}>
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a log's lines are fixed and may repeat
            <li key={i}>{line}</li>
          ))}
        </ol>
      )}
    </div>
  );
}

/**
 * One provisioning step of the report: its status and resource, a gate as a warning, a failure with the service's text
 * (its message readably, the raw answer one click away), its log, and Retry. `retrying`: the step is re-opened and the
 * service's worker runs it; `retryDisabled`: the job runs; `refusedAgain`: a retry from this page ended gated or failed.
 */
export function StepRow({
  step,
  onRetry,
  retrying,
  retryDisabled,
  retryError,
  refusedAgain,
  retryPermission = { ok: true },
}: {
  refusedAgain?: boolean;
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
            {r.error !== undefined && <BackingText text={r.error} label="The service said:" />}
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
                <BackingText text={r.error} />
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
      {refusedAgain && !retrying && (r.status === 'remediation' || r.status === 'failed') && (
        <Text size={200} weight="semibold" style={{ color: tokens.colorPaletteRedForeground1 }} role="status" data-testid="refused-again">
          The retry was refused again{r.status === 'remediation' && r.gate ? ` (${r.gate.reason})` : ''}: {said(r) ?? 'no description'}
        </Text>
      )}
      <StepLog lines={r.steps ?? []} name={step.displayName} />
      {retryError && (
        <Text size={200} style={{ color: tokens.colorPaletteRedForeground1 }} role="alert">
          Retry failed: {retryError}
        </Text>
      )}
    </div>
  );
}
