import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Card, Checkbox, Field, Input, Label, Link, ProgressBar, Select, Text, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, DocumentArrowRight20Regular } from '@fluentui/react-icons';
import {
  EXPORT_FORMATS,
  exportFileUrl,
  getExport,
  startExport,
  useDefinition,
  type PaginatedReport,
  type ReportExport,
  type ReportParameter,
} from '../../api/reports';
import { ErrorMessage, RequestState } from '../RequestState';

type Values = Record<string, { values: string[]; isNull: boolean }>;

/** IMAGE encodings (the OutputFormat device-info setting); the browser shows the ones it can display. */
const IMAGE_TYPES = ['PNG', 'JPEG', 'GIF', 'BMP', 'TIFF', 'EMF'];
const PREVIEWABLE: Record<string, string> = { PNG: 'image/png', JPEG: 'image/jpeg', GIF: 'image/gif', BMP: 'image/bmp' };

const inputType = (p: ReportParameter) =>
  p.dataType === 'DateTime' ? 'date' : p.dataType === 'Integer' || p.dataType === 'Float' ? 'number' : 'text';

/** The parameter panel (from the RDL's ReportParameters) and an export to any format, with progress, download and a preview. */
export function ExportPanel({ workspaceId, report }: { workspaceId: string; report: PaginatedReport }) {
  const def = useDefinition(workspaceId, report.id);
  return (
    <RequestState query={def} label="the report's parameters">
      {(d) => <Panel workspaceId={workspaceId} report={report} parameters={d.parameters} />}
    </RequestState>
  );
}

