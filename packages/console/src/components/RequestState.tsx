import {
  Button,
  Link as ExternalLink,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../api/client';
import { consoleDiagnosisLink } from '../api/identity';
import { BackingText } from './BackingText';

/** An error as the service described it: message, code, hint; never an empty list. */
export function ErrorMessage({ error, title = 'Request failed', onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  const e = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // A backing refusal names its diagnosis; it opens on the identity page.
  const diagnosis = consoleDiagnosisLink(e?.hint);
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>
        <MessageBarTitle>{title}</MessageBarTitle>
        {/* A backing refusal's message is the service's own text (often a JSON body): its message readably, the raw one click away. */}
        <BackingText text={message} />
        {e && (
          <>
            {' '}
            <code>
              ({e.status ? `${e.status} ` : ''}
              {e.code})
            </code>
          </>
        )}
        {/* A deployment gate (424) names what an admin must fix; its hint is the same remediation. */}
        {e?.gate ? (
          <div data-testid="error-gate">
            <strong>Needs an admin: {e.gate.reason}.</strong> {e.gate.remediation}{' '}
            {e.gate.link && (
              <ExternalLink href={e.gate.link} target="_blank" rel="noreferrer">
                Open the setting
              </ExternalLink>
            )}
          </div>
        ) : (
          e?.hint && <div>{e.hint}</div>
        )}
        {diagnosis && (
          <div>
            <Link to={diagnosis}>Open the diagnosis</Link>
          </div>
        )}
      </MessageBarBody>
      {onRetry && (
        <MessageBarActions>
          <Button onClick={onRetry}>Try again</Button>
        </MessageBarActions>
      )}
    </MessageBar>
  );
}

/** A query TanStack holds until the browser is online again (fetchStatus 'paused'): say so rather than spin. */
export function WaitingForNetwork({ label }: { label: string }) {
  return (
    <MessageBar intent="warning" data-testid="waiting-for-network">
      <MessageBarBody>
        <MessageBarTitle>Waiting for the network…</MessageBarTitle>
        {label} will load when the connection is back.
      </MessageBarBody>
    </MessageBar>
  );
}

/** Renders a query's loading and error states, and its data only once it has arrived. */
export function RequestState<T>({
  query,
  label,
  children,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data: T | undefined;
    refetch: () => unknown;
    fetchStatus?: 'fetching' | 'paused' | 'idle';
  };
  label: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending && query.fetchStatus === 'paused')
    return <WaitingForNetwork label={label.charAt(0).toUpperCase() + label.slice(1)} />;
  if (query.isPending) return <Spinner size="small" label={`Loading ${label}…`} />;
  if (query.isError) return <ErrorMessage error={query.error} title={`Could not load ${label}`} onRetry={() => void query.refetch()} />;
  return <>{children(query.data as T)}</>;
}
