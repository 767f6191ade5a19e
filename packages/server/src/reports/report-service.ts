import { createHash } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { ReportsConfig } from '../config/reports.js';
import type { BiReport, ReportingClient } from '../backends/reporting.js';
import type { DataPlatformClient } from '../backends/data-platform.js';
import { ConflictError, GateError, NotFoundError, PreconditionError, type RemediationGate, ServiceError } from '../errors.js';
import { backing } from '../backends/failures.js';
import { gate } from '../provisioning/gates.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { checkRdl, faultText, type RdlParameter } from './rdl/check.js';
import { RdlSchema } from './rdl-schema.js';
import { type Authoring, ReportMetadata } from './report-metadata.js';
import { ReportExports } from './report-exports.js';
import { DRAFT_PREFIX, type PreviewRequest, ReportPreviews } from './report-preview.js';

export { EXPORT_FORMATS, type ReportExport } from './report-exports.js';

/** Where a workspace's paginated reports live: its bound platform workspace, or (unbound) the tenant's default one. */
export interface ReportingWorkspace {
  id: string;
  source: 'binding' | 'tenant-default';
}

/** A paginated report as the API shows it (SPEC.md "Paginated report"). */
export interface PaginatedReport {
  id: string;
  workspaceId: string;
  groupId: string;
  name: string;
  reportType: string;
  format: string | null;
  datasetId: string | null;
  description: string;
  modifiedDateTime: string | null;
  modifiedBy: string | null;
  /** Why modifiedDateTime and modifiedBy are null: the reporting service's admin API refused the service identity. */
  metadataGate?: RemediationGate;
  webUrl: string;
  embedUrl: string | null;
}

const PAGINATED = 'PaginatedReport';
const DOWNLOAD = { setting: 'Download reports' };
const etagOf = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** Paginated reports of a workspace, every call made to the reporting service with the service's identity. */
export class PaginatedReportService {
  private constructor(
    private readonly client: ReportingClient,
    private readonly workspaces: WorkspaceService,
    private readonly tenancy: TenancyService,
    private readonly profile: CloudProfile,
    private readonly schema: RdlSchema | undefined,
    private readonly metadata: ReportMetadata,
    private readonly exports: ReportExports,
    private readonly previews: ReportPreviews,
  ) {}

  /** The service; SVC_RDL_SCHEMA_PATH (the published RDL schema) is read here, once, and a bad path stops the start. */
  static create(options: {
    client: ReportingClient;
    workspaces: WorkspaceService;
    tenancy: TenancyService;
    profile: CloudProfile;
    settings: ReportsConfig;
    dataPlatform: DataPlatformClient;
  }): PaginatedReportService {
    // The exports resolve a workspace's group by the service's rule, which needs the service: bound once it exists.
    let service: PaginatedReportService | undefined;
    const exports = new ReportExports(
      options.client,
      options.dataPlatform,
      options.profile,
      options.settings.effectiveUsername,
      (caller, workspaceId) => service!.group(caller, workspaceId),
    );
    const previews = new ReportPreviews(options.client, exports, options.profile, {
      group: (caller, workspaceId) => service!.group(caller, workspaceId),
      validate: (definition) => service!.validate(definition),
      forget: (group) => service!.metadata.forget(group),
    });
    service = new PaginatedReportService(
      options.client,
      options.workspaces,
      options.tenancy,
      options.profile,
      RdlSchema.fromConfig(options.settings),
      new ReportMetadata(options.client, options.profile, options.settings.metadataCacheSeconds * 1000),
      exports,
      previews,
    );
    return service;
  }

  /**
   * The reporting group of a workspace of the caller's tenant: its bound platform workspace, else the tenant's default
   * one, and only ever one assigned to the tenant (a report of any other group is then not found).
   */
  private async group(caller: Caller, workspaceId: string): Promise<string> {
    return (await this.reportingWorkspace(caller, workspaceId)).id;
  }

