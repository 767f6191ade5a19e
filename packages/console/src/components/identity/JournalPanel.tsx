import { useState } from 'react';
import { Badge, Button, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { ArrowUndo20Regular } from '@fluentui/react-icons';
import { useChanges, useRollbackChange, type IdentityChange } from '../../api/identity';
import { FormDialog } from '../FormDialog';
import { RequestState } from '../RequestState';
import { fmtTime, Section, useIdentityStyles } from './shared';

/** What a rollback will do, in words: the inverse the journal holds. */
const describeInverse = (inv: Record<string, unknown>) =>
  Object.entries(inv)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');

/** The change journal, newest first; each applied change can be rolled back (its inverse performed), after a confirmation. */
export function JournalPanel() {
  const s = useIdentityStyles();
  const changes = useChanges();
  const rollback = useRollbackChange();
  const [confirming, setConfirming] = useState<IdentityChange>();
  return (
    <Section title="Change journal" testId="change-journal">
      <Text className={s.muted}>
        Every fix made here or from the command line, with its inverse. Rolling back performs the inverse: the added rule deleted, the added
        role assignment deleted, and so on.
      </Text>
      <RequestState query={changes} label="the change journal">
        {(list) =>
          list.length === 0 ? (
            <Text>No changes recorded.</Text>
          ) : (
            <Table size="small" aria-label="Change journal">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: 170 }}>When</TableHeaderCell>
                  <TableHeaderCell style={{ width: 170 }}>Kind</TableHeaderCell>
                  <TableHeaderCell>Change</TableHeaderCell>
                  <TableHeaderCell style={{ width: 110 }}>State</TableHeaderCell>
                  <TableHeaderCell style={{ width: 140 }}>By</TableHeaderCell>
                  <TableHeaderCell style={{ width: 130 }}>
                    <span className="sr-only">Actions</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((c) => (
                  <TableRow key={c.id} data-testid="change-row" data-change={c.id} data-state={c.state}>
                    <TableCell>{fmtTime(c.createdAt)}</TableCell>
                    <TableCell>
                      <code>{c.kind}</code>
                    </TableCell>
                    <TableCell>
                      {c.summary}
                      {c.incidentId && (
                        <Text size={200} className={s.muted}>
                          {' '}
                          · incident {c.incidentId}
                        </Text>
                      )}
                    </TableCell>
                    <TableCell>
                      <Badge appearance="tint" color={c.state === 'applied' ? 'brand' : 'subtle'}>
                        {c.state}
                      </Badge>
                      {c.rolledBackAt && (
                        <Text size={200} block className={s.muted}>
                          {fmtTime(c.rolledBackAt)}
                        </Text>
                      )}
                    </TableCell>
                    <TableCell>{c.createdBy}</TableCell>
                    <TableCell>
                      {c.state === 'applied' && (
                        <Button
                          size="small"
                          icon={<ArrowUndo20Regular />}
                          onClick={() => {
                            rollback.reset();
                            setConfirming(c);
                          }}
                          aria-label={`Roll back: ${c.summary}`}
                        >
                          Roll back
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )
        }
      </RequestState>
      {confirming && (
        <FormDialog
          open
          title="Roll back this change?"
          submitLabel="Roll back"
          danger
          onClose={() => setConfirming(undefined)}
          pending={rollback.isPending}
          error={rollback.error}
          onSubmit={() => rollback.mutate(confirming.id, { onSuccess: () => setConfirming(undefined) })}
        >
          <Text>{confirming.summary}</Text>
          <Text>
            The rollback performs: <code className={s.mono}>{describeInverse(confirming.inverse)}</code>
          </Text>
        </FormDialog>
      )}
    </Section>
  );
}
