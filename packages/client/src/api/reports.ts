import { errorFromResponse, SvcConnectionError, SvcError, SvcTimeoutError } from '../errors.js';
import { type Answer, key, rest, sleep, type Transport } from '../transport.js';
import type { PaginatedReport, ReportExport, RequestBody, Result } from '../types.js';

/**
 * Paginated reports of a workspace, every call made by the service to the reporting service. `exportToFile` starts
 * an export, polls it (honouring Retry-After) and answers the file.
 */
export function reportsApi(t: Transport) {
  const reports = {
    list: (workspaceId: string) =>
      t.run(
        'listPaginatedReports',
        (i) => t.api.GET('/api/items/paginated-report', { ...i, params: { query: { workspaceId } } }),
        key<PaginatedReport[]>('reports'),
      ),
    /** Publishes a new report from RDL (409 when the name is taken). */
    publish: (workspaceId: string, body: RequestBody<'publishPaginatedReport'>) =>
      t.run(
        'publishPaginatedReport',
        (i) => t.api.POST('/api/items/paginated-report', { ...i, params: { query: { workspaceId } }, body }),
        key<PaginatedReport>('report'),
      ),
    get: (workspaceId: string, reportId: string) =>
      t.run(
        'getPaginatedReport',
        (i) => t.api.GET('/api/items/paginated-report/{reportId}', { ...i, params: { path: { reportId }, query: { workspaceId } } }),
        key<PaginatedReport>('report'),
      ),
    delete: (workspaceId: string, reportId: string) =>
      t.run(
        'deletePaginatedReport',
        (i) => t.api.DELETE('/api/items/paginated-report/{reportId}', { ...i, params: { path: { reportId }, query: { workspaceId } } }),
        key<string>('deleted'),
      ),
    /** The RDL, its ETag and its parameters. */
    getDefinition: (workspaceId: string, reportId: string) =>
      t.run(
        'getPaginatedReportDefinition',
        (i) =>
          t.api.GET('/api/items/paginated-report/{reportId}/definition', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
          }),
        rest<Result<'getPaginatedReportDefinition'>>,
      ),
    /** Publishes the RDL back; `ifMatch` is the ETag read (or '*'). */
    putDefinition: (workspaceId: string, reportId: string, definition: string, ifMatch: string) =>
      t.run(
        'putPaginatedReportDefinition',
        (i) =>
          t.api.PUT('/api/items/paginated-report/{reportId}/definition', {
            ...i,
            params: { path: { reportId }, query: { workspaceId }, header: { 'if-match': ifMatch } },
            body: { definition },
          }),
        rest<Result<'putPaginatedReportDefinition'>>,
      ),
    clone: (workspaceId: string, reportId: string, body: RequestBody<'clonePaginatedReport'>) =>
      t.run(
        'clonePaginatedReport',
        (i) =>
          t.api.POST('/api/items/paginated-report/{reportId}/clone', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        key<PaginatedReport>('report'),
      ),
    datasources: (workspaceId: string, reportId: string) =>
      t.run(
        'listPaginatedReportDatasources',
        (i) =>
          t.api.GET('/api/items/paginated-report/{reportId}/datasources', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
          }),
        key<Result<'listPaginatedReportDatasources'>['datasources']>('datasources'),
      ),
    updateDatasources: (workspaceId: string, reportId: string, body: RequestBody<'updatePaginatedReportDatasources'>) =>
      t.run(
        'updatePaginatedReportDatasources',
        (i) =>
          t.api.POST('/api/items/paginated-report/{reportId}/datasources', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        key<Result<'updatePaginatedReportDatasources'>['datasources']>('datasources'),
      ),
    embedToken: (workspaceId: string, reportId: string, body: RequestBody<'createPaginatedReportEmbedToken'> = {}) =>
      t.run(
        'createPaginatedReportEmbedToken',
        (i) =>
          t.api.POST('/api/items/paginated-report/{reportId}/embed-token', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        rest<Result<'createPaginatedReportEmbedToken'>>,
      ),
    startExport: (workspaceId: string, reportId: string, body: RequestBody<'startPaginatedReportExport'>) =>
      t.run(
        'startPaginatedReportExport',
        (i) =>
          t.api.POST('/api/items/paginated-report/{reportId}/exports', {
            ...i,
            params: { path: { reportId }, query: { workspaceId } },
            body,
          }),
        key<ReportExport>('export'),
      ),
    getExport: (workspaceId: string, reportId: string, exportId: string) =>
      t.run(
        'getPaginatedReportExport',
        (i) =>
          t.api.GET('/api/items/paginated-report/{reportId}/exports/{exportId}', {
            ...i,
            params: { path: { reportId, exportId }, query: { workspaceId } },
          }),
        (b, r) => ({ export: b.export as ReportExport, retryAfter: Number(r.headers.get('retry-after')) || undefined }),
      ),
    /** The exported file's bytes, content type and file name. */
    exportFile: (workspaceId: string, reportId: string, exportId: string) =>
      file(t, 'getPaginatedReportExportFile', (signal) =>
        t.api.GET('/api/items/paginated-report/{reportId}/exports/{exportId}/file', {
          params: { path: { reportId, exportId }, query: { workspaceId } },
          parseAs: 'arrayBuffer',
          signal,
        }),
      ),
    /** Renders a draft definition without publishing it (PDF, or IMAGE: a PNG of the first page): the file. */
    preview: (workspaceId: string, body: RequestBody<'previewPaginatedReport'>) =>
      file(t, 'previewPaginatedReport', (signal) =>
        t.api.POST('/api/items/paginated-report-preview', { params: { query: { workspaceId } }, body, parseAs: 'arrayBuffer', signal }),
      ),
    /** Starts an export, polls it (Retry-After, else every second) until it ends, and answers its file; a Failed export throws. */
    exportToFile: async (
      workspaceId: string,
      reportId: string,
      body: RequestBody<'startPaginatedReportExport'>,
      o: { timeoutMs?: number; onProgress?: (e: ReportExport) => void } = {},
    ) => {
      let job = await reports.startExport(workspaceId, reportId, body);
      const deadline = Date.now() + (o.timeoutMs ?? 600_000);
      while (job.status !== 'Succeeded' && job.status !== 'Failed') {
        const polled = await reports.getExport(workspaceId, reportId, job.id);
        job = polled.export;
        o.onProgress?.(job);
        if (job.status === 'Succeeded' || job.status === 'Failed') break;
        if (Date.now() > deadline) throw new SvcTimeoutError(`export ${job.id} still ${job.status} (${job.percentComplete}%)`, job);
        await sleep((polled.retryAfter ?? 1) * 1000);
      }
      if (job.status === 'Failed') throw new SvcError(`export ${job.id} of report ${reportId} failed in the reporting service`);
      return { export: job, ...(await reports.exportFile(workspaceId, reportId, job.id)) };
    },
  };
  return reports;
}

/** A binary answer (a rendered file): its bytes, content type and the file name Content-Disposition gives. */
async function file(
  t: Transport,
  operation: string,
  send: (signal: AbortSignal) => Promise<unknown>,
): Promise<{ bytes: Uint8Array; contentType: string; fileName?: string }> {
  let answer: Answer;
  try {
    answer = (await send(AbortSignal.timeout(t.timeoutMs))) as Answer;
  } catch (err) {
    throw new SvcConnectionError(`${operation}: cannot reach ${t.baseUrl}: ${(err as Error)?.message ?? err}`, { cause: err });
  }
  if (!answer.response.ok) throw errorFromResponse(answer.response, answer.error);
  const disposition = answer.response.headers.get('content-disposition') ?? '';
  const fileName = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  return {
    bytes: new Uint8Array(answer.data as ArrayBuffer),
    contentType: answer.response.headers.get('content-type') ?? 'application/octet-stream',
    fileName: fileName ? decodeURIComponent(fileName) : undefined,
  };
}