  /** The reporting workspace a workspace's reports live in, and why: its own binding, or the tenant's default (unbound). */
  async reportingWorkspace(caller: Caller, workspaceId: string): Promise<ReportingWorkspace> {
    const ws = await this.workspaces.get(caller, workspaceId);
    const group = (await this.tenancy.sharedSet(caller.tenantId, ws.platformWorkspaceId)).platformWorkspaceId;
    if (!group) throw new GateError(gate('no-platform-workspace', this.profile));
    return { id: group, source: ws.platformWorkspaceId ? 'binding' : 'tenant-default' };
  }

  /** Runs a reporting call; `setting` is the tenant setting the operation needs, named by a gate when it is off. */
  private call<T>(fn: () => Promise<T>, context: { setting?: string } = {}): Promise<T> {
    return backing(fn, { profile: this.profile, gates: { reporting: context } });
  }

  /** The API's report; `filled` carries what the normal Report lacks (authoring fields, the dataset), when it was read. */
  private view(
    workspaceId: string,
    groupId: string,
    r: BiReport,
    filled: { authoring?: Authoring; datasetId?: string | null } = {},
  ): PaginatedReport {
    const admin = filled.authoring?.byId?.get(r.id.toLowerCase());
    return {
      id: r.id,
      workspaceId,
      groupId,
      name: r.name ?? '',
      reportType: r.reportType ?? PAGINATED,
      format: r.format ?? null,
      datasetId: r.datasetId || filled.datasetId || null,
      description: r.description ?? '',
      modifiedDateTime: r.modifiedDateTime ?? admin?.modifiedDateTime ?? null,
      modifiedBy: r.modifiedBy ?? admin?.modifiedBy ?? null,
      ...(filled.authoring?.gate ? { metadataGate: filled.authoring.gate } : {}),
      webUrl: r.webUrl ?? `${this.profile.biAppUrl}/groups/${groupId}/rdlreports/${r.id}`,
      embedUrl: r.embedUrl ?? null,
    };
  }

