import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Field, Input, makeStyles, Select, Textarea, tokens } from '@fluentui/react-components';
import { useIncidentWorkflow, type IdentityType, type Incident, type VerifyRequest } from '../../api/identity';
import { ErrorMessage } from '../RequestState';
import {
  IdentityTypeField,
  RunAsFields,
  runAsComplete,
  runAsIdentity,
  SERVICE_RUN_AS,
  useIdentityStyles,
  useWorkspaceParam,
  WorkspaceField,
} from './shared';

const useStyles = makeStyles({
  actions: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(420px, 1fr))', gap: '16px', alignItems: 'start' },
  action: {
    display: 'grid',
    gap: '10px',
    alignContent: 'start',
    padding: '12px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  heading: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold },
});

/** Change kinds the service asks an approval (and a policy snapshot) for; other kinds are free text. */
const GATED_KIND = 'conditional-access';

type Pending = { isPending: boolean; isError: boolean; error: unknown };

/** One workflow step as a small form: its fields, its button, and the service's refusal right under it. */
function Action({
  title,
  testId,
  submit,
  label,
  busy,
  m,
  disabled,
  children,
}: {
  title: string;
  testId: string;
  submit: () => void;
  label: string;
  busy: string;
  m: Pending;
  disabled?: boolean;
  children: ReactNode;
}) {
  const c = useStyles();
  const s = useIdentityStyles();
  return (
    <form
      className={c.action}
      aria-label={title}
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h4 className={c.heading}>{title}</h4>
      <div className={s.form}>
        {children}
        <Button type="submit" appearance="primary" disabled={m.isPending || disabled}>
          {m.isPending ? busy : label}
        </Button>
      </div>
      {m.isError && <ErrorMessage error={m.error} title={`${title}: refused`} />}
    </form>
  );
}

const field =
  <T extends Record<string, string>>(setF: (f: (o: T) => T) => void) =>
  (k: keyof T) =>
  (_: unknown, d: { value: string }) =>
    setF((o) => ({ ...o, [k]: d.value }));

/** The incident's workflow actions, in the order the service expects them: approve, snapshot, record the change, verify; file a verbal approval's change request. */
export function IncidentWorkflow({ incident: i }: { incident: Incident }) {
  const c = useStyles();
  const w = useIncidentWorkflow(i.id);
  return (
    <div className={c.actions} data-testid="incident-actions">
      <Approve w={w} />
      <Snapshot w={w} />
      <RecordChange w={w} policies={[...new Set(i.snapshots.map((p) => p.policy))]} />
      <Verify w={w} identityType={i.identityType} />
      {i.changeRequests.length > 0 && <FileChangeRequest w={w} incident={i} />}
    </div>
  );
}

type Workflow = ReturnType<typeof useIncidentWorkflow>;

function Approve({ w }: { w: Workflow }) {
  const [f, setF] = useState({ changeKind: GATED_KIND, approver: '' });
  const [verbal, setVerbal] = useState(false);
  const set = field(setF);
  return (
    <Action
      title="Approve a change"
      testId="action-approve"
      label="Record approval"
      busy="Recording…"
      m={w.approve}
      disabled={!f.changeKind.trim() || !f.approver.trim()}
      submit={() =>
        w.approve.mutate(
          { changeKind: f.changeKind.trim(), approver: f.approver.trim(), verbal },
          { onSuccess: () => setF((o) => ({ ...o, approver: '' })) },
        )
      }
    >
      <Field label="Change kind" required>
        <Input value={f.changeKind} onChange={set('changeKind')} style={{ width: 170 }} />
      </Field>
      <Field label="Approver" required>
        <Input value={f.approver} onChange={set('approver')} style={{ width: 200 }} placeholder="identity change board" />
      </Field>
      <Checkbox label="Verbal (SEV1 only)" checked={verbal} onChange={(_, d) => setVerbal(d.checked === true)} />
    </Action>
  );
}

function Snapshot({ w }: { w: Workflow }) {
  const [f, setF] = useState({ policy: '', snapshot: '' });
  const [invalid, setInvalid] = useState<string>();
  const set = field(setF);
  const submit = () => {
    let snapshot: unknown;
    try {
      snapshot = JSON.parse(f.snapshot);
    } catch (err) {
      return setInvalid(`The snapshot is not JSON: ${(err as Error).message}`);
    }
    if (!snapshot || typeof snapshot !== 'object' || Array.isArray(snapshot))
      return setInvalid('The snapshot must be a JSON object (the policy as it is now)');
    setInvalid(undefined);
    w.snapshot.mutate(
      { policy: f.policy.trim(), snapshot: snapshot as Record<string, unknown> },
      { onSuccess: () => setF({ policy: '', snapshot: '' }) },
    );
  };
  return (
    <Action
      title="Snapshot a policy"
      testId="action-snapshot"
      label="Take snapshot"
      busy="Saving…"
      m={w.snapshot}
      disabled={!f.policy.trim() || !f.snapshot.trim()}
      submit={submit}
    >
      <Field label="Policy" required>
        <Input value={f.policy} onChange={set('policy')} style={{ width: 170 }} />
      </Field>
      <Field label="Snapshot (JSON)" required validationMessage={invalid} hint="the policy as it is before the edit">
        <Textarea
          value={f.snapshot}
          onChange={set('snapshot')}
          style={{ width: 300 }}
          resize="vertical"
          placeholder='{"state": "enabled"}'
        />
      </Field>
    </Action>
  );
}

