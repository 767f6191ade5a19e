import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, csrfHeader, isOffline } from './client';
import type { Schema } from './schemas';

/** A paginated report as the service lists it. */
export type PaginatedReport = Schema<'PaginatedReport'>;

export type ReportParameter = Schema<'ReportParameter'>;

export interface ReportDefinition {
  report: PaginatedReport;
  definition: string;
  etag: string;
  parameters: ReportParameter[];
}

export type ReportExport = Schema<'ReportExport'>;

export type ReportDatasource = Schema<'ReportDatasource'>;

/** The API's export formats (WORD and EXCEL travel to the reporting service as DOCX and XLSX). */
export const EXPORT_FORMATS = [
  { id: 'PDF', label: 'PDF', ext: '.pdf' },
  { id: 'ACCESSIBLEPDF', label: 'Accessible PDF', ext: '.pdf' },
  { id: 'WORD', label: 'Word', ext: '.docx' },
  { id: 'EXCEL', label: 'Excel', ext: '.xlsx' },
  { id: 'PPTX', label: 'PowerPoint', ext: '.pptx' },
  { id: 'CSV', label: 'CSV', ext: '.csv' },
  { id: 'XML', label: 'XML', ext: '.xml' },
  { id: 'MHTML', label: 'MHTML (web archive)', ext: '.mhtml' },
  { id: 'IMAGE', label: 'Image (TIFF, PNG…)', ext: '.tiff' },
] as const;

const base = '/api/items/paginated-report';
const q = (workspaceId: string) => `?workspaceId=${encodeURIComponent(workspaceId)}`;
const at = (workspaceId: string, reportId: string, rest = '') => `${base}/${encodeURIComponent(reportId)}${rest}${q(workspaceId)}`;

/** Where a workspace's reports live: its bound platform workspace, or (unbound) the tenant's default one. */
export type ReportingWorkspace = { id: string; source: 'binding' | 'tenant-default' };

// One request answers both hooks below (the same query, each selecting its part).
const reportList = (workspaceId: string | undefined) => ({
  queryKey: ['reports', workspaceId],
  enabled: !!workspaceId,
  queryFn: () => api<{ reports: PaginatedReport[]; reportingWorkspace: ReportingWorkspace }>('GET', `${base}${q(workspaceId!)}`),
});

export const useReports = (workspaceId: string | undefined) => useQuery({ ...reportList(workspaceId), select: (r) => r.reports });

/** The reporting workspace of a workspace's reports, and why it is that one. */
export const useReportingWorkspace = (workspaceId: string | undefined) =>
  useQuery({ ...reportList(workspaceId), select: (r) => r.reportingWorkspace });

export const useReport = (workspaceId: string, reportId: string) =>
  useQuery({
    queryKey: ['report', workspaceId, reportId],
    queryFn: async () => (await api<{ report: PaginatedReport }>('GET', at(workspaceId, reportId))).report,
  });

/** The RDL with its ETag; not refetched behind the editor's back. */
export const useDefinition = (workspaceId: string, reportId: string) =>
  useQuery({
    queryKey: ['report-definition', workspaceId, reportId],
    queryFn: () => api<ReportDefinition>('GET', at(workspaceId, reportId, '/definition')),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });

/** Publishes the RDL back; a stale ETag rejects with ApiError etag_mismatch (412), invalid RDL with invalid_rdl (400). */
export const saveDefinition = (workspaceId: string, reportId: string, definition: string, etag: string) =>
  api<{ report: PaginatedReport; etag: string }>('PUT', at(workspaceId, reportId, '/definition'), { definition }, { 'if-match': etag });

export const useDatasources = (workspaceId: string, reportId: string) =>
  useQuery({
    queryKey: ['report-datasources', workspaceId, reportId],
    queryFn: async () => (await api<{ datasources: ReportDatasource[] }>('GET', at(workspaceId, reportId, '/datasources'))).datasources,
  });

export const startExport = (
  workspaceId: string,
  reportId: string,
  body: { format: string; parameterValues?: Array<{ name: string; value: string | null }>; formatSettings?: Record<string, string> },
) => api<{ export: ReportExport }>('POST', at(workspaceId, reportId, '/exports'), body).then((r) => r.export);

export const getExport = (workspaceId: string, reportId: string, exportId: string) =>
  api<{ export: ReportExport }>('GET', at(workspaceId, reportId, `/exports/${encodeURIComponent(exportId)}`)).then((r) => r.export);

/** The address of an export's file (the session cookie authorizes the download). */
export const exportFileUrl = (workspaceId: string, reportId: string, exportId: string) =>
  at(workspaceId, reportId, `/exports/${encodeURIComponent(exportId)}/file`);

export const createEmbedToken = (workspaceId: string, reportId: string, body: { lifetimeInMinutes?: number } = {}) =>
  api<{ token: string; tokenId: string; expiration: string; embedUrl: string | null }>(
    'POST',
    at(workspaceId, reportId, '/embed-token'),
    body,
  );

/** Clone, delete, rebind and publish, each refreshing what it changes. */
export const useReportMutations = (workspaceId: string) => {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['reports', workspaceId] });
  return {
    clone: useMutation({
      mutationFn: async ({ reportId, name }: { reportId: string; name: string }) =>
        (await api<{ report: PaginatedReport }>('POST', at(workspaceId, reportId, '/clone'), { name })).report,
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (reportId: string) => api('DELETE', at(workspaceId, reportId)),
      onSuccess: refresh,
    }),
    publish: useMutation({
      mutationFn: async (body: { name: string; definition: string }) =>
        (await api<{ report: PaginatedReport }>('POST', `${base}${q(workspaceId)}`, body)).report,
      onSuccess: refresh,
    }),
    rebind: useMutation({
      mutationFn: async ({
        reportId,
        updateDetails,
      }: {
        reportId: string;
        updateDetails: Array<{ datasourceName: string; connectionDetails: { server?: string; database?: string } }>;
      }) =>
        (await api<{ datasources: ReportDatasource[] }>('POST', at(workspaceId, reportId, '/datasources'), { updateDetails })).datasources,
      onSuccess: (list, v) => qc.setQueryData(['report-datasources', workspaceId, v.reportId], list),
    }),
  };
};

/**
 * The designer's Run: a draft RDL rendered by the reporting service without publishing it (PDF, or a PNG of page 1).
 * The answer is the file's bytes; a refusal is the service's error envelope, thrown as ApiError like api() does.
 */
export async function previewDraft(
  workspaceId: string,
  body: { definition: string; format: 'PDF' | 'IMAGE'; parameterValues?: Array<{ name: string; value: string | null }> },
): Promise<Blob> {
  if (isOffline())
    throw new ApiError(0, { code: 'offline', message: 'You are offline: nothing was sent. Check the connection, then try again.' });
  let res: Response;
  try {
    res = await fetch(`/api/items/paginated-report-preview${q(workspaceId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...csrfHeader() },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (err) {
    throw new ApiError(0, { code: 'network_error', message: `The service could not be reached: ${(err as Error).message}` });
  }
  if (res.ok) return res.blob();
  const text = await res.text();
  let envelope: { error?: ConstructorParameters<typeof ApiError>[1] } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  throw new ApiError(res.status, envelope?.error ?? { message: `The service answered ${res.status}` });
}
