import { Fragment, useState } from 'react';
import {
  Badge,
  Button,
  Field,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { IDENTITY_TYPES, useIncidentActions, useIncidents, type IdentityType, type Incident } from '../../api/identity';
import { ErrorMessage, RequestState } from '../RequestState';
import { IncidentDetail } from './IncidentDetail';
import { fmtTime, IdentityTypeField, Section, useIdentityStyles } from './shared';

const SEV_COLOR = { SEV1: 'danger', SEV2: 'important', SEV3: 'warning', SEV4: 'informative' } as const;
const STATUS_COLOR = { open: 'danger', monitoring: 'warning', closed: 'subtle' } as const;

/** Identity incidents: open one (severity computed from the recorded signals), see why, work it (details), close it once monitoring is over. */
export function IncidentsPanel() {
  const s = useIdentityStyles();
  const incidents = useIncidents();
  const { open, close } = useIncidentActions();
  const [f, setF] = useState({ title: '', identityType: '', lookbackMinutes: '' });
  const [expanded, setExpanded] = useState<string>();
  const set = (k: keyof typeof f) => (_: unknown, d: { value: string }) => setF((o) => ({ ...o, [k]: d.value }));
  const submit = () =>
    open.mutate(
      {
        title: f.title.trim(),
        ...(f.identityType ? { identityType: f.identityType as IdentityType } : {}),
        ...(f.lookbackMinutes ? { lookbackMinutes: Number(f.lookbackMinutes) } : {}),
      },
      { onSuccess: () => setF({ title: '', identityType: '', lookbackMinutes: '' }) },
    );
  return (
    <>
      <Section title="Open an incident">
        <form
          className={s.form}
          aria-label="Open an incident"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Field label="Title" required>
            <Input value={f.title} onChange={set('title')} style={{ width: 320 }} />
          </Field>
          <IdentityTypeField value={f.identityType} onChange={set('identityType')} unsetLabel="not stated" />
          <Field label="Signals from the last (minutes)">
            <Input
              type="number"
              min={1}
              max={10080}
              value={f.lookbackMinutes}
              onChange={set('lookbackMinutes')}
              style={{ width: 120 }}
              placeholder="default"
            />
          </Field>
          <Button appearance="primary" type="submit" disabled={open.isPending || !f.title.trim()}>
            {open.isPending ? 'Opening…' : 'Open incident'}
          </Button>
        </form>
        {open.isError && <ErrorMessage error={open.error} title="The incident was not opened" />}
      </Section>
      <Section title="Incidents" testId="incidents">
        {close.isError && <ErrorMessage error={close.error} title="The incident cannot close yet" />}
        <RequestState query={incidents} label="the incidents">
          {(list) =>
            list.length === 0 ? (
              <Text>No identity incidents.</Text>
            ) : (
              <Table size="small" aria-label="Incidents">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell style={{ width: 80 }}>Severity</TableHeaderCell>
                    <TableHeaderCell>Incident</TableHeaderCell>
                    <TableHeaderCell style={{ width: 110 }}>Status</TableHeaderCell>
                    <TableHeaderCell style={{ width: 170 }}>Opened</TableHeaderCell>
                    <TableHeaderCell style={{ width: 170 }}>Monitoring until</TableHeaderCell>
                    <TableHeaderCell style={{ width: 170 }}>
                      <span className="sr-only">Actions</span>
                    </TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.map((i) => (
                    <Fragment key={i.id}>
                      <IncidentRow
                        incident={i}
                        onClose={() => close.mutate(i.id)}
                        closing={close.isPending && close.variables === i.id}
                        expanded={expanded === i.id}
                        onToggle={() => setExpanded((e) => (e === i.id ? undefined : i.id))}
                      />
                      {expanded === i.id && (
                        <TableRow>
                          <TableCell colSpan={6}>
                            <IncidentDetail incident={i} />
                          </TableCell>
                        </TableRow>
                      )}
                    </Fragment>
                  ))}
                </TableBody>
              </Table>
            )
          }
        </RequestState>
      </Section>
    </>
  );
}

function IncidentRow({
  incident: i,
  onClose,
  closing,
  expanded,
  onToggle,
}: {
  incident: Incident;
  onClose: () => void;
  closing: boolean;
  expanded: boolean;
  onToggle: () => void;
}) {
  const s = useIdentityStyles();
  const overdue = i.changeRequests.filter((c) => c.overdue).length;
  return (
    <TableRow data-testid="incident-row">
      <TableCell>
        <Badge appearance="filled" color={SEV_COLOR[i.severity]}>
          {i.severity}
        </Badge>
      </TableCell>
      <TableCell>
        <Text weight="semibold">{i.title}</Text>
        <Text size={200} block className={s.muted}>
          {i.severityReasons.join('; ')}
        </Text>
        {i.principals.length > 0 && (
          <Text size={200} block className={s.muted}>
            {i.principals.length} principal{i.principals.length === 1 ? '' : 's'}
            {i.identityType ? ` · ${IDENTITY_TYPES[i.identityType]}` : ''}
          </Text>
        )}
        {i.changeRequests.length > 0 && (
          <Text size={200} block>
            {i.changeRequests.length} retroactive change request{i.changeRequests.length === 1 ? '' : 's'} due
            {overdue ? `, ${overdue} overdue` : ''}
          </Text>
        )}
      </TableCell>
      <TableCell>
        <Badge appearance="tint" color={STATUS_COLOR[i.status]}>
          {i.status}
        </Badge>
      </TableCell>
      <TableCell>{fmtTime(i.openedAt)}</TableCell>
      <TableCell>
        {i.status === 'closed' ? `closed ${fmtTime(i.closedAt)}` : i.monitoringUntil ? fmtTime(i.monitoringUntil) : 'not verified yet'}
      </TableCell>
      <TableCell>
        <div style={{ display: 'flex', gap: 6 }}>
          <Button size="small" onClick={onToggle} aria-expanded={expanded} aria-label={`Details of incident ${i.title}`}>
            {expanded ? 'Hide' : 'Details'}
          </Button>
          {i.status !== 'closed' && (
            <Button size="small" onClick={onClose} disabled={closing} aria-label={`Close incident ${i.title}`}>
              Close
            </Button>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}
