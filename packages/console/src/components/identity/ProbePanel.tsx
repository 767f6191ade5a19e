import { useState } from 'react';
import {
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
import { useQueryClient } from '@tanstack/react-query';
import { consoleDiagnosisLink, runProbe, type IdentityType, type ProbeRequest, type ProbeRun } from '../../api/identity';
import { ErrorMessage } from '../RequestState';
import { Link } from 'react-router-dom';
import {
  fmtTime,
  IdentityTypeField,
  OkBadge,
  RunAsFields,
  runAsComplete,
  runAsIdentity,
  SERVICE_RUN_AS,
  Section,
  useIdentityStyles,
  useWorkspaceParam,
  WorkspaceField,
} from './shared';

const CHECKS: Record<string, string> = {
  token: 'Token',
  'workspace-read': 'Workspace read',
  'lakehouse-count': 'Lakehouse row count',
  'pipeline-run': 'Pipeline run',
  'sign-ins': 'Sign-ins',
};

/** Acquire a token as an identity, read the workspace, count a lakehouse table, run a pipeline: each with its result, time and diagnosis. */
export function ProbePanel() {
  const s = useIdentityStyles();
  const qc = useQueryClient();
  const [ws, setWs] = useWorkspaceParam();
  const [runAs, setRunAs] = useState(SERVICE_RUN_AS);
  const [f, setF] = useState({ pipelineId: '', lakehouseId: '', table: '', identityType: '' });
  const [run, setRun] = useState<ProbeRun>();
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  const set = (k: keyof typeof f) => (_: unknown, d: { value: string }) => setF((o) => ({ ...o, [k]: d.value }));
  const submit = async () => {
    const body: ProbeRequest = {
      identity: runAsIdentity(runAs),
      workspaceId: ws,
      ...(f.pipelineId.trim() ? { pipelineId: f.pipelineId.trim() } : {}),
      ...(f.lakehouseId.trim() && f.table.trim() ? { lakehouse: { lakehouseId: f.lakehouseId.trim(), table: f.table.trim() } } : {}),
      ...(f.identityType ? { identityType: f.identityType as IdentityType } : {}),
    };
    setRunAs((r) => ({ ...r, secret: '' })); // used for this probe only
    setPending(true);
    setError(undefined);
    try {
      setRun(await runProbe(body));
    } catch (err) {
      setRun(undefined);
      setError(err);
    } finally {
      setPending(false);
      void qc.invalidateQueries({ queryKey: ['identity', 'signals'] });
    }
  };
  return (
    <>
      <Section title="Probe an identity">
        <form
          className={s.formCol}
          aria-label="Probe an identity"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <WorkspaceField value={ws} onChange={setWs} />
          <div className={s.form}>
            <RunAsFields value={runAs} onChange={setRunAs} purpose="probe" tenant />
          </div>
          <div className={s.form}>
            <Field label="Pipeline item id" hint="optional: run the pipeline job probe">
              <Input value={f.pipelineId} onChange={set('pipelineId')} style={{ width: 300 }} />
            </Field>
            <Field label="Lakehouse item id" hint="optional: count a table's rows">
              <Input value={f.lakehouseId} onChange={set('lakehouseId')} style={{ width: 300 }} />
            </Field>
            <Field label="Table">
              <Input value={f.table} onChange={set('table')} style={{ width: 160 }} />
            </Field>
            <IdentityTypeField value={f.identityType} onChange={set('identityType')} unsetLabel="not stated" />
          </div>
          <div>
            <Button appearance="primary" type="submit" disabled={pending || !ws || !runAsComplete(runAs)}>
              {pending ? 'Probing…' : 'Run probe'}
            </Button>
          </div>
        </form>
      </Section>
      {error ? <ErrorMessage error={error} title="The probe could not run" /> : null}
      {run && (
        <Section title={`${run.passed ? 'Passed' : 'Failed'} as ${run.principal}`} testId="probe-results">
          <Table size="small" aria-label="Probe results">
            <TableHeader>
              <TableRow>
                <TableHeaderCell style={{ width: 170 }}>Check</TableHeaderCell>
                <TableHeaderCell style={{ width: 90 }}>Result</TableHeaderCell>
                <TableHeaderCell style={{ width: 180 }}>At</TableHeaderCell>
                <TableHeaderCell style={{ width: 80 }}>Time</TableHeaderCell>
                <TableHeaderCell>Detail</TableHeaderCell>
                <TableHeaderCell style={{ width: 110 }}>Diagnosis</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {run.results.map((r) => {
                const link = consoleDiagnosisLink(r.diagnosis);
                return (
                  <TableRow key={r.check} data-testid="probe-row" data-check={r.check} data-ok={String(r.ok)}>
                    <TableCell>{CHECKS[r.check] ?? r.check}</TableCell>
                    <TableCell>
                      <OkBadge ok={r.ok} skipped={r.skipped} />
                    </TableCell>
                    <TableCell>{fmtTime(r.at)}</TableCell>
                    <TableCell>{r.ms} ms</TableCell>
                    <TableCell>
                      <Text size={200} style={{ wordBreak: 'break-word' }}>
                        {r.status ? `${r.status} ` : ''}
                        {r.code ? `${r.code}: ` : ''}
                        {r.detail}
                      </Text>
                    </TableCell>
                    <TableCell>{link ? <Link to={`${link}${ws ? `&ws=${encodeURIComponent(ws)}` : ''}`}>Diagnose</Link> : '—'}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Section>
      )}
    </>
  );
}
