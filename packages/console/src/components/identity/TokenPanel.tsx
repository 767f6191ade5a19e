import { useState } from 'react';
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
  Textarea,
} from '@fluentui/react-components';
import { api } from '../../api/client';
import type { ClaimCheck, TokenInspection } from '../../api/identity';
import { ErrorMessage } from '../RequestState';
import { Section, useIdentityStyles } from './shared';

const COLOR = { ok: 'success', wrong: 'danger', missing: 'danger', unchecked: 'subtle' } as const;
const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** Paste a token, see its claims checked against the cloud and the identity. The token is sent once and kept nowhere: not in the address, the cache or the field. */
export function TokenPanel() {
  const s = useIdentityStyles();
  const [token, setToken] = useState('');
  const [expected, setExpected] = useState({ expectedAppId: '', expectedObjectId: '', expectedTenantId: '' });
  const [result, setResult] = useState<TokenInspection>();
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  const inspect = async () => {
    const body = {
      token: token.trim(),
      ...Object.fromEntries(
        Object.entries(expected)
          .filter(([, v]) => v.trim())
          .map(([k, v]) => [k, v.trim()]),
      ),
    };
    setToken('');
    setPending(true);
    setError(undefined);
    try {
      setResult(await api<TokenInspection>('POST', '/api/admin/identity/inspect-token', body));
    } catch (err) {
      setResult(undefined);
      setError(err);
    } finally {
      setPending(false);
    }
  };
  const set = (k: keyof typeof expected) => (_: unknown, d: { value: string }) => setExpected((e) => ({ ...e, [k]: d.value }));
  return (
    <>
      <Section title="Inspect a token">
        <form
          className={s.formCol}
          aria-label="Inspect a token"
          onSubmit={(e) => {
            e.preventDefault();
            void inspect();
          }}
        >
          <Field
            label="Access token"
            hint="The token is decoded by the service for this check only; it is never stored or logged, and this field is cleared once sent."
            required
          >
            <Textarea
              value={token}
              onChange={(_, d) => setToken(d.value)}
              rows={4}
              resize="vertical"
              spellCheck={false}
              autoComplete="off"
            />
          </Field>
          <div className={s.form}>
            <Field label="Expected app id (appid)">
              <Input value={expected.expectedAppId} onChange={set('expectedAppId')} style={{ width: 300 }} />
            </Field>
            <Field label="Expected object id (oid)">
              <Input value={expected.expectedObjectId} onChange={set('expectedObjectId')} style={{ width: 300 }} />
            </Field>
            <Field label="Expected tenant id (tid)">
              <Input value={expected.expectedTenantId} onChange={set('expectedTenantId')} style={{ width: 300 }} />
            </Field>
          </div>
          <div>
            <Button appearance="primary" type="submit" disabled={pending || token.trim().length < 10}>
              {pending ? 'Inspecting…' : 'Inspect'}
            </Button>
          </div>
        </form>
      </Section>
      {error ? <ErrorMessage error={error} title="Could not inspect the token" /> : null}
      {result && (
        <Section title={result.valid ? 'Every checked claim is as it should be' : 'Some claims are wrong'} testId="claims">
          <Table size="small" aria-label="Token claims">
            <TableHeader>
              <TableRow>
                <TableHeaderCell style={{ width: 120 }}>Claim</TableHeaderCell>
                <TableHeaderCell style={{ width: 110 }}>Check</TableHeaderCell>
                <TableHeaderCell>Value</TableHeaderCell>
                <TableHeaderCell>Expected</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.checks.map((c: ClaimCheck) => (
                <TableRow key={c.claim} data-testid="claim-row" data-status={c.status}>
                  <TableCell>
                    <code>{c.claim}</code>
                  </TableCell>
                  <TableCell>
                    <Badge appearance="tint" color={COLOR[c.status]}>
                      {c.status}
                    </Badge>
                  </TableCell>
                  <TableCell>
                    <span className={s.mono}>{show(c.actual)}</span>
                  </TableCell>
                  <TableCell>
                    <span className={s.mono}>{c.status === 'ok' ? '' : show(c.expected)}</span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Text size={200} className={s.muted}>
            Other claims:{' '}
            {Object.keys(result.claims)
              .filter((k) => !result.checks.some((c) => c.claim === k))
              .join(', ') || 'none'}
          </Text>
        </Section>
      )}
    </>
  );
}