function Panel({ workspaceId, report, parameters }: { workspaceId: string; report: PaginatedReport; parameters: ReportParameter[] }) {
  const visible = parameters.filter((p) => !p.hidden);
  const [values, setValues] = useState<Values>(() =>
    Object.fromEntries(parameters.map((p) => [p.name, { values: p.defaultValues.length ? p.defaultValues : [''], isNull: false }])),
  );
  const [format, setFormat] = useState('PDF');
  const [imageType, setImageType] = useState('PNG');
  const [pages, setPages] = useState({ start: '', end: '' });
  const [job, setJob] = useState<ReportExport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [preview, setPreview] = useState<{ url: string; type: string } | null>(null);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview.url);
    },
    [preview],
  );

  const set = (name: string, v: Partial<Values[string]>) => setValues((old) => ({ ...old, [name]: { ...old[name]!, ...v } }));
  const parameterValues = () =>
    parameters.flatMap((p): Array<{ name: string; value: string | null }> => {
      const v = values[p.name]!;
      if (v.isNull) return [{ name: p.name, value: null }];
      return v.values.filter((x) => x !== '' || p.allowBlank).map((value) => ({ name: p.name, value }));
    });

  const run = async () => {
    setError(null);
    setPreview(null);
    try {
      // Device-info settings of the render: a page range, and the image encoding for IMAGE.
      const formatSettings: Record<string, string> = {
        ...(pages.start ? { StartPage: pages.start } : {}),
        ...(pages.end ? { EndPage: pages.end } : {}),
        ...(format === 'IMAGE' ? { OutputFormat: imageType } : {}),
      };
      let e = await startExport(workspaceId, report.id, {
        format,
        parameterValues: parameterValues(),
        ...(Object.keys(formatSettings).length ? { formatSettings } : {}),
      });
      setJob(e);
      while (alive.current && e.status !== 'Succeeded' && e.status !== 'Failed') {
        await new Promise((r) => setTimeout(r, 700));
        e = await getExport(workspaceId, report.id, e.id);
        setJob(e);
      }
      const shown =
        format === 'PDF' || format === 'ACCESSIBLEPDF'
          ? 'application/pdf'
          : format === 'IMAGE' && PREVIEWABLE[imageType]
            ? PREVIEWABLE[imageType]
            : undefined;
      if (e.status === 'Succeeded' && shown) {
        const res = await fetch(exportFileUrl(workspaceId, report.id, e.id), { credentials: 'same-origin' });
        if (res.ok) setPreview({ url: URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: shown })), type: shown });
      }
    } catch (err) {
      setError(err);
    }
  };
  const running = job && job.status !== 'Succeeded' && job.status !== 'Failed';

  return (
    <section aria-label="Parameters and export" style={{ display: 'grid', gap: 12 }}>
      <Card aria-label="Parameters">
        <Text weight="semibold">Parameters</Text>
        {visible.length === 0 && <Text size={200}>This report has no parameters to set.</Text>}
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 12 }}>
          {visible.map((p) => (
            <ParameterField key={p.name} p={p} v={values[p.name]!} set={(v) => set(p.name, v)} />
          ))}
        </div>
      </Card>
      <Card aria-label="Export">
        <div style={{ display: 'flex', gap: 12, alignItems: 'end', flexWrap: 'wrap' }}>
          <Field label="Format">
            <Select aria-label="Export format" value={format} onChange={(_, d) => setFormat(d.value)}>
              {EXPORT_FORMATS.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </Select>
          </Field>
          {format === 'IMAGE' && (
            <Field label="Image type">
              <Select aria-label="Image type" value={imageType} onChange={(_, d) => setImageType(d.value)}>
                {IMAGE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          <Field label="From page">
            <Input
              aria-label="From page"
              type="number"
              min={1}
              value={pages.start}
              onChange={(_, d) => setPages((p) => ({ ...p, start: d.value }))}
              style={{ width: 90 }}
            />
          </Field>
          <Field label="To page">
            <Input
              aria-label="To page"
              type="number"
              min={1}
              value={pages.end}
              onChange={(_, d) => setPages((p) => ({ ...p, end: d.value }))}
              style={{ width: 90 }}
            />
          </Field>
          <Button appearance="primary" icon={<DocumentArrowRight20Regular />} disabled={!!running} onClick={() => void run()}>
            {running ? 'Exporting…' : 'Export'}
          </Button>
          {job?.status === 'Succeeded' && (
            <Button
              as="a"
              href={exportFileUrl(workspaceId, report.id, job.id)}
              download
              icon={<ArrowDownload20Regular />}
              data-testid="export-download"
            >
              Download {job.fileExtension ?? ''}
            </Button>
          )}
        </div>
        {job && (
          <Field
            label={`Export ${job.status}`}
            validationState={job.status === 'Failed' ? 'error' : 'none'}
            validationMessage={job.status === 'Failed' ? 'The reporting service could not render the report' : undefined}
          >
            <ProgressBar value={job.percentComplete / 100} thickness="large" aria-label="Export progress" data-testid="export-progress" />
          </Field>
        )}
        {job?.expirationTime && job.status === 'Succeeded' && (
          <Text size={200} style={{ color: tokens.colorNeutralForeground3 }}>
            The file can be downloaded until {new Date(job.expirationTime).toLocaleString()}.
          </Text>
        )}
        {error ? <ErrorMessage error={error} title="Export refused" /> : null}
      </Card>
      {preview && (
        <Card aria-label="Preview">
          <Text weight="semibold">
            Preview{' '}
            <Link href={preview.url} target="_blank" rel="noreferrer">
              (open in a new tab)
            </Link>
          </Text>
          {preview.type === 'application/pdf' ? (
            <iframe
              title="Report preview"
              src={preview.url}
              style={{ width: '100%', height: 640, border: `1px solid ${tokens.colorNeutralStroke2}` }}
            />
          ) : (
            <img alt="Report preview" src={preview.url} style={{ maxWidth: '100%', border: `1px solid ${tokens.colorNeutralStroke2}` }} />
          )}
        </Card>
      )}
    </section>
  );
}

function ParameterField({ p, v, set }: { p: ReportParameter; v: Values[string]; set: (v: Partial<Values[string]>) => void }) {
  const hint = `${p.dataType}${p.multiValue ? ', several values' : ''}${p.nullable ? ', may be null' : ''}`;
  let control: ReactNode;
  if (p.validValues.length && p.multiValue) {
    control = (
      <fieldset aria-labelledby={`param-${p.name}`} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        {p.validValues.map((o) => (
          <Checkbox
            key={o.value}
            label={o.label}
            checked={v.values.includes(o.value)}
            disabled={v.isNull}
            onChange={(_, d) => set({ values: d.checked ? [...v.values.filter(Boolean), o.value] : v.values.filter((x) => x !== o.value) })}
          />
        ))}
      </fieldset>
    );
  } else if (p.validValues.length) {
    control = (
      <Select aria-label={p.prompt} value={v.values[0] ?? ''} disabled={v.isNull} onChange={(_, d) => set({ values: [d.value] })}>
        {!p.defaultValues.length && <option value="">Choose…</option>}
        {p.validValues.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    );
  } else if (p.dataType === 'Boolean') {
    control = (
      <Select aria-label={p.prompt} value={v.values[0] ?? ''} disabled={v.isNull} onChange={(_, d) => set({ values: [d.value] })}>
        <option value="">Choose…</option>
        <option value="true">True</option>
        <option value="false">False</option>
      </Select>
    );
  } else {
    const text = p.multiValue ? v.values.join('\n') : (v.values[0] ?? '');
    control = p.multiValue ? (
      <textarea
        aria-label={p.prompt}
        rows={3}
        value={text}
        disabled={v.isNull}
        onChange={(e) => set({ values: e.target.value.split('\n') })}
        placeholder="one value per line"
      />
    ) : (
      <Input
        aria-label={p.prompt}
        type={inputType(p)}
        step={p.dataType === 'Float' ? 'any' : undefined}
        value={text}
        disabled={v.isNull}
        onChange={(_, d) => set({ values: [d.value] })}
      />
    );
  }
  // Checkboxes sit outside Field: a Field gives every Fluent control inside it the same id.
  const single = !(p.validValues.length && p.multiValue);
  return (
    <div style={{ display: 'grid', gap: 4, alignContent: 'start' }}>
      {single ? (
        <Field label={p.prompt} hint={hint}>
          {control}
        </Field>
      ) : (
        <>
          <Label id={`param-${p.name}`}>{p.prompt}</Label>
          {control}
          <Text size={200}>{hint}</Text>
        </>
      )}
      {p.nullable && <Checkbox label={`${p.prompt}: null`} checked={v.isNull} onChange={(_, d) => set({ isNull: !!d.checked })} />}
    </div>
  );
}
