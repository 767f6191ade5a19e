import { Button, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons';
import { useSignals } from '../../api/identity';
import { RequestState } from '../RequestState';
import { DiagnoseLink, fmtTime, Section, useIdentityStyles } from './shared';

/** Backing calls refused on authentication or authorization, newest first; each links to its diagnosis. */
export function SignalsPanel() {
  const s = useIdentityStyles();
  const signals = useSignals();
  return (
    <Section
      title="Recent signals"
      testId="identity-signals"
      actions={
        <Button icon={<ArrowClockwise20Regular />} onClick={() => void signals.refetch()} disabled={signals.isFetching}>
          Refresh
        </Button>
      }
    >
      <Text className={s.muted}>
        Every backing call refused with 401, 403 or an identity-provider error: who, which service, the code and when. Tokens and secrets
        are never recorded.
      </Text>
      <RequestState query={signals} label="the identity signals">
        {(list) =>
          list.length === 0 ? (
            <Text>No authentication or authorization failures recorded.</Text>
          ) : (
            <Table size="small" aria-label="Identity signals">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: 180 }}>When</TableHeaderCell>
                  <TableHeaderCell>Principal</TableHeaderCell>
                  <TableHeaderCell style={{ width: 120 }}>Service</TableHeaderCell>
                  <TableHeaderCell style={{ width: 70 }}>Status</TableHeaderCell>
                  <TableHeaderCell style={{ width: 170 }}>Code</TableHeaderCell>
                  <TableHeaderCell>Path</TableHeaderCell>
                  <TableHeaderCell style={{ width: 90 }}>Diagnosis</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.slice(0, 200).map((sig) => (
                  <TableRow key={sig.id} data-testid="signal-row">
                    <TableCell>{fmtTime(sig.at)}</TableCell>
                    <TableCell>
                      <span className={s.mono}>{sig.principal}</span>
                    </TableCell>
                    <TableCell>{sig.service}</TableCell>
                    <TableCell>{sig.status || '—'}</TableCell>
                    <TableCell>
                      <span className={s.mono}>{sig.code ?? '—'}</span>
                    </TableCell>
                    <TableCell>
                      <span className={s.mono}>{sig.path}</span>
                    </TableCell>
                    <TableCell>
                      <DiagnoseLink status={sig.status} code={sig.code} service={sig.service} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )
        }
      </RequestState>
    </Section>
  );
}
