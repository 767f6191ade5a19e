import { useState } from 'react';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { Link } from 'react-router-dom';
import { useFirewallRules, useFixes, useRoleAssignments, type FirewallRule, type IdentityChange } from '../../api/identity';
import { FormDialog } from '../FormDialog';
import { ErrorMessage, RequestState } from '../RequestState';
import { Section, useIdentityStyles, useWorkspaceParam, WorkspaceField } from './shared';

const ROLES = ['Admin', 'Member', 'Contributor', 'Viewer'];
const PRINCIPAL_TYPES = ['ServicePrincipal', 'User', 'Group', 'ServicePrincipalProfile'];

/** What a fix wrote to the journal, with the way back. */
const Journaled = ({ change, ws }: { change: IdentityChange; ws: string }) => (
  <MessageBar intent="success" layout="multiline" data-testid="fix-journaled">
    <MessageBarBody>
      {change.summary}. Recorded in the <Link to={`/identity?tab=journal&ws=${encodeURIComponent(ws)}`}>change journal</Link>, where it can
      be rolled back.
    </MessageBarBody>
  </MessageBar>
);

/** Firewall rules (list, add, remove, check an egress address) and workspace role grants; every change is journaled with its inverse. */
export function FixesPanel() {
  const s = useIdentityStyles();
  const [ws, setWs] = useWorkspaceParam();
  const rules = useFirewallRules(ws);
  const roles = useRoleAssignments(ws);
  const fixes = useFixes(ws);
  const [rule, setRule] = useState({ name: '', startIpAddress: '', endIpAddress: '' });
  const [ip, setIp] = useState('');
  const [grant, setGrant] = useState({ principalId: '', role: 'Contributor', principalType: 'ServicePrincipal' });
  const [removing, setRemoving] = useState<FirewallRule>();
  const [last, setLast] = useState<IdentityChange>();
  const setR = (k: keyof typeof rule) => (_: unknown, d: { value: string }) => setRule((o) => ({ ...o, [k]: d.value.trim() }));
  return (
    <>
      <div className={s.section}>
        <WorkspaceField value={ws} onChange={setWs} />
      </div>
      {last && (
        <div className={s.section}>
          <Journaled change={last} ws={ws} />
        </div>
      )}
      {!ws ? (
        <Text>Name a platform workspace to see its firewall rules and role assignments.</Text>
      ) : (
        <>
          <Section title="Firewall rules" testId="firewall-rules">
            <RequestState query={rules} label="the firewall rules">
              {(list) =>
                list.length === 0 ? (
                  <Text>No firewall rules: the workspace accepts every address.</Text>
                ) : (
                  <Table size="small" aria-label="Firewall rules">
                    <TableHeader>
                      <TableRow>
                        <TableHeaderCell>Name</TableHeaderCell>
                        <TableHeaderCell>Start address</TableHeaderCell>
                        <TableHeaderCell>End address</TableHeaderCell>
                        <TableHeaderCell style={{ width: 60 }}>
                          <span className="sr-only">Actions</span>
                        </TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {list.map((r) => (
                        <TableRow key={r.id} data-testid="firewall-rule">
                          <TableCell>{r.name}</TableCell>
                          <TableCell>
                            <code>{r.startIpAddress}</code>
                          </TableCell>
                          <TableCell>
                            <code>{r.endIpAddress}</code>
                          </TableCell>
                          <TableCell>
                            <Button
                              appearance="subtle"
                              icon={<Delete20Regular />}
                              aria-label={`Remove rule ${r.name}`}
                              onClick={() => setRemoving(r)}
                            />
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )
              }
            </RequestState>
            <form
              className={s.form}
              aria-label="Add a firewall rule"
              onSubmit={(e) => {
                e.preventDefault();
                fixes.addRule.mutate(rule, {
                  onSuccess: (r) => {
                    setLast(r.change);
                    setRule({ name: '', startIpAddress: '', endIpAddress: '' });
                  },
                });
              }}
            >
              <Field label="Rule name" required>
                <Input value={rule.name} onChange={setR('name')} style={{ width: 200 }} />
              </Field>
              <Field label="Start IP address" required>
                <Input value={rule.startIpAddress} onChange={setR('startIpAddress')} style={{ width: 160 }} placeholder="203.0.113.0" />
              </Field>
              <Field label="End IP address" required>
                <Input value={rule.endIpAddress} onChange={setR('endIpAddress')} style={{ width: 160 }} placeholder="203.0.113.255" />
              </Field>
              <Button
                type="submit"
                icon={<Add20Regular />}
                disabled={fixes.addRule.isPending || !rule.name || !rule.startIpAddress || !rule.endIpAddress}
              >
                {fixes.addRule.isPending ? 'Adding…' : 'Add rule'}
              </Button>
            </form>
            {fixes.addRule.isError && <ErrorMessage error={fixes.addRule.error} title="The rule was not added" />}
            <form
              className={s.form}
              aria-label="Check an egress address"
              onSubmit={(e) => {
                e.preventDefault();
                fixes.checkEgress.mutate(ip.trim());
              }}
            >
              <Field label="Egress address to check">
                <Input value={ip} onChange={(_, d) => setIp(d.value)} style={{ width: 160 }} placeholder="198.51.100.7" />
              </Field>
              <Button type="submit" disabled={!ip.trim() || fixes.checkEgress.isPending}>
                Check
              </Button>
              {fixes.checkEgress.data && (
                <Text role="status" data-testid="egress-result">
                  {fixes.checkEgress.data.ip} is{' '}
                  {fixes.checkEgress.data.allowed
                    ? `allowed (${fixes.checkEgress.data.allowingRules.map((r) => r.name).join(', ') || 'no rules'})`
                    : `not allowed by any of ${fixes.checkEgress.data.ruleCount} rules`}
                </Text>
              )}
            </form>
            {fixes.checkEgress.isError && <ErrorMessage error={fixes.checkEgress.error} title="Could not check the address" />}
          </Section>
          <Section title="Workspace role assignments" testId="role-assignments">
            <RequestState query={roles} label="the role assignments">
              {(list) =>
                list.length === 0 ? (
                  <Text>No role assignments.</Text>
                ) : (
                  <Table size="small" aria-label="Role assignments">
                    <TableHeader>
                      <TableRow>
                        <TableHeaderCell>Principal</TableHeaderCell>
                        <TableHeaderCell style={{ width: 170 }}>Type</TableHeaderCell>
                        <TableHeaderCell style={{ width: 120 }}>Role</TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {list.map((a) => (
                        <TableRow key={a.id}>
                          <TableCell>
                            {a.principal.displayName ? `${a.principal.displayName} ` : ''}
                            <span className={s.mono}>{a.principal.id}</span>
                          </TableCell>
                          <TableCell>{a.principal.type}</TableCell>
                          <TableCell>{a.role}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )
              }
            </RequestState>
            <form
              className={s.form}
              aria-label="Grant a workspace role"
              onSubmit={(e) => {
                e.preventDefault();
                fixes.grant.mutate(grant, { onSuccess: (r) => setLast(r.change) });
              }}
            >
              <Field label="Principal object id" required>
                <Input
                  value={grant.principalId}
                  onChange={(_, d) => setGrant((g) => ({ ...g, principalId: d.value.trim() }))}
                  style={{ width: 320 }}
                />
              </Field>
              <Field label="Principal type">
                <Select value={grant.principalType} onChange={(_, d) => setGrant((g) => ({ ...g, principalType: d.value }))}>
                  {PRINCIPAL_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </Select>
              </Field>
              <Field label="Role">
                <Select value={grant.role} onChange={(_, d) => setGrant((g) => ({ ...g, role: d.value }))}>
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </Select>
              </Field>
              <Button type="submit" disabled={fixes.grant.isPending || !grant.principalId}>
                {fixes.grant.isPending ? 'Granting…' : 'Grant role'}
              </Button>
            </form>
            {fixes.grant.isError && <ErrorMessage error={fixes.grant.error} title="The role was not granted" />}
          </Section>
        </>
      )}
      {removing && (
        <FormDialog
          open
          title="Remove the firewall rule?"
          submitLabel="Remove"
          danger
          onClose={() => {
            setRemoving(undefined);
            fixes.removeRule.reset();
          }}
          pending={fixes.removeRule.isPending}
          error={fixes.removeRule.error}
          onSubmit={() =>
            fixes.removeRule.mutate(removing.id, {
              onSuccess: (r) => {
                setLast(r.change);
                setRemoving(undefined);
              },
            })
          }
        >
          <Text>
            <strong>{removing.name}</strong> ({removing.startIpAddress} – {removing.endIpAddress}) will be removed. The change is journaled;
            rolling it back adds the rule again.
          </Text>
        </FormDialog>
      )}
    </>
  );
}
