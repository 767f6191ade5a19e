import {
  Badge,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useIncidentEvents, type Incident, type IncidentEvent } from '../../api/identity';
import { RequestState } from '../RequestState';
import { IncidentWorkflow } from './IncidentWorkflow';
import { fmtTime, OkBadge, useIdentityStyles } from './shared';

const useStyles = makeStyles({
  detail: { display: 'grid', gap: '16px', padding: '12px 4px 20px' },
  columns: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '24px', alignItems: 'start' },
  block: { display: 'grid', gap: '6px', alignContent: 'start' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold },
});

/** An incident opened up: its timeline, change requests, approvals, snapshots, changes, last verification, and the workflow's actions. */
export function IncidentDetail({ incident: i }: { incident: Incident }) {
  const c = useStyles();
  const events = useIncidentEvents(i.id);
  return (
    <section className={c.detail} data-testid="incident-detail" aria-label={`Incident ${i.title}`}>
      <div className={c.block}>
        <h3 className={c.heading}>Timeline</h3>
        <RequestState query={events} label="the timeline">
          {(list) => <Timeline events={list} />}
        </RequestState>
      </div>
      <div className={c.columns}>
        <div className={c.block}>
          <h3 className={c.heading}>Change requests</h3>
          <ChangeRequests incident={i} />
          <h3 className={c.heading}>Approvals, snapshots and changes</h3>
          <Record incident={i} />
        </div>
        <div className={c.block}>
          <h3 className={c.heading}>
            {i.verification
              ? `Last verification (${fmtTime(i.verification.at)}): ${i.verification.passed ? 'passed' : 'failed'}`
              : 'Verification'}
          </h3>
          {i.verification ? (
            <ul style={{ margin: 0, paddingLeft: 20 }} data-testid="incident-verification">
              {i.verification.checks.map((ch) => (
                <li key={ch.check}>
                  <OkBadge ok={ch.ok} skipped={ch.skipped} /> {ch.check}: <Text size={200}>{ch.detail}</Text>
                </li>
              ))}
            </ul>
          ) : (
            <Text size={200}>Not run yet: monitoring starts when the checklist passes after the fix.</Text>
          )}
        </div>
      </div>
      {i.status !== 'closed' && <IncidentWorkflow incident={i} />}
    </section>
  );
}

/** A one-line reading of an event's data (its kind says what happened). */
function describe(e: IncidentEvent): string {
  const d = (e.data ?? {}) as Record<string, unknown>;
  switch (e.kind) {
    case 'opened':
      return `${String(d.severity)}${Array.isArray(d.reasons) && d.reasons.length ? `: ${d.reasons.join('; ')}` : ''}`;
    case 'approval':
      return `${String(d.changeKind)} approved by ${String(d.approver)}${d.verbal ? ' (verbal)' : ''}`;
    case 'change-request-filed':
      return `change request ${String(d.changeRequestId)} filed${d.late ? ' late' : ''}`;
    case 'snapshot':
      return `policy ${String(d.policy)}`;
    case 'change':
      return `${String(d.kind)}: ${String(d.summary)}`;
    case 'verification':
      return `${d.passed ? 'passed' : 'failed'}${Array.isArray(d.checks) ? ` (${d.checks.map((x: { check: string; ok: boolean }) => `${x.check} ${x.ok ? 'ok' : 'failed'}`).join(', ')})` : ''}`;
    default:
      return Object.keys(d).length ? JSON.stringify(d) : '';
  }
}

function Timeline({ events }: { events: IncidentEvent[] }) {
  return (
    <Table size="extra-small" aria-label="Timeline">
      <TableHeader>
        <TableRow>
          <TableHeaderCell style={{ width: 40 }}>#</TableHeaderCell>
          <TableHeaderCell style={{ width: 160 }}>Event</TableHeaderCell>
          <TableHeaderCell style={{ width: 190 }}>At</TableHeaderCell>
          <TableHeaderCell>Detail</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((e) => (
          <TableRow key={e.seq} data-testid="incident-event" data-kind={e.kind}>
            <TableCell>{e.seq}</TableCell>
            <TableCell>{e.kind}</TableCell>
            <TableCell>{fmtTime(e.at)}</TableCell>
            <TableCell>
              <Text size={200} style={{ wordBreak: 'break-word' }}>
                {describe(e)}
              </Text>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ChangeRequests({ incident: i }: { incident: Incident }) {
  const filed = i.approvals.filter((a) => a.changeRequestId);
  if (!i.changeRequests.length && !filed.length)
    return <Text size={200}>None: only verbal (SEV1) approvals need a retroactive change request.</Text>;
  return (
    <ul style={{ margin: 0, paddingLeft: 20 }} data-testid="incident-change-requests">
      {i.changeRequests.map((r) => (
        <li key={r.approvalId}>
          {r.overdue ? (
            <Badge appearance="filled" color="danger">
              overdue
            </Badge>
          ) : (
            <Badge appearance="tint" color="warning">
              due
            </Badge>
          )}{' '}
          by {fmtTime(r.dueAt)} for the verbal approval of {i.approvals.find((a) => a.id === r.approvalId)?.changeKind ?? r.approvalId}
        </li>
      ))}
      {filed.map((a) => (
        <li key={a.id}>
          <Badge appearance="tint" color="success">
            filed
          </Badge>{' '}
          {a.changeRequestId} for the verbal approval of {a.changeKind}
        </li>
      ))}
    </ul>
  );
}

function Record({ incident: i }: { incident: Incident }) {
  const s = useIdentityStyles();
  if (!i.approvals.length && !i.snapshots.length && !i.changes.length)
    return (
      <Text size={200} className={s.muted}>
        None yet.
      </Text>
    );
  return (
    <ul style={{ margin: 0, paddingLeft: 20 }} data-testid="incident-record">
      {i.approvals.map((a) => (
        <li key={a.id}>
          Approval of {a.changeKind} by {a.approver}
          {a.verbal ? ' (verbal)' : ''}, {fmtTime(a.at)}
        </li>
      ))}
      {i.snapshots.map((p) => (
        <li key={`${p.policy}-${p.at}`}>
          Snapshot of policy {p.policy}, {fmtTime(p.at)}
        </li>
      ))}
      {i.changes.map((ch) => (
        <li key={ch.id}>
          Change: {ch.kind}: {ch.summary}, {fmtTime(ch.createdAt)}
        </li>
      ))}
    </ul>
  );
}
