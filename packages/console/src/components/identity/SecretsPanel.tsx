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
} from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import {
  useCredentials,
  useExpiryAlerts,
  useRotations,
  useSecretActions,
  type Credential,
  type ExpiryAlert,
  type Rotation,
} from '../../api/identity';
import { FormDialog } from '../FormDialog';
import { ErrorMessage, RequestState } from '../RequestState';
import { fmtTime, Section, useIdentityStyles } from './shared';

const LEVEL_COLOR = { notice: 'informative', warning: 'warning', critical: 'danger', expired: 'danger' } as const;
const STEP_LABEL: Record<string, string> = {
  'restart-consumers': 'Restart consumers',
  verify: 'Verify the new secret',
  'delete-old-secret': 'Delete the old secret',
};

function Expiry({ credential, alert }: { credential: Credential; alert?: ExpiryAlert }) {
  const days = Math.floor((Date.parse(credential.expiresAt) - Date.now()) / 86_400_000);
  return (
    <>
      {fmtTime(credential.expiresAt)}{' '}
      {alert ? (
        <Badge appearance="filled" color={LEVEL_COLOR[alert.level]}>
          {alert.level === 'expired' ? 'expired' : `${alert.daysRemaining} days · ${alert.level}`}
        </Badge>
      ) : (
        <Badge appearance="outline" color="success">
          {days} days
        </Badge>
      )}
    </>
  );
}