  /**
   * The workspace's paginated reports (the spec's filtered list, also filtered here: the group route ignores $filter),
   * with the reporting workspace they live in.
   */
  async list(caller: Caller, workspaceId: string): Promise<{ reports: PaginatedReport[]; reportingWorkspace: ReportingWorkspace }> {
    const reportingWorkspace = await this.reportingWorkspace(caller, workspaceId);
    const group = reportingWorkspace.id;
    // A designer's draft being rendered (see ReportPreviews) is not one of the workspace's reports.
    const reports = (await this.call(() => this.client.listReports(group))).filter(
      (r) => (r.reportType ?? PAGINATED) === PAGINATED && !r.name?.startsWith(DRAFT_PREFIX),
    );
    const [authoring, datasets] = await Promise.all([
      this.metadata.authoring(
        group,
        reports.map((r) => r.id),
      ),
      this.metadata.datasets(
        group,
        reports.filter((r) => !r.datasetId).map((r) => r.id),
      ),
    ]);
    return {
      reportingWorkspace,
      reports: reports
        .map((r) => this.view(workspaceId, group, r, { authoring, datasetId: datasets.get(r.id) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /** One paginated report; a report of another kind is not found here. */
  async get(caller: Caller, workspaceId: string, reportId: string): Promise<PaginatedReport> {
    const group = await this.group(caller, workspaceId);
    return this.getIn(workspaceId, group, reportId, true);
  }

  /** One paginated report; `full` also reads its authoring fields and dataset (for answers that show the report). */
  private async getIn(workspaceId: string, group: string, reportId: string, full = false): Promise<PaginatedReport> {
    const r = await this.call(() => this.client.getReport(group, reportId));
    if ((r.reportType ?? PAGINATED) !== PAGINATED) throw new NotFoundError('Paginated report', reportId);
    if (!full) return this.view(workspaceId, group, r);
    const [authoring, datasets] = await Promise.all([
      this.metadata.authoring(group, [r.id]),
      r.datasetId ? new Map<string, string | null>() : this.metadata.datasets(group, [r.id]),
    ]);
    return this.view(workspaceId, group, r, { authoring, datasetId: datasets.get(r.id) });
  }

  /** The RDL, its ETag and its parameters. */
  async getDefinition(
    caller: Caller,
    workspaceId: string,
    reportId: string,
  ): Promise<{ report: PaginatedReport; definition: string; etag: string; parameters: RdlParameter[] }> {
    const group = await this.group(caller, workspaceId);
    const report = await this.getIn(workspaceId, group, reportId, true);
    const bytes = await this.call(() => this.client.exportDefinition(group, reportId), DOWNLOAD);
    const definition = new TextDecoder().decode(bytes);
    return { report, definition, etag: etagOf(bytes), parameters: checkRdl(definition).parameters };
  }

  /** Checks a definition (structure, then the published schema when configured): 400 naming the first fault's line and element, and how many more. */
  private async validate(definition: string): Promise<void> {
    let { faults } = checkRdl(definition);
    if (!faults.length && this.schema) faults = await this.schema.check(definition);
    if (!faults.length) return;
    const f = faults[0]!;
    const more =
      faults.length > 1
        ? ` (and ${faults.length - 1} more: ${faults
            .slice(1, 4)
            .map((x) => `line ${x.line} ${x.element}`)
            .join('; ')})`
        : '';
    throw new ServiceError(400, 'invalid_rdl', `definition ${faultText(f)}${more}`, { field: 'definition' });
  }

  /** Publishes a changed definition back (import with Overwrite) when If-Match names the current one; waits for the import. */
  async putDefinition(
    caller: Caller,
    workspaceId: string,
    reportId: string,
    definition: string,
    ifMatch: string | undefined,
  ): Promise<{ report: PaginatedReport; etag: string }> {
    if (!ifMatch) throw new PreconditionError(428, 'Saving a definition needs an If-Match header with the ETag you read (or *)');
    await this.validate(definition);
    const group = await this.group(caller, workspaceId);
    const report = await this.getIn(workspaceId, group, reportId);
    if (ifMatch !== '*') {
      const current = etagOf(await this.call(() => this.client.exportDefinition(group, reportId), DOWNLOAD));
      if (
        !ifMatch
          .split(',')
          .map((t) => t.trim().replace(/^W\//, ''))
          .includes(current)
      ) {
        throw new PreconditionError(
          412,
          `The definition changed since it was read (current ETag ${current}); read it again and reapply your change`,
        );
      }
    }
    const bytes = new TextEncoder().encode(definition);
    const imp = await this.call(() => this.client.importRdl(group, report.name, bytes, 'Overwrite'));
    this.metadata.forget(group);
    if (imp.importState === 'Failed')
      throw new ServiceError(400, 'import_failed', JSON.stringify(imp), {
        field: 'definition',
        hint: 'the reporting service refused the import',
      });
    return { report: await this.getIn(workspaceId, group, imp.reports?.[0]?.id ?? reportId, true), etag: etagOf(bytes) };
  }

  /** Publishes a new report (import with Abort: an existing name is a conflict). */
  async publish(caller: Caller, workspaceId: string, name: string, definition: string): Promise<PaginatedReport> {
    await this.validate(definition);
    const group = await this.group(caller, workspaceId);
    const existing = await this.call(() => this.client.listReports(group));
    if (existing.some((r) => r.name === name))
      throw new ConflictError(`A report named '${name}' already exists in the workspace`, 'conflict', 'name');
    const imp = await this.call(() => this.client.importRdl(group, name, new TextEncoder().encode(definition), 'Abort'));
    this.metadata.forget(group);
    if (imp.importState === 'Failed' || !imp.reports?.[0])
      throw new ServiceError(400, 'import_failed', JSON.stringify(imp), {
        field: 'definition',
        hint: 'the reporting service refused the import',
      });
    return this.getIn(workspaceId, group, imp.reports[0].id, true);
  }

  /** Copies a report under a new name, into the same or another workspace of the tenant. */
  async clone(
    caller: Caller,
    workspaceId: string,
    reportId: string,
    body: { name: string; targetWorkspaceId?: string },
  ): Promise<PaginatedReport> {
    const group = await this.group(caller, workspaceId);
    const targetWs = body.targetWorkspaceId ?? workspaceId;
    const targetGroup = body.targetWorkspaceId ? await this.group(caller, body.targetWorkspaceId) : group;
    const r = await this.call(() =>
      this.client.cloneReport(group, reportId, { name: body.name, ...(targetGroup !== group ? { targetWorkspaceId: targetGroup } : {}) }),
    );
    this.metadata.forget(targetGroup);
    return this.getIn(targetWs, targetGroup, r.id, true);
  }

  async delete(caller: Caller, workspaceId: string, reportId: string): Promise<void> {
    const group = await this.group(caller, workspaceId);
    await this.getIn(workspaceId, group, reportId);
    await this.call(() => this.client.deleteReport(group, reportId));
    this.metadata.forget(group);
  }

  async datasources(caller: Caller, workspaceId: string, reportId: string) {
    const group = await this.group(caller, workspaceId);
    const list = await this.call(() => this.client.listDatasources(group, reportId));
    return list.map((d) => ({
      name: d.datasourceName ?? d.name ?? null,
      datasourceType: d.datasourceType ?? null,
      connectionDetails: { server: d.connectionDetails?.server ?? null, database: d.connectionDetails?.database ?? null },
      datasourceId: d.datasourceId ?? null,
      gatewayId: d.gatewayId ?? null,
    }));
  }

  /** Rebinds data sources (Default.UpdateDatasources); the service's restrictions come back unmodified. */
  async updateDatasources(
    caller: Caller,
    workspaceId: string,
    reportId: string,
    updateDetails: Array<{ datasourceName: string; connectionDetails: { server?: string; database?: string } }>,
  ) {
    const group = await this.group(caller, workspaceId);
    await this.call(() => this.client.updateDatasources(group, reportId, updateDetails));
    return this.datasources(caller, workspaceId, reportId);
  }

  async embedToken(caller: Caller, workspaceId: string, reportId: string, body: { lifetimeInMinutes?: number; username?: string }) {
    const group = await this.group(caller, workspaceId);
    const report = await this.getIn(workspaceId, group, reportId);
    const identities = body.username ? [{ username: body.username, reports: [reportId] }] : undefined;
    const t = await this.call(
      () =>
        this.client.generateToken(group, reportId, {
          ...(body.lifetimeInMinutes ? { lifetimeInMinutes: body.lifetimeInMinutes } : {}),
          ...(identities ? { identities } : {}),
        }),
      { setting: 'Embed content in apps' },
    );
    return { token: t.token, tokenId: t.tokenId, expiration: t.expiration, embedUrl: report.embedUrl, reportId };
  }

  /** Starts a render job (see ReportExports). */
  startExport(...args: Parameters<ReportExports['startExport']>) {
    return this.exports.startExport(...args);
  }

  /** An export's state (see ReportExports). */
  getExport(...args: Parameters<ReportExports['getExport']>) {
    return this.exports.getExport(...args);
  }

  /** An export's file (see ReportExports). */
  exportFile(...args: Parameters<ReportExports['exportFile']>) {
    return this.exports.exportFile(...args);
  }

  /** Renders a draft definition without publishing it (see ReportPreviews). */
  preview(caller: Caller, workspaceId: string, req: PreviewRequest) {
    return this.previews.preview(caller, workspaceId, req);
  }
}
