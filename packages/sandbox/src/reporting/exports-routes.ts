import type { SandboxCore } from '../core.js';
import type { Router } from '../http/router.js';
import { invalidRequest, messageError, notFound } from './errors.js';
import { applyParameters } from './params.js';
import { readRdl, type RdlModel } from './rdl.js';
import { identityOf, type RenderIdentity } from './effective-identity.js';
import { IMAGE_FORMATS, renderFile } from './render/index.js';
import { ReportProcessingError } from './render/expressions.js';
import { layout } from './render/layout.js';
import { json, reportFor, settingDisabled } from './reports-routes.js';
import { DataSourceError, liveRows, queryRows } from './live-data.js';
import type { ExportJob, StoredReport } from './store.js';
import type { SwitchName } from '../switches.js';

const FORMATS = ['PPTX', 'PDF', 'PNG', 'IMAGE', 'XLSX', 'DOCX', 'CSV', 'XML', 'MHTML', 'ACCESSIBLEPDF'];
const PAGINATED_ONLY = ['IMAGE', 'XLSX', 'DOCX', 'CSV', 'XML', 'MHTML', 'ACCESSIBLEPDF'];

/** The tenant setting (switch and its name in the admin portal) that allows each format. */
const FORMAT_SETTINGS: Record<string, [SwitchName, string]> = {
  PDF: ['reporting.export.pdf', 'Export reports as PowerPoint presentations or PDF documents'],
  ACCESSIBLEPDF: ['reporting.export.pdf', 'Export reports as PowerPoint presentations or PDF documents'],
  PPTX: ['reporting.export.pdf', 'Export reports as PowerPoint presentations or PDF documents'],
  DOCX: ['reporting.export.word', 'Export reports as Word documents'],
  XLSX: ['reporting.export.excel', 'Export to Excel'],
  CSV: ['reporting.export.csv', 'Export to .csv'],
  XML: ['reporting.export.xml', 'Export reports as XML documents'],
  MHTML: ['reporting.export.mhtml', 'Export reports as MHTML documents'],
  IMAGE: ['reporting.export.image', 'Export reports as image files'],
  PNG: ['reporting.export.image', 'Export reports as image files'],
};

const PPU_INTERVAL_MS = 5 * 60_000;
const DAY = 86_400_000;

function exportJson(core: SandboxCore, job: ExportJob, now = Date.now()): Record<string, unknown> {
  let st = core.reporting.exportState(job, now);
  if (st.status === 'Succeeded' && !job.file) {
    // The render runs when the job first reads as finished; a data source error fails the job.
    try {
      extensionOf(job);
    } catch (err) {
      if (!(err instanceof DataSourceError || err instanceof ReportProcessingError)) throw err;
      job.error = err.message;
      st = core.reporting.exportState(job, now);
    }
  }
  return {
    id: job.id,
    createdDateTime: new Date(job.createdAt).toISOString(),
    lastActionDateTime: new Date(st.lastAction).toISOString(),
    reportId: job.reportId,
    reportName: job.reportName,
    status: st.status,
    percentComplete: st.percentComplete,
    ...(st.status === 'Succeeded'
      ? {
          resourceLocation: `${core.urls.reporting}/v1.0/myorg/groups/${job.groupId}/reports/${job.reportId}/exports/${encodeURIComponent(job.id)}/file`,
          resourceFileExtension: extensionOf(job),
        }
      : {}),
    expirationTime: new Date(job.expiresAt).toISOString(),
  };
}

function extensionOf(job: ExportJob): string {
  job.file ??= job.render(new Date(job.startAt));
  return job.file.extension;
}

function formatSettings(body: any): Record<string, string> {
  const fs = body?.paginatedReportConfiguration?.formatSettings;
  if (fs === undefined || fs === null) return {};
  if (typeof fs !== 'object' || Array.isArray(fs))
    throw invalidRequest('paginatedReportConfiguration.formatSettings must be an object of string values.');
  for (const [k, v] of Object.entries(fs))
    if (typeof v !== 'string') throw invalidRequest(`paginatedReportConfiguration.formatSettings.${k} must be a string.`);
  return fs as Record<string, string>;
}

