import { useState } from 'react';
import {
  Badge,
  Button,
  Field,
  Input,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Toolbar,
} from '@fluentui/react-components';
import { Shield20Regular } from '@fluentui/react-icons';
import { type AuditEvent, type AuditFilter, useAuditEvents } from '../api/audit';
import { useWhoAmI } from '../api/session';
import { useWorkspaces } from '../api/workspaces';
import { PageHeader } from '../components/PageHeader';
import { ErrorMessage } from '../components/RequestState';

/** The kinds the service records, and prefixes (`x.*`) the filter also takes: identity events are `identity.<operation>`. */
const KINDS = [
  'role-assignment.*',
  'token.*',
  'session.*',
  'workspace.*',
  'app.*',
  'report.*',
  'identity.*',
  'role-assignment.created',
  'role-assignment.changed',
  'role-assignment.deleted',
  'token.created',
  'token.revoked',
  'session.signed-in',
  'session.sign-in-failed',
  'session.signed-out',
  'workspace.created',
  'workspace.updated',
  'workspace.deleted',
  'workspace.bound',
  'item.deleted',
  'app.installed',
  'app.upgraded',
  'app.uninstalled',
  'report.published',
  'report.deleted',
  'report.cloned',
  'report.definition-updated',
  'report.datasources-updated',
  'report.exported',
];

const OUTCOME_COLOR = { succeeded: 'success', accepted: 'informative', refused: 'warning', failed: 'danger' } as const;

/** A datetime-local value as the ISO instant the API takes (the browser's time zone), or undefined when empty. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

function EventRow({
  e,
  workspaceName,
  onActor,
}: {
  e: AuditEvent;
  workspaceName: (id: string) => string;
  onActor: (userId: string) => void;
}) {
  const actorId = e.actor.userId;
  const detail = e.detail && Object.keys(e.detail).length ? JSON.stringify(e.detail) : undefined;
  return (
    <TableRow data-testid="audit-event" data-kind={e.kind} data-outcome={e.outcome}>
      <TableCell>
        <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>
      </TableCell>
      <TableCell>
        {actorId ? (
          <Button
            appearance="transparent"
            size="small"
            style={{ padding: 0, minWidth: 0, justifyContent: 'start' }}
            title={`Only the events of ${actorId} (${e.actor.method ?? 'unknown method'}${e.actor.tokenId ? `, token ${e.actor.tokenId}` : ''})`}
            onClick={() => onActor(actorId)}
          >
            {e.actor.userName ?? actorId}
          </Button>
        ) : (
          <Text>unknown caller</Text>
        )}
      </TableCell>
      <TableCell>
        <code style={{ overflowWrap: 'anywhere' }}>{e.kind}</code>
      </TableCell>
      <TableCell>
        <Text title={detail}>
          {e.target.type}: {e.target.name ?? e.target.id}
        </Text>
      </TableCell>
      <TableCell>{e.workspaceId ? workspaceName(e.workspaceId) : '—'}</TableCell>
      <TableCell>
        <Badge appearance="tint" color={OUTCOME_COLOR[e.outcome] ?? 'subtle'} title={`request ${e.requestId}`}>
          {e.outcome} · {e.status}
        </Badge>
      </TableCell>
    </TableRow>
  );
}

/** The tenant's audit trail (tenant admins): filter by workspace, kind, actor and time; newest first, "Load more" pages on. */
export default function AuditPage() {
  const isAdmin = useWhoAmI().data?.scopes.includes('admin') ?? false;
  const workspaces = useWorkspaces();
  const [form, setForm] = useState({ workspaceId: '', kind: '', actor: '', from: '', to: '' });
  const filter: AuditFilter = {
    workspaceId: form.workspaceId || undefined,
    kind: form.kind || undefined,
    actor: form.actor.trim() || undefined,
    since: instant(form.from),
    until: instant(form.to),
  };
  const events = useAuditEvents(filter, isAdmin);
  const set = (k: keyof typeof form) => (_: unknown, d: { value: string }) => setForm((f) => ({ ...f, [k]: d.value }));
  const workspaceName = (id: string) => workspaces.data?.find((w) => w.id === id)?.name ?? id;
  const list = events.data?.pages.flatMap((p) => p.auditEvents) ?? [];
  return (
    <>
      <PageHeader title="Audit" icon={<Shield20Regular aria-hidden />} />
      {!isAdmin ? (
        <Text>The audit trail is for tenant admins (the admin scope).</Text>
      ) : (
        <>
          <Toolbar aria-label="Filter audit events" style={{ gap: 12, padding: '4px 0 12px', alignItems: 'end', flexWrap: 'wrap' }}>
            <Field label="Workspace">
              <Select value={form.workspaceId} onChange={set('workspaceId')}>
                <option value="">All workspaces</option>
                {workspaces.data?.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Kind">
              <Select value={form.kind} onChange={set('kind')}>
                <option value="">All kinds</option>
                {KINDS.map((k) => (
                  <option key={k}>{k}</option>
                ))}
              </Select>
            </Field>
            <Field label="Actor (user id)">
              <Input value={form.actor} onChange={set('actor')} placeholder="Any (or pick one in the table)" />
            </Field>
            <Field label="From">
              <Input type="datetime-local" value={form.from} onChange={set('from')} />
            </Field>
            <Field label="To">
              <Input type="datetime-local" value={form.to} onChange={set('to')} />
            </Field>
          </Toolbar>
          {events.isPending && <Spinner size="small" label="Loading audit events…" />}
          {events.isError && (
            <ErrorMessage error={events.error} title="Could not load the audit events" onRetry={() => void events.refetch()} />
          )}
          {events.isSuccess && list.length === 0 && <Text data-testid="audit-empty">No audit event matches these filters.</Text>}
          {list.length > 0 && (
            <Table aria-label="Audit events" size="small" style={{ tableLayout: 'fixed' }}>
              <TableHeader>
                <TableRow>
                  {/* Shares of the width, not pixels: the columns fit a 1024 px window too (with the navigation beside). */}
                  <TableHeaderCell style={{ width: '16%' }}>Time</TableHeaderCell>
                  <TableHeaderCell style={{ width: '12%' }}>Actor</TableHeaderCell>
                  <TableHeaderCell style={{ width: '20%' }}>Kind</TableHeaderCell>
                  <TableHeaderCell>Target</TableHeaderCell>
                  <TableHeaderCell style={{ width: '13%' }}>Workspace</TableHeaderCell>
                  <TableHeaderCell style={{ width: '17%' }}>Outcome</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((e) => (
                  <EventRow key={e.id} e={e} workspaceName={workspaceName} onActor={(actor) => setForm((f) => ({ ...f, actor }))} />
                ))}
              </TableBody>
            </Table>
          )}
          {events.hasNextPage && (
            <Button style={{ marginTop: 12 }} onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
              {events.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </Button>
          )}
        </>
      )}
    </>
  );
}
