import type { ReactNode } from 'react';
import { Badge, Field, Input, makeStyles, Select, Subtitle2, tokens, type SelectProps } from '@fluentui/react-components';
import { Link, useSearchParams } from 'react-router-dom';
import { useWorkspaces } from '../../api/workspaces';
import { IDENTITY_TYPES, type ProbeIdentity } from '../../api/identity';

export const useIdentityStyles = makeStyles({
  section: { display: 'grid', gap: '12px', marginBottom: '28px' },
  form: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'flex-end' },
  formCol: { display: 'grid', gap: '12px', maxWidth: '720px' },
  list: { margin: '0', paddingLeft: '20px', display: 'grid', gap: '4px' },
  mono: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, wordBreak: 'break-all' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** A titled block of a panel. */
export function Section({
  title,
  actions,
  children,
  testId,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const s = useIdentityStyles();
  return (
    <section className={s.section} aria-label={title} data-testid={testId}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <Subtitle2 as="h2" style={{ flexGrow: 1, margin: 0 }}>
          {title}
        </Subtitle2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export const fmtTime = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** ok / failed as a badge, with the words in it (never colour alone). */
export const OkBadge = ({
  ok,
  skipped,
  okText = 'ok',
  failText = 'failed',
}: {
  ok: boolean;
  skipped?: boolean;
  okText?: string;
  failText?: string;
}) =>
  skipped ? (
    <Badge appearance="tint" color="subtle">
      skipped
    </Badge>
  ) : (
    <Badge appearance="tint" color={ok ? 'success' : 'danger'}>
      {ok ? okText : failText}
    </Badge>
  );

/** The console address that diagnoses an answer: status, code and backing service. */
function diagnoseHref(input: { status?: number; code?: string; service?: string }): string {
  const q = new URLSearchParams({ tab: 'diagnose' });
  if (input.status) q.set('status', String(input.status));
  if (input.code) q.set('code', input.code);
  if (input.service) q.set('service', input.service);
  return `/identity?${q}`;
}

export const DiagnoseLink = ({ label = 'Diagnose', ...input }: { status?: number; code?: string; service?: string; label?: string }) => (
  <Link to={diagnoseHref(input)}>{label}</Link>
);

/** The platform workspace the fixes and probes act on, kept in the address (`ws`) so a link can name it. */
export function useWorkspaceParam(): [string, (ws: string) => void] {
  const [params, setParams] = useSearchParams();
  return [
    params.get('ws') ?? '',
    (ws) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (ws) next.set('ws', ws);
          else next.delete('ws');
          return next;
        },
        { replace: true },
      ),
  ];
}

/** A platform workspace id field, offering the ids the tenant's workspaces are bound to. */
export function WorkspaceField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const workspaces = useWorkspaces();
  const bound = [...new Set((workspaces.data ?? []).map((w) => w.platformWorkspaceId).filter((id): id is string => !!id))];
  return (
    <Field
      label="Platform workspace id"
      hint="A platform workspace assigned to your tenant (a workspace's binding, or the tenant's default one); any other is not found"
      required
      style={{ minWidth: 360, maxWidth: 560 }}
    >
      <Input
        value={value}
        onChange={(_, d) => onChange(d.value.trim())}
        list="identity-platform-workspaces"
        name="platformWorkspaceId"
        autoComplete="off"
      />
      <datalist id="identity-platform-workspaces">
        {bound.map((id) => (
          <option key={id} value={id}>
            {(workspaces.data ?? [])
              .filter((w) => w.platformWorkspaceId === id)
              .map((w) => w.name)
              .join(', ')}
          </option>
        ))}
      </datalist>
    </Field>
  );
}

/** The identity-type picker of the diagnose, probe and incident forms; the empty choice reads `unsetLabel`. */
export function IdentityTypeField({
  value,
  onChange,
  unsetLabel,
  name,
}: {
  value: string;
  onChange: SelectProps['onChange'];
  unsetLabel: string;
  name?: string;
}) {
  return (
    <Field label="Identity type">
      <Select value={value} onChange={onChange} name={name}>
        <option value="">{unsetLabel}</option>
        {Object.entries(IDENTITY_TYPES).map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Who a probe or a verification runs as: the service's own identity, a service principal or a user. */
export interface RunAs {
  kind: ProbeIdentity['kind'];
  clientId: string;
  secret: string;
  tenantId: string;
}
export const SERVICE_RUN_AS: RunAs = { kind: 'service', clientId: '', secret: '', tenantId: '' };

/** The request's `identity` for a RunAs (the secret travels for this one run only). */
export function runAsIdentity(r: RunAs): ProbeIdentity {
  const tenant = r.tenantId.trim() ? { tenantId: r.tenantId.trim() } : {};
  if (r.kind === 'client-credentials') return { kind: r.kind, clientId: r.clientId.trim(), clientSecret: r.secret, ...tenant };
  if (r.kind === 'refresh-token') return { kind: r.kind, clientId: r.clientId.trim(), refreshToken: r.secret, ...tenant };
  return { kind: 'service' };
}

export const runAsComplete = (r: RunAs) => r.kind === 'service' || (!!r.clientId.trim() && !!r.secret);

/** The "Run as" picker and, for a principal or a user, its client id and secret (and tenant when `tenant` is set). */
export function RunAsFields({
  value: r,
  onChange,
  purpose,
  tenant,
}: {
  value: RunAs;
  onChange: (r: RunAs) => void;
  purpose: string;
  tenant?: boolean;
}) {
  const set = (k: 'clientId' | 'secret' | 'tenantId') => (_: unknown, d: { value: string }) => onChange({ ...r, [k]: d.value });
  const needsSecret = r.kind !== 'service';
  return (
    <>
      <Field label="Run as">
        <Select value={r.kind} onChange={(_, d) => onChange({ ...r, kind: d.value as RunAs['kind'] })} name="identityKind">
          <option value="service">the service's own identity</option>
          <option value="client-credentials">a service principal (client credentials)</option>
          <option value="refresh-token">a user (refresh token)</option>
        </Select>
      </Field>
      {needsSecret && (
        <Field label="Client id" required>
          <Input value={r.clientId} onChange={set('clientId')} style={{ width: 300 }} autoComplete="off" />
        </Field>
      )}
      {needsSecret && (
        <Field
          label={r.kind === 'client-credentials' ? 'Client secret' : 'Refresh token'}
          hint={`Used for this ${purpose} only, never stored`}
          required
        >
          <Input type="password" value={r.secret} onChange={set('secret')} style={{ width: 260 }} autoComplete="off" />
        </Field>
      )}
      {needsSecret && tenant && (
        <Field label="Tenant id" hint="default: the deployment's">
          <Input value={r.tenantId} onChange={set('tenantId')} style={{ width: 300 }} />
        </Field>
      )}
    </>
  );
}
