import { useState } from 'react';
import { Badge, Button, Field, Input, Text, Textarea } from '@fluentui/react-components';
import { useSearchParams } from 'react-router-dom';
import { IDENTITY_TYPES, useDiagnosis, type DiagnoseInput, type IdentityType } from '../../api/identity';
import { ErrorMessage } from '../RequestState';
import { IdentityTypeField, Section, useIdentityStyles } from './shared';

const isIdentityType = (v: string | null): v is IdentityType => !!v && v in IDENTITY_TYPES;

/** A failing answer (status and body, an AADSTS code, expired_token, client IP not allowed) and an identity type → causes, first checks, actions. */
export function DiagnosePanel() {
  const s = useIdentityStyles();
  const [params, setParams] = useSearchParams();
  // What is diagnosed lives in the address, so a failed install step or a probe can link here; a pasted body stays in the page.
  const [body, setBody] = useState('');
  const [submittedBody, setSubmittedBody] = useState('');
  const [form, setForm] = useState({
    status: params.get('status') ?? '',
    code: params.get('code') ?? '',
    identityType: params.get('identityType') ?? '',
    service: params.get('service') ?? '',
  });
  const status = params.get('status');
  const input: DiagnoseInput | undefined =
    status || params.get('code') || submittedBody
      ? {
          ...(status && /^\d{1,3}$/.test(status) ? { status: Number(status) } : {}),
          ...(params.get('code') ? { code: params.get('code')! } : {}),
          ...(params.get('service') ? { service: params.get('service')! } : {}),
          ...(isIdentityType(params.get('identityType')) ? { identityType: params.get('identityType') as IdentityType } : {}),
          ...(submittedBody ? { body: submittedBody } : {}),
        }
      : undefined;
  const diagnosis = useDiagnosis(input);
  const set = (k: keyof typeof form) => (_: unknown, d: { value: string }) => setForm((f) => ({ ...f, [k]: d.value }));
  const submit = () => {
    const q = new URLSearchParams({ tab: 'diagnose' });
    for (const [k, v] of Object.entries(form)) if (v.trim()) q.set(k, v.trim());
    if (params.get('ws')) q.set('ws', params.get('ws')!);
    setSubmittedBody(body.trim());
    setParams(q);
  };
  return (
    <>
      {input && (
        // A linked diagnosis comes first: it is what the step or probe link was opened for.
        <Section title="Diagnosis" testId="diagnosis">
          {diagnosis.isPending && <Text>Diagnosing…</Text>}
          {diagnosis.isError && (
            <ErrorMessage error={diagnosis.error} title="Could not diagnose" onRetry={() => void diagnosis.refetch()} />
          )}
          {diagnosis.data && (
            <div style={{ display: 'grid', gap: 12 }}>
              <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
                <Text weight="semibold" size={400} data-testid="diagnosis-symptom">
                  {diagnosis.data.symptom.text}
                </Text>
                <Badge appearance="outline">matched on {diagnosis.data.matchedOn}</Badge>
                <Badge appearance="tint" color="informative">
                  {IDENTITY_TYPES[diagnosis.data.identityType] ?? diagnosis.data.identityType}
                  {diagnosis.data.identityTypeInferred ? ' (inferred)' : ''}
                </Badge>
              </div>
              {diagnosis.data.requiredGrant && (
                <Text>
                  Required grant: <strong>{diagnosis.data.requiredGrant}</strong>
                </Text>
              )}
              <div>
                <Text weight="semibold" as="h3" block>
                  Likely causes
                </Text>
                <ul className={s.list} aria-label="Likely causes" data-testid="likely-causes">
                  {diagnosis.data.likelyCauses.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </div>
              <div>
                <Text weight="semibold" as="h3" block>
                  First checks for a {IDENTITY_TYPES[diagnosis.data.identityType] ?? diagnosis.data.identityType}
                </Text>
                <ul className={s.list} aria-label="First checks">
                  {diagnosis.data.firstChecks.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </div>
              <div>
                <Text weight="semibold" as="h3" block>
                  Actions
                </Text>
                <ol className={s.list} aria-label="Actions">
                  {diagnosis.data.actions.map((a) => (
                    <li key={a.action}>
                      {a.action} <code className={s.mono}>{a.command}</code>
                    </li>
                  ))}
                </ol>
              </div>
            </div>
          )}
        </Section>
      )}
      <Section title={input ? 'Diagnose another failure' : 'Diagnose a failure'}>
        <form
          className={s.formCol}
          aria-label="Diagnose a failure"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <div className={s.form}>
            <Field label="HTTP status" hint="e.g. 401, 403; empty for an identity-provider error">
              <Input
                value={form.status}
                onChange={set('status')}
                inputMode="numeric"
                pattern="[0-9]{1,3}"
                style={{ width: 120 }}
                name="status"
              />
            </Field>
            <Field label="Error code" hint="AADSTS53003, expired_token, AuthorizationFailed…">
              <Input value={form.code} onChange={set('code')} style={{ width: 240 }} name="code" />
            </Field>
            <IdentityTypeField
              value={form.identityType}
              onChange={set('identityType')}
              unsetLabel="Infer from the symptom"
              name="identityType"
            />
            <Field label="Backing service" hint="optional: dataPlatform, kql, identity…">
              <Input value={form.service} onChange={set('service')} style={{ width: 160 }} name="service" />
            </Field>
          </div>
          <Field label="Response body" hint="The failing answer's body, unmodified (optional; it is not kept)">
            <Textarea value={body} onChange={(_, d) => setBody(d.value)} rows={3} resize="vertical" spellCheck={false} />
          </Field>
          <div>
            <Button appearance="primary" type="submit" disabled={!form.status.trim() && !form.code.trim() && !body.trim()}>
              Diagnose
            </Button>
          </div>
        </form>
      </Section>
    </>
  );
}