/** ExportTo (202 + job), the job's status (Retry-After while unfinished) and its file. */
export function exportRoutes(core: SandboxCore, router: Router): void {
  const one = '/v1.0/myorg/groups/:groupId/reports/:reportId';

  router.post(`${one}/ExportTo`, async (ctx) => {
    const { caller, report } = await reportFor(core, ctx, 'Viewer');
    const body = await json(ctx);
    const format = body?.format;
    if (typeof format !== 'string' || !FORMATS.includes(format))
      throw invalidRequest('Export report was called with an unsupported file format');
    const paginated = report.reportType === 'PaginatedReport';
    if (paginated && format === 'PNG')
      throw invalidRequest(
        'Export report was called with an unsupported file format: PNG is for Power BI reports; use IMAGE with formatSettings.OutputFormat for a paginated report.',
      );
    if (!paginated && PAGINATED_ONLY.includes(format))
      throw invalidRequest(`Export report was called with an unsupported file format: ${format} is for paginated reports only.`);
    if (paginated && body.powerBIReportConfiguration)
      throw invalidRequest('powerBIReportConfiguration is for Power BI reports; a paginated report takes paginatedReportConfiguration.');
    const [sw, setting] = FORMAT_SETTINGS[format]!;
    if (!core.switches[sw]) settingDisabled(setting, `Export report to ${format}`);
    const capacity = core.switches['reporting.capacity'];
    if (capacity === 'shared')
      throw messageError(
        403,
        'FeatureNotAvailableError',
        `Export to file needs the workspace on a Premium, Embedded (A, EM) or Fabric (F) capacity; workspace ${report.groupId} is on shared capacity.`,
      );
    const now = Date.now();
    const retry = core.switches['reporting.retryAfterSeconds'];
    if (capacity === 'ppu' && core.reporting.lastPpuExport !== undefined && now - core.reporting.lastPpuExport < PPU_INTERVAL_MS) {
      const wait = Math.ceil((PPU_INTERVAL_MS - (now - core.reporting.lastPpuExport)) / 1000);
      throw messageError(429, 'TooManyRequests', 'A Premium Per User workspace allows one export request every 5 minutes.', {
        'retry-after': wait,
      });
    }
    if (core.reporting.activeRenders(now) >= core.switches['reporting.maxConcurrentRenders']) {
      throw messageError(
        429,
        'TooManyRequests',
        `The capacity is rendering ${core.switches['reporting.maxConcurrentRenders']} paginated reports concurrently; retry later.`,
        { 'retry-after': Math.max(1, retry) },
      );
    }
    const settings = formatSettings(body);
    if (
      format === 'IMAGE' &&
      settings.OutputFormat &&
      !(IMAGE_FORMATS as readonly string[]).includes(settings.OutputFormat.toUpperCase())
    ) {
      throw invalidRequest(`formatSettings.OutputFormat '${settings.OutputFormat}' is not produced here; use ${IMAGE_FORMATS.join(', ')}.`);
    }
    for (const k of ['StartPage', 'EndPage'])
      if (settings[k] !== undefined && !/^\d+$/.test(settings[k]!)) throw invalidRequest(`formatSettings.${k} must be a whole number.`);
    const model = paginated ? readRdl(report.definition) : undefined;
    // Defaults given as expressions see the export's user (read only when one names User!UserID) and the request's time.
    const user = {
      language: 'en-US',
      get userId() {
        return identityOf(core, body, model, caller).userId;
      },
    };
    const parameters = applyParameters(model?.parameters ?? [], body.paginatedReportConfiguration?.parameterValues, {
      reportName: report.name,
      executionTime: new Date(now),
      user,
      renderFormat: format,
      rowsOf: model ? queryRows(core, model) : undefined,
    });
    const identity = identityOf(core, body, model, caller);
    const render = renderer(core, report, model, parameters, identity, format, settings);
    const renderMs = core.switches['reporting.renderMs'];
    const timeout = core.switches['reporting.exportTimeoutMs'];
    const job: ExportJob = {
      id: core.reporting.exportId(),
      groupId: report.groupId,
      reportId: report.id,
      reportName: report.name,
      format,
      createdAt: now,
      startAt: now + Math.floor(renderMs / 4),
      doneAt: now + renderMs,
      failAt: renderMs > timeout ? now + timeout : undefined,
      expiresAt: now + DAY,
      render,
    };
    core.reporting.exports.set(job.id, job);
    if (capacity === 'ppu') core.reporting.lastPpuExport = now;
    return { status: 202, body: exportJson(core, job, now) };
  });

  const jobOf = (groupId: string, reportId: string, id: string): ExportJob => {
    const job = core.reporting.exports.get(id);
    if (!job || job.reportId !== reportId.toLowerCase() || job.groupId !== groupId.toLowerCase() || Date.now() > job.expiresAt)
      throw notFound();
    return job;
  };

  router.get(`${one}/exports/:exportId`, async (ctx) => {
    const { report } = await reportFor(core, ctx, 'Viewer');
    const job = jobOf(report.groupId, report.id, ctx.params.exportId!);
    const now = Date.now();
    const body = exportJson(core, job, now);
    const unfinished = body.status === 'NotStarted' || body.status === 'Running';
    const headers: Record<string, number> = unfinished ? { 'retry-after': core.switches['reporting.retryAfterSeconds'] } : {};
    return { status: unfinished ? 202 : 200, body, headers };
  });

  router.get(`${one}/exports/:exportId/file`, async (ctx) => {
    const { report } = await reportFor(core, ctx, 'Viewer');
    const job = jobOf(report.groupId, report.id, ctx.params.exportId!);
    exportJson(core, job);
    const st = core.reporting.exportState(job);
    if (st.status !== 'Succeeded')
      throw invalidRequest(`The export job is ${st.status}; its file is available once GET …/exports/{exportId} reports Succeeded.`);
    job.file ??= job.render(new Date(job.startAt));
    const filename = `${job.reportName}${job.file.extension}`;
    return {
      status: 200,
      raw: job.file.bytes,
      contentType: job.file.contentType,
      headers: {
        'content-disposition': `attachment; filename="${filename.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      },
    };
  });
}

/** The render of a job, run once when the job first reads as finished (ExecutionTime = when it started running). */
function renderer(
  core: SandboxCore,
  report: StoredReport,
  model: RdlModel | undefined,
  parameters: ReturnType<typeof applyParameters>,
  identity: RenderIdentity,
  format: string,
  settings: Record<string, string>,
) {
  return (executionTime: Date) => {
    const rdl: RdlModel = model ?? {
      namespace: '',
      dataSources: [],
      dataSets: [],
      parameters: [],
      tables: [],
      pageHeight: '7.5in',
      pageWidth: '13.33in',
      textboxes: [
        { name: 'Title', paragraphs: [report.name], region: 'body' },
        { name: 'Footer', paragraphs: ['="Page " & Globals!PageNumber & " of " & Globals!TotalPages'], region: 'footer' },
      ],
    };
    // User!UserID is the effective identity's username (else the caller's name).
    const scope = {
      reportName: report.name,
      executionTime,
      user: { userId: identity.userId, language: 'en-US' },
      renderFormat: format,
      parameters,
    };
    const rendered = layout(rdl, scope, settings, liveRows(core, rdl, scope, identity));
    return renderFile(format, rendered, settings);
  };
}