/** Registered service-principal secrets (metadata only), their expiry alerts, and the rotation workflow step by step. */
export function SecretsPanel() {
  const s = useIdentityStyles();
  const credentials = useCredentials();
  const rotations = useRotations();
  const alerts = useExpiryAlerts(true);
  const actions = useSecretActions();
  const [registering, setRegistering] = useState(false);
  const latest = (c: Credential): Rotation | undefined => rotations.data?.find((r) => r.credentialId === c.id);
  const actionError = [actions.rotate, actions.step, actions.rollback].find((m) => m.isError)?.error;
  return (
    <>
      <Section
        title="Registered credentials"
        testId="credentials"
        actions={
          <Button
            icon={<Add20Regular />}
            onClick={() => {
              actions.register.reset();
              setRegistering(true);
            }}
          >
            Register credential
          </Button>
        }
      >
        <Text className={s.muted}>
          Alerts fire when 90, 30 and 7 days remain. A rotation creates the new secret while the old stays valid, stores it in the vault,
          restarts consumers, verifies, and deletes the old secret only after verification and 24 hours of overlap.
        </Text>
        {actionError ? <ErrorMessage error={actionError} title="The rotation step was refused" /> : null}
        {rotations.isError && (
          <ErrorMessage error={rotations.error} title="Could not load the rotations" onRetry={() => void rotations.refetch()} />
        )}
        <RequestState query={credentials} label="the registered credentials">
          {(list) =>
            list.length === 0 ? (
              <Text>No credentials registered. Register a service principal's secret by its client id, key id and expiry.</Text>
            ) : (
              <Table size="small" aria-label="Registered credentials">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell style={{ width: 200 }}>Name</TableHeaderCell>
                    <TableHeaderCell>Client id / key id</TableHeaderCell>
                    <TableHeaderCell style={{ width: 240 }}>Expires</TableHeaderCell>
                    <TableHeaderCell style={{ width: 190 }}>Rotation</TableHeaderCell>
                    <TableHeaderCell style={{ width: 160 }}>
                      <span className="sr-only">Actions</span>
                    </TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.map((c) => {
                    const r = latest(c);
                    const running = r?.state === 'in-progress';
                    return (
                      <TableRow key={c.id} data-testid="credential-row">
                        <TableCell>
                          {c.displayName}
                          <Text size={200} block className={s.muted}>
                            vault: {c.vaultSecretName ?? 'none named'}
                          </Text>
                          {c.consumers.length > 0 && (
                            <Text size={200} block className={s.muted}>
                              consumers: {c.consumers.join(', ')}
                            </Text>
                          )}
                        </TableCell>
                        <TableCell>
                          <span className={s.mono}>{c.clientId}</span>
                          <Text size={200} block className={s.mono}>
                            {c.keyId}
                          </Text>
                        </TableCell>
                        <TableCell>
                          <Expiry credential={c} alert={alerts.data?.find((a) => a.credentialId === c.id)} />
                        </TableCell>
                        <TableCell>
                          {r ? (
                            <>
                              <Badge appearance="tint" color={running ? 'brand' : r.state === 'completed' ? 'success' : 'subtle'}>
                                {r.state}
                              </Badge>
                              <Text size={200} block>
                                {running && r.nextStep ? `next: ${STEP_LABEL[r.nextStep] ?? r.nextStep}` : fmtTime(r.updatedAt)}
                              </Text>
                              {r.log.length > 0 && (
                                <Text size={200} block className={s.muted}>
                                  {r.log[r.log.length - 1]!.detail}
                                </Text>
                              )}
                            </>
                          ) : (
                            <Text size={200}>never rotated here</Text>
                          )}
                        </TableCell>
                        <TableCell>
                          <div style={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
                            {!running && (
                              <Button
                                size="small"
                                disabled={actions.rotate.isPending || !c.vaultSecretName}
                                title={c.vaultSecretName ? undefined : 'name a vault secret first'}
                                onClick={() => actions.rotate.mutate(c.id)}
                              >
                                Start rotation
                              </Button>
                            )}
                            {running && r.nextStep && (
                              <Button
                                size="small"
                                appearance="primary"
                                disabled={actions.step.isPending}
                                onClick={() => actions.step.mutate({ rotationId: r.id, step: r.nextStep! })}
                              >
                                {STEP_LABEL[r.nextStep] ?? r.nextStep}
                              </Button>
                            )}
                            {running && (
                              <Button size="small" disabled={actions.rollback.isPending} onClick={() => actions.rollback.mutate(r.id)}>
                                Roll back rotation
                              </Button>
                            )}
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )
          }
        </RequestState>
      </Section>
      {registering && <RegisterDialog onClose={() => setRegistering(false)} />}
    </>
  );
}

/** Registers a credential by metadata: no secret value is asked for or kept. */
function RegisterDialog({ onClose }: { onClose: () => void }) {
  const { register } = useSecretActions();
  const [f, setF] = useState({ displayName: '', clientId: '', keyId: '', expiresOn: '', vaultSecretName: '', consumers: '' });
  const set = (k: keyof typeof f) => (_: unknown, d: { value: string }) => setF((o) => ({ ...o, [k]: d.value }));
  const submit = () => {
    const consumers = f.consumers
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    register.mutate(
      {
        displayName: f.displayName.trim(),
        clientId: f.clientId.trim(),
        keyId: f.keyId.trim(),
        expiresAt: new Date(`${f.expiresOn}T00:00:00Z`).toISOString(),
        ...(f.vaultSecretName.trim() ? { vaultSecretName: f.vaultSecretName.trim() } : {}),
        ...(consumers.length ? { consumers } : {}),
      },
      { onSuccess: onClose },
    );
  };
  return (
    <FormDialog
      open
      title="Register a credential"
      submitLabel="Register"
      onClose={onClose}
      onSubmit={submit}
      pending={register.isPending}
      error={register.error}
      disabled={!f.displayName.trim() || !f.clientId.trim() || !f.keyId.trim() || !/^\d{4}-\d{2}-\d{2}$/.test(f.expiresOn)}
    >
      <Text size={200}>Metadata only: the secret's value is never asked for or stored.</Text>
      <Field label="Display name" required>
        <Input value={f.displayName} onChange={set('displayName')} />
      </Field>
      <Field label="Client id" required>
        <Input value={f.clientId} onChange={set('clientId')} />
      </Field>
      <Field label="Key id" required>
        <Input value={f.keyId} onChange={set('keyId')} />
      </Field>
      <Field label="Expires on" hint="UTC date" required>
        <Input type="date" value={f.expiresOn} onChange={set('expiresOn')} />
      </Field>
      <Field label="Vault secret name" hint="where rotations store the new secret">
        <Input value={f.vaultSecretName} onChange={set('vaultSecretName')} />
      </Field>
      <Field label="Consumers" hint="comma-separated: what restarts after a rotation">
        <Input value={f.consumers} onChange={set('consumers')} />
      </Field>
    </FormDialog>
  );
}
