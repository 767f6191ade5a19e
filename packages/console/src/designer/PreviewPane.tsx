import { useEffect, useRef, useState } from 'react';
import { Button, Field, Link, makeStyles, Select, Spinner, Text, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, SlidePlay20Regular } from '@fluentui/react-icons';
import { previewDraft, type ReportParameter } from '../api/reports';
import { ErrorMessage } from '../components/RequestState';
import { ParameterField, type ParameterValue } from '../components/reports/ParameterField';
import type { ParameterDef } from './model/params';

const useStyles = makeStyles({
  prompts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: '12px', alignItems: 'start' },
  bar: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap', margin: '10px 0' },
  frame: { width: '100%', height: '780px', border: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: '#ffffff' },
  image: { maxWidth: '100%', border: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: '#ffffff' },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** A designer parameter as the export prompts show it; an expression default is left to the reporting service. */
function promptOf(p: ParameterDef): { prompt: ReportParameter; initial: string[]; note?: string } {
  const literal = p.defaults.kind === 'values' && p.defaults.values.every((v) => !v.startsWith('=')) ? p.defaults.values : [];
  const computed = p.defaults.kind === 'query' || (p.defaults.kind === 'values' && !literal.length);
  return {
    prompt: {
      name: p.name,
      dataType: p.dataType,
      prompt: p.prompt || p.name,
      nullable: p.nullable,
      allowBlank: p.allowBlank,
      multiValue: p.multiValue,
      hidden: p.hidden,
      // A default the service computes counts as one: the prompt is not required.
      defaultValues: literal.length ? literal : computed ? ['(default)'] : [],
      validValues: p.available.kind === 'list' ? p.available.values.map((v) => ({ value: v.value, label: v.label || v.value })) : [],
    },
    initial: literal.length ? literal : [''],
    note:
      p.defaults.kind === 'values' && !literal.length
        ? `Left empty, the default ${p.defaults.values.join(', ')} applies`
        : p.defaults.kind === 'query'
          ? `Left empty, the default from ${p.defaults.dataSet} applies`
          : undefined,
  };
}

/** Run: the draft rendered by the reporting service (as a page image or PDF), with the parameter prompts. */
export function PreviewPane({
  workspaceId,
  text,
  params,
  runSignal,
}: {
  workspaceId: string;
  text: string;
  params: ParameterDef[];
  runSignal: number;
}) {
  const s = useStyles();
  const prompts = params.filter((p) => !p.hidden).map((p) => ({ p, ...promptOf(p) }));
  const [values, setValues] = useState<Record<string, ParameterValue>>({});
  const [format, setFormat] = useState<'IMAGE' | 'PDF'>('IMAGE');
  const [result, setResult] = useState<{ url: string; type: string; ranAt: Date } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const latest = useRef({ text, values, format });
  latest.current = { text, values, format };
  const entered = (param: string, initial: string[]) => values[param] ?? { values: initial, isNull: false };

  const run = async () => {
    setRunning(true);
    setError(null);
    const { text: definition, format: f } = latest.current;
    try {
      const parameterValues = prompts.flatMap(({ p, initial }): Array<{ name: string; value: string | null }> => {
        const v = latest.current.values[p.name] ?? { values: initial, isNull: false };
        if (v.isNull) return [{ name: p.name, value: null }];
        return v.values.filter((x) => x !== '' || p.allowBlank).map((value) => ({ name: p.name, value }));
      });
      const blob = await previewDraft(workspaceId, { definition, format: f, parameterValues });
      setResult((old) => {
        if (old) URL.revokeObjectURL(old.url);
        return { url: URL.createObjectURL(blob), type: blob.type, ranAt: new Date() };
      });
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  };
  // The ribbon's Run asks through runSignal; the pane runs once per ask.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run reads the latest draft through a ref
  useEffect(() => {
    if (runSignal > 0) void run();
  }, [runSignal]);
  useEffect(
    () => () => {
      if (result) URL.revokeObjectURL(result.url);
    },
    [result],
  );

  return (
    <section aria-label="Run" data-testid="preview">
      {prompts.length > 0 && (
        <fieldset className={s.prompts} aria-label="Parameter prompts" style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
          {prompts.map(({ p, prompt, initial, note }) => (
            <div key={p.name}>
              <ParameterField
                p={prompt}
                v={entered(p.name, initial)}
                set={(v) => setValues((old) => ({ ...old, [p.name]: { ...entered(p.name, initial), ...v } }))}
              />
              {note && (
                <Text size={200} className={s.hint}>
                  {note}
                </Text>
              )}
            </div>
          ))}
        </fieldset>
      )}
      <div className={s.bar}>
        <Field label="Show as">
          <Select value={format} onChange={(_, d) => setFormat(d.value as 'IMAGE' | 'PDF')}>
            <option value="IMAGE">First page (image)</option>
            <option value="PDF">PDF (every page)</option>
          </Select>
        </Field>
        <Button appearance="primary" icon={<SlidePlay20Regular />} disabled={running} onClick={() => void run()}>
          {running ? 'Running…' : 'Run'}
        </Button>
        {running && <Spinner size="tiny" label="The reporting service is rendering the draft" />}
        {result && !running && (
          <>
            <Text size={200} aria-live="polite" data-testid="preview-state">
              Rendered {result.ranAt.toLocaleTimeString()} (not published)
            </Text>
            <Link href={result.url} download={result.type === 'application/pdf' ? 'draft.pdf' : 'draft.png'}>
              <ArrowDownload20Regular aria-hidden /> Download
            </Link>
          </>
        )}
      </div>
      {error ? <ErrorMessage error={error} title="The draft could not be run" /> : null}
      {result && result.type.startsWith('image/') && <img className={s.image} src={result.url} alt="Report preview" />}
      {result && result.type === 'application/pdf' && <iframe className={s.frame} src={result.url} title="Report preview" />}
      {!result && !error && !running && (
        <Text className={s.hint}>Run renders the draft in the reporting service without publishing it.</Text>
      )}
    </section>
  );
}
