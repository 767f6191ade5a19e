import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import type { Router } from '../http/router.js';
import { escapeXml as esc } from './xml.js';
import { applyParameters, type ParameterValues } from './params.js';
import { readRdl } from './rdl.js';
import { renderFile } from './render/index.js';
import { renderHtml } from './render/documents.js';
import { ReportProcessingError } from './render/expressions.js';
import { layout, type Rendered } from './render/layout.js';
import { DataSourceError, liveRows, queryRows } from './live-data.js';
import type { StoredReport } from './store.js';

/** `rdl:format` names of the viewer and the export format each one renders. */
const URL_FORMATS: Record<string, string> = {
  PDF: 'PDF',
  ACCESSIBLEPDF: 'ACCESSIBLEPDF',
  PPTX: 'PPTX',
  EXCELOPENXML: 'XLSX',
  WORDOPENXML: 'DOCX',
  CSV: 'CSV',
  XML: 'XML',
  MHTML: 'MHTML',
  IMAGE: 'IMAGE',
};

const page = (status: number, title: string, body: string): Reply => ({
  status,
  contentType: 'text/html; charset=utf-8',
  raw: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>body{font-family:Segoe UI,Helvetica,Arial,sans-serif;margin:16px}form{margin:8px 0;padding:8px;background:#f3f3f3}label{margin-right:12px}.error{color:#a4262c}</style></head><body>${body}</body></html>`,
});

/** Parameters from the URL: `rp:Name=value` (repeat for several values), `rp:Name:isnull=true`. */
function urlParameters(ctx: RequestContext): Array<{ name: string; value: string | null }> {
  const out: Array<{ name: string; value: string | null }> = [];
  for (const [k, v] of ctx.url.searchParams) {
    if (!k.startsWith('rp:')) continue;
    const isNull = /:isnull$/i.exec(k);
    if (isNull) {
      if (v.toLowerCase() === 'true') out.push({ name: k.slice(3, isNull.index), value: null });
    } else out.push({ name: k.slice(3), value: v });
  }
  return out;
}

/**
 * The viewer address a report's webUrl names (`/groups/{g}/rdlreports/{r}`): the report rendered as HTML with a
 * parameter form, `rp:` URL parameters and `rdl:format` downloads. Served to the browser without sign-in: the sandbox
 * listens on loopback only.
 */
function viewer(core: SandboxCore, ctx: RequestContext, report: StoredReport): Reply {
  const model = readRdl(report.definition);
  let parameters: Map<string, ParameterValues>;
  try {
    parameters = applyParameters(model.parameters, urlParameters(ctx), {
      reportName: report.name,
      executionTime: new Date(),
      user: { userId: 'viewer', language: 'en-US' },
      renderFormat: ctx.query('rdl:format') ?? 'RPL',
      rowsOf: queryRows(core, model),
    });
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return page(400, report.name, `<h1>${esc(report.name)}</h1><p class="error">${esc(err.message)}</p>`);
  }
  const settings: Record<string, string> = {};
  for (const [k, v] of ctx.url.searchParams) if (k.startsWith('rdl:') && k !== 'rdl:format') settings[k.slice(4)] = v;
  const wanted = ctx.query('rdl:format');
  const scope = {
    reportName: report.name,
    executionTime: new Date(),
    user: { userId: 'viewer', language: 'en-US' },
    renderFormat: wanted ?? 'RPL',
    parameters,
  };
  let rendered: Rendered;
  try {
    rendered = layout(model, scope, settings, liveRows(core, model, scope));
  } catch (err) {
    if (!(err instanceof DataSourceError || err instanceof ReportProcessingError)) throw err;
    return page(500, report.name, `<h1>${esc(report.name)}</h1><p class="error">${esc(err.message)}</p>`);
  }
  if (wanted) {
    const format = URL_FORMATS[wanted.toUpperCase()];
    if (!format)
      return page(
        400,
        report.name,
        `<p class="error">rdl:format '${esc(wanted)}' is not one of ${Object.keys(URL_FORMATS).join(', ')}.</p>`,
      );
    const file = renderFile(format, rendered, settings);
    return {
      status: 200,
      raw: file.bytes,
      contentType: file.contentType,
      headers: { 'content-disposition': `inline; filename="${encodeURIComponent(report.name)}${file.extension}"` },
    };
  }
  const form = model.parameters
    .filter((p) => !p.hidden)
    .map((p) => {
      const current = parameters.get(p.name)!;
      const valid = current.parameter.validValues;
      const input = valid
        ? `<select name="rp:${esc(p.name)}"${p.multiValue ? ' multiple' : ''}>${valid.map((v) => `<option value="${esc(v.value)}"${current.values.includes(v.value) ? ' selected' : ''}>${esc(v.label)}</option>`).join('')}</select>`
        : `<input name="rp:${esc(p.name)}" value="${esc(current.values[0] ?? '')}">`;
      return `<label>${esc(p.prompt)} ${input}</label>`;
    })
    .join('');
  const html = renderHtml(rendered, rendered.pages);
  const body = html.slice(html.indexOf('<body>') + 6, html.lastIndexOf('</body>'));
  const downloads = Object.keys(URL_FORMATS)
    .map(
      (f) =>
        `<a href="?${esc(new URLSearchParams([...[...ctx.url.searchParams].filter(([k]) => k !== 'rdl:format'), ['rdl:format', f]]).toString())}">${f}</a>`,
    )
    .join(' · ');
  return page(
    200,
    report.name,
    `<h1>${esc(report.name)}</h1><p>${esc(report.description)}</p>${form ? `<form method="get">${form}<button type="submit">View report</button></form>` : ''}<p>Export: ${downloads}</p>${body}`,
  );
}

export function viewerRoutes(core: SandboxCore, router: Router): void {
  const find = (groupId: string | undefined, reportId: string | undefined, type: StoredReport['reportType']): StoredReport | undefined => {
    const r = reportId ? core.reporting.reports.get(reportId.toLowerCase()) : undefined;
    return r && r.groupId === groupId?.toLowerCase() && r.reportType === type ? r : undefined;
  };
  const missing = () => page(404, 'Not found', '<p class="error">This report does not exist or was deleted.</p>');
  router.get('/groups/:groupId/rdlreports/:reportId', (ctx) => {
    const r = find(ctx.params.groupId, ctx.params.reportId, 'PaginatedReport');
    return r ? viewer(core, ctx, r) : missing();
  });
  router.get('/rdlEmbed', (ctx) => {
    const r = find(ctx.query('groupId'), ctx.query('reportId'), 'PaginatedReport');
    return r ? viewer(core, ctx, r) : missing();
  });
  const pbix = (ctx: RequestContext, r: StoredReport | undefined) =>
    r ? page(200, r.name, `<h1>${esc(r.name)}</h1><p>Power BI report over semantic model ${esc(r.datasetId ?? '')}.</p>`) : missing();
  router.get('/groups/:groupId/reports/:reportId', (ctx) => pbix(ctx, find(ctx.params.groupId, ctx.params.reportId, 'PowerBIReport')));
  router.get('/reportEmbed', (ctx) => pbix(ctx, find(ctx.query('groupId'), ctx.query('reportId'), 'PowerBIReport')));
}
