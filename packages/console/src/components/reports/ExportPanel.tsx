import { useEffect, useRef, useState } from 'react';
import { Button, Card, Field, Input, Link, ProgressBar, Select, Text, tokens } from '@fluentui/react-components';
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
import { isRequired, ParameterField, sentValues, type ParameterValue } from './ParameterField';

type Values = Record<string, ParameterValue>;
type Problems = Record<string, string>;

/** IMAGE encodings (the OutputFormat device-info setting); the browser shows the ones it can display. */
const IMAGE_TYPES = ['PNG', 'JPEG', 'GIF', 'BMP', 'TIFF', 'EMF'];
const PREVIEWABLE: Record<string, string> = { PNG: 'image/png', JPEG: 'image/jpeg', GIF: 'image/gif', BMP: 'image/bmp' };

/** A page number field's refusal: empty is fine (no limit), else a whole number from 1. */
const pageProblem = (text: string) => (text === '' || /^[1-9]\d*$/.test(text) ? undefined : 'A page number is a whole number from 1');

/**
 * What the form would send wrongly, by field (a parameter's name, `StartPage`, `EndPage`): a required parameter
 * without a value, a page number that is not one, a first page after the last.
 */
function problemsOf(parameters: ReportParameter[], values: Values, pages: { start: string; end: string }): Problems {
  const out: Problems = {};
  for (const p of parameters)
    if (isRequired(p) && !values[p.name]!.isNull && sentValues(p, values[p.name]!).length === 0)
      out[p.name] = p.hidden
        ? `The report needs a value of the hidden parameter ${p.name}, which has no default: fix the report's definition`
        : `${p.prompt} is required: the parameter has no default value`;
  const start = pageProblem(pages.start);
  const end = pageProblem(pages.end);
  if (start) out.StartPage = start;
  if (end) out.EndPage = end;
  if (!start && !end && pages.start && pages.end && Number(pages.start) > Number(pages.end))
    out.StartPage = `The first page (${pages.start}) comes after the last page (${pages.end})`;
  return out;
}

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
    // A default given as an expression (=Today(), =Split(…)) is the reporting service's to evaluate: the field starts
    // empty and, left so, sends nothing, so the default applies.
    Object.fromEntries(
      parameters.map((p) => [
        p.name,
        { values: p.defaultValues.length && !p.defaultValues.some((v) => v.startsWith('=')) ? p.defaultValues : [''], isNull: false },
      ]),
    ),
  );
  const [format, setFormat] = useState('PDF');
  const [imageType, setImageType] = useState('PNG');
  const [pages, setPages] = useState({ start: '', end: '' });
  const [job, setJob] = useState<ReportExport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [preview, setPreview] = useState<{ url: string; type: string } | null>(null);
  const [problems, setProblems] = useState<Problems>({});
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

  // A change to a field takes back its refusal; the next Export checks again.
  const forget = (...fields: string[]) =>
    setProblems((old) => Object.fromEntries(Object.entries(old).filter(([k]) => !fields.includes(k))));
  const set = (name: string, v: Partial<Values[string]>) => {
    forget(name);
    setValues((old) => ({ ...old, [name]: { ...old[name]!, ...v } }));
  };
  const setPage = (which: 'start' | 'end', value: string) => {
    forget('StartPage', 'EndPage');
    setPages((p) => ({ ...p, [which]: value }));
  };
  const parameterValues = () =>
    parameters.flatMap((p): Array<{ name: string; value: string | null }> => {
      const v = values[p.name]!;
      if (v.isNull) return [{ name: p.name, value: null }];
      return sentValues(p, v).map((value) => ({ name: p.name, value }));
    });

  const run = async () => {
    setError(null);
    setPreview(null);
    // Checked here, before anything is sent: the reporting service would refuse the export only once it has started.
    const found = problemsOf(parameters, values, pages);
    setProblems(found);
    if (Object.keys(found).length) return;
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
            <ParameterField key={p.name} p={p} v={values[p.name]!} set={(v) => set(p.name, v)} error={problems[p.name]} />
          ))}
        </div>
        {visible.some(isRequired) && (
          <Text size={200} style={{ color: tokens.colorNeutralForeground3 }}>
            Parameters marked * have no default value and must be set.
          </Text>
        )}
        {parameters
          .filter((p) => p.hidden && problems[p.name])
          .map((p) => (
            <Text key={p.name} role="alert" style={{ color: tokens.colorPaletteRedForeground1 }}>
              {problems[p.name]}
            </Text>
          ))}
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
          <Field
            label="From page"
            style={{ maxWidth: 200 }}
            validationState={problems.StartPage ? 'error' : 'none'}
            validationMessage={problems.StartPage}
          >
            <Input
              aria-label="From page"
              type="number"
              min={1}
              value={pages.start}
              onChange={(_, d) => setPage('start', d.value)}
              style={{ width: 90 }}
            />
          </Field>
          <Field
            label="To page"
            style={{ maxWidth: 200 }}
            validationState={problems.EndPage ? 'error' : 'none'}
            validationMessage={problems.EndPage}
          >
            <Input
              aria-label="To page"
              type="number"
              min={1}
              value={pages.end}
              onChange={(_, d) => setPage('end', d.value)}
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
