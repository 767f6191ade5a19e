import { randomBytes } from 'node:crypto';
import type { BackingPipeline, BackingResponse } from './http-pipeline.js';
import { BackingError, backingPath } from './http-pipeline.js';

/** A report as the reporting service answers it (Report of the REST API, plus fields the live service also sends). */
export interface BiReport {
  id: string;
  name?: string;
  reportType?: string;
  format?: string;
  datasetId?: string;
  datasetWorkspaceId?: string;
  description?: string;
  webUrl?: string;
  embedUrl?: string;
  isFromPbix?: boolean;
  modifiedDateTime?: string;
  modifiedBy?: string;
  createdDateTime?: string;
}

/** An export job (ExportTo) as the reporting service answers it. */
export interface BiExport {
  id: string;
  status: string;
  percentComplete?: number;
  reportId?: string;
  reportName?: string;
  createdDateTime?: string;
  lastActionDateTime?: string;
  resourceLocation?: string;
  resourceFileExtension?: string;
  ResourceFileExtension?: string;
  expirationTime?: string;
}

export interface BiDatasource {
  datasourceType?: string;
  datasourceName?: string;
  name?: string;
  connectionDetails?: Record<string, string>;
  datasourceId?: string;
  gatewayId?: string;
}

export interface BiImport {
  id: string;
  name?: string;
  importState?: 'Publishing' | 'Succeeded' | 'Failed' | string;
  reports?: BiReport[];
  error?: unknown;
}

/** A dataset as the group routes answer it (push datasets carry addRowsAPIEnabled). */
export interface BiDataset {
  id: string;
  name?: string;
  addRowsAPIEnabled?: boolean;
  configuredBy?: string;
  defaultRetentionPolicy?: string;
}

/** A push dataset table's schema, as POST datasets and PUT tables take it. */
export interface BiPushTable {
  name: string;
  columns: Array<{ name: string; dataType: string; formatString?: string }>;
  measures?: Array<{ name: string; expression: string; formatString?: string }>;
}

/** A push dataset's create request: its tables and relationships. */
export interface BiPushDataset {
  name: string;
  defaultMode: 'Push';
  tables: BiPushTable[];
  relationships?: Array<{
    name: string;
    fromTable: string;
    fromColumn: string;
    toTable: string;
    toColumn: string;
    crossFilteringBehavior?: string;
  }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The reporting API (/v1.0/myorg, group routes): reports, definitions through Export and imports, exports, tokens. */
export class ReportingClient {
  private readonly base: string;

  constructor(
    private readonly pipeline: BackingPipeline,
    apiUrl: string,
    private readonly audience: string,
  ) {
    this.base = `${apiUrl.replace(/\/+$/, '')}/v1.0/myorg`;
  }

  private send(
    method: string,
    path: string,
    extra: { json?: unknown; body?: Uint8Array; contentType?: string; accept?: string } = {},
  ): Promise<BackingResponse> {
    return this.pipeline.send({
      service: 'reporting',
      method,
      url: `${this.base}${path}`,
      audience: this.audience,
      json: extra.json,
      body: extra.body,
      contentType: extra.contentType,
      headers: extra.accept ? { accept: extra.accept } : undefined,
    });
  }

  private reports(groupId: string, reportId?: string) {
    return reportId ? backingPath`/groups/${groupId}/reports/${reportId}` : backingPath`/groups/${groupId}/reports`;
  }

  /** The group's reports. The spec's filter is sent; the group route ignores it, so callers filter on reportType too. */
  async listReports(groupId: string): Promise<BiReport[]> {
    const filter = encodeURIComponent("reportType eq 'PaginatedReport'");
    const res = await this.send('GET', `${this.reports(groupId)}?$filter=${filter}`);
    return res.json<{ value: BiReport[] }>().value ?? [];
  }