function RecordChange({ w, policies }: { w: Workflow; policies: string[] }) {
  const [f, setF] = useState({ kind: GATED_KIND, summary: '', policy: '' });
  const set = field(setF);
  return (
    <Action
      title="Record a change"
      testId="action-record-change"
      label="Record change"
      busy="Recording…"
      m={w.recordChange}
      disabled={!f.kind.trim() || !f.summary.trim()}
      submit={() =>
        w.recordChange.mutate(
          { kind: f.kind.trim(), summary: f.summary.trim(), ...(f.policy.trim() ? { policy: f.policy.trim() } : {}) },
          { onSuccess: () => setF((o) => ({ ...o, summary: '' })) },
        )
      }
    >
      <Field label="Kind" required hint={`${GATED_KIND} needs an approval and a snapshot`}>
        <Input value={f.kind} onChange={set('kind')} style={{ width: 170 }} />
      </Field>
      <Field label="Summary" required>
        <Input value={f.summary} onChange={set('summary')} style={{ width: 260 }} />
      </Field>
      <Field label="Policy" hint="the snapshotted policy it edits">
        <Select value={f.policy} onChange={set('policy')} style={{ width: 170 }}>
          <option value="">none</option>
          {policies.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </Select>
      </Field>
    </Action>
  );
}

function Verify({ w, identityType }: { w: Workflow; identityType?: IdentityType }) {
  const [ws, setWs] = useWorkspaceParam();
  const [runAs, setRunAs] = useState(SERVICE_RUN_AS);
  const [f, setF] = useState({ pipelineId: '', lakehouseId: '', table: '', identityType: identityType ?? '' });
  const set = field(setF);
  const submit = () => {
    const body: VerifyRequest = {
      identity: runAsIdentity(runAs),
      workspaceId: ws,
      pipelineId: f.pipelineId.trim(),
      ...(f.lakehouseId.trim() && f.table.trim() ? { lakehouse: { lakehouseId: f.lakehouseId.trim(), table: f.table.trim() } } : {}),
      ...(f.identityType ? { identityType: f.identityType as IdentityType } : {}),
    };
    setRunAs((r) => ({ ...r, secret: '' })); // used for this verification only
    w.verify.mutate(body);
  };
  return (
    <Action
      title="Verify the fix"
      testId="action-verify"
      label="Run verification"
      busy="Verifying…"
      m={w.verify}
      submit={submit}
      disabled={!ws || !f.pipelineId.trim() || !runAsComplete(runAs)}
    >
      <WorkspaceField value={ws} onChange={setWs} />
      <Field label="Pipeline item id" required>
        <Input value={f.pipelineId} onChange={set('pipelineId')} style={{ width: 300 }} />
      </Field>
      <RunAsFields value={runAs} onChange={setRunAs} purpose="verification" />
      <Field label="Lakehouse item id" hint="optional: count a table's rows">
        <Input value={f.lakehouseId} onChange={set('lakehouseId')} style={{ width: 300 }} />
      </Field>
      <Field label="Table">
        <Input value={f.table} onChange={set('table')} style={{ width: 160 }} />
      </Field>
      <IdentityTypeField value={f.identityType} onChange={set('identityType')} unsetLabel="the incident's" />
    </Action>
  );
}

function FileChangeRequest({ w, incident: i }: { w: Workflow; incident: Incident }) {
  const [f, setF] = useState({ approvalId: i.changeRequests[0]!.approvalId, changeRequestId: '' });
  const set = field(setF);
  const approvalId = i.changeRequests.some((r) => r.approvalId === f.approvalId) ? f.approvalId : i.changeRequests[0]!.approvalId;
  return (
    <Action
      title="File a change request"
      testId="action-change-request"
      label="File"
      busy="Filing…"
      m={w.fileChangeRequest}
      disabled={!f.changeRequestId.trim()}
      submit={() =>
        w.fileChangeRequest.mutate(
          { approvalId, changeRequestId: f.changeRequestId.trim() },
          { onSuccess: () => setF((o) => ({ ...o, changeRequestId: '' })) },
        )
      }
    >
      <Field label="Verbal approval">
        <Select value={approvalId} onChange={set('approvalId')}>
          {i.changeRequests.map((r) => {
            const a = i.approvals.find((x) => x.id === r.approvalId);
            return (
              <option key={r.approvalId} value={r.approvalId}>
                {a ? `${a.changeKind} by ${a.approver}` : r.approvalId}
                {r.overdue ? ' (overdue)' : ''}
              </option>
            );
          })}
        </Select>
      </Field>
      <Field label="Change request id" required>
        <Input value={f.changeRequestId} onChange={set('changeRequestId')} style={{ width: 160 }} placeholder="CHG-1042" />
      </Field>
    </Action>
  );
}