  /**
   * The group's reports through the admin route (GET admin/groups/{id}/reports), the one that carries createdBy,
   * modifiedBy and the dates; `filter` is an OData $filter, which this route honours.
   */
  async listAdminReports(groupId: string, filter?: string): Promise<BiReport[]> {
    const query = filter ? `?$filter=${encodeURIComponent(filter)}` : '';
    const res = await this.send('GET', backingPath`/admin/groups/${groupId}/reports` + query);
    return res.json<{ value: BiReport[] }>().value ?? [];
  }

  async getReport(groupId: string, reportId: string): Promise<BiReport> {
    return (await this.send('GET', this.reports(groupId, reportId))).json<BiReport>();
  }

  /** The report's definition file (for a paginated report, the .rdl bytes). */
  async exportDefinition(groupId: string, reportId: string): Promise<Uint8Array> {
    return (await this.send('GET', `${this.reports(groupId, reportId)}/Export`, { accept: 'application/octet-stream' })).bytes;
  }

  /** Publishes an .rdl through the import call and waits until the import is no longer Publishing. */
  async importRdl(
    groupId: string,
    name: string,
    rdl: Uint8Array,
    nameConflict: 'Abort' | 'Overwrite',
    deadlineMs = 120_000,
  ): Promise<BiImport> {
    const fileName = `${name}.rdl`;
    const boundary = `----svc${randomBytes(12).toString('hex')}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file0"; filename="${fileName.replace(/["\r\n]/g, '_')}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), rdl, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const query = `datasetDisplayName=${encodeURIComponent(fileName)}&nameConflict=${nameConflict}`;
    const res = await this.send('POST', `${backingPath`/groups/${groupId}/imports`}?${query}`, {
      body,
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    let imp = res.json<BiImport>();
    const deadline = Date.now() + deadlineMs;
    while (imp.importState !== 'Succeeded' && imp.importState !== 'Failed') {
      if (Date.now() > deadline)
        throw new BackingError(
          'reporting',
          0,
          '',
          'import_timeout',
          `import ${imp.id} still ${imp.importState ?? 'pending'} after ${deadlineMs / 1000} s`,
        );
      await sleep(Math.min(Number(res.headers.get('retry-after') ?? 0) * 1000 || 300, 5000));
      imp = (await this.send('GET', backingPath`/groups/${groupId}/imports/${imp.id}`)).json<BiImport>();
    }
    return imp;
  }

  /** The group's imports, with their names and states. */
  async listImports(groupId: string): Promise<BiImport[]> {
    return (await this.send('GET', backingPath`/groups/${groupId}/imports`)).json<{ value: BiImport[] }>().value ?? [];
  }

  async cloneReport(groupId: string, reportId: string, body: { name: string; targetWorkspaceId?: string }): Promise<BiReport> {
    return (await this.send('POST', `${this.reports(groupId, reportId)}/Clone`, { json: body })).json<BiReport>();
  }

  async deleteReport(groupId: string, reportId: string): Promise<void> {
    await this.send('DELETE', this.reports(groupId, reportId));
  }

  /** Deletes a report (200, no body); false when the group holds no such report (404 PowerBIEntityNotFound). */
  async removeReport(groupId: string, reportId: string): Promise<boolean> {
    try {
      await this.send('DELETE', this.reports(groupId, reportId));
      return true;
    } catch (err) {
      if (err instanceof BackingError && err.status === 404) return false;
      throw err;
    }
  }

  async listDatasources(groupId: string, reportId: string): Promise<BiDatasource[]> {
    return (await this.send('GET', `${this.reports(groupId, reportId)}/datasources`)).json<{ value: BiDatasource[] }>().value ?? [];
  }

  async updateDatasources(
    groupId: string,
    reportId: string,
    updateDetails: Array<{ datasourceName: string; connectionDetails: { server?: string; database?: string } }>,
  ): Promise<void> {
    await this.send('POST', `${this.reports(groupId, reportId)}/Default.UpdateDatasources`, { json: { updateDetails } });
  }

  private datasets(groupId: string, datasetId?: string) {
    return datasetId ? backingPath`/groups/${groupId}/datasets/${datasetId}` : backingPath`/groups/${groupId}/datasets`;
  }

  /** The group's datasets (push datasets and the workspace's semantic models). */
  async listDatasets(groupId: string): Promise<BiDataset[]> {
    return (await this.send('GET', this.datasets(groupId))).json<{ value: BiDataset[] }>().value ?? [];
  }

  /** Creates a push dataset (201) with the retention policy that keeps the newest rows of each table. */
  async createPushDataset(groupId: string, body: BiPushDataset): Promise<BiDataset> {
    return (await this.send('POST', `${this.datasets(groupId)}?defaultRetentionPolicy=basicFIFO`, { json: body })).json<BiDataset>();
  }

  /** The names of a push dataset's tables (the service answers names only). */
  async listTables(groupId: string, datasetId: string): Promise<string[]> {
    const res = await this.send('GET', `${this.datasets(groupId, datasetId)}/tables`);
    return (res.json<{ value: Array<{ name: string }> }>().value ?? []).map((t) => t.name);
  }

  /** Updates an existing table's schema (columns and measures); a table the dataset lacks is 404 ItemNotFound. */
  async putTable(groupId: string, datasetId: string, table: BiPushTable): Promise<void> {
    await this.send('PUT', this.datasets(groupId, datasetId) + backingPath`/tables/${table.name}`, { json: table });
  }

  /** Adds rows to a push dataset table (at most 10,000 per call, the documented limit). */
  async postRows(groupId: string, datasetId: string, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
    await this.send('POST', this.datasets(groupId, datasetId) + backingPath`/tables/${table}/rows`, { json: { rows } });
  }

  /** Removes every row of a push dataset table. */
  async deleteRows(groupId: string, datasetId: string, table: string): Promise<void> {
    await this.send('DELETE', this.datasets(groupId, datasetId) + backingPath`/tables/${table}/rows`);
  }

  /** Deletes a dataset (200); false when the group holds no such dataset (404). */
  async removeDataset(groupId: string, datasetId: string): Promise<boolean> {
    try {
      await this.send('DELETE', this.datasets(groupId, datasetId));
      return true;
    } catch (err) {
      if (err instanceof BackingError && err.status === 404) return false;
      throw err;
    }
  }

  /** A view embed token (GenerateToken V1): paginated reports take accessLevel View and no datasetId. */
  async generateToken(
    groupId: string,
    reportId: string,
    body: { lifetimeInMinutes?: number; identities?: unknown[] },
  ): Promise<{ token: string; tokenId: string; expiration: string }> {
    return (await this.send('POST', `${this.reports(groupId, reportId)}/GenerateToken`, { json: { accessLevel: 'View', ...body } })).json();
  }

  /** Starts a render job (ExportTo, 202 with an Export). */
  async startExport(
    groupId: string,
    reportId: string,
    body: { format: string; paginatedReportConfiguration?: unknown },
  ): Promise<BiExport> {
    return (await this.send('POST', `${this.reports(groupId, reportId)}/ExportTo`, { json: body })).json<BiExport>();
  }

  /** The export's state, and Retry-After (seconds) while it is unfinished. */
  async getExport(groupId: string, reportId: string, exportId: string): Promise<{ export: BiExport; retryAfter?: number }> {
    const res = await this.send('GET', this.reports(groupId, reportId) + backingPath`/exports/${exportId}`);
    const retry = Number(res.headers.get('retry-after'));
    return { export: res.json<BiExport>(), ...(Number.isFinite(retry) && retry > 0 ? { retryAfter: retry } : {}) };
  }

  /** The exported file's bytes and content type. */
  async exportFile(groupId: string, reportId: string, exportId: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const res = await this.send('GET', this.reports(groupId, reportId) + backingPath`/exports/${exportId}/file`, { accept: '*/*' });
    return { bytes: res.bytes, contentType: res.headers.get('content-type') ?? 'application/octet-stream' };
  }
}
