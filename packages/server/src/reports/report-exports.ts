import type { Caller } from '../auth/caller.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { BiExport, ReportingClient } from '../backends/reporting.js';
import type { DataPlatformClient } from '../backends/data-platform.js';
import { BackingError } from '../backends/http-pipeline.js';
import { backing } from '../backends/failures.js';
import { ConflictError, GateError, InputError } from '../errors.js';
import { EXPORT_SETTINGS } from '../provisioning/gates.js';
import { type EffectiveIdentity, effectiveUsername, type IdentityOverride, modelsRead, rolesOf } from './effective-identity.js';

/** An export job as the API shows it. */
export interface ReportExport {
  id: string;
  reportId: string;
  reportName: string | null;
  status: string;
  percentComplete: number;
  createdDateTime: string | null;
  lastActionDateTime: string | null;
  fileExtension: string | null;
  expirationTime: string | null;
}

/** The API's export formats (SPEC.md's names) and what the wire carries for each. */
export const EXPORT_FORMATS: Record<string, string> = {
  PDF: 'PDF',
  WORD: 'DOCX',
  EXCEL: 'XLSX',
  PPTX: 'PPTX',
  CSV: 'CSV',
  XML: 'XML',
  IMAGE: 'IMAGE',
  MHTML: 'MHTML',
  ACCESSIBLEPDF: 'ACCESSIBLEPDF',
};

/** Render jobs of paginated reports (ExportTo, its status and file), with the effective identity a semantic model needs. */
export class ReportExports {
  constructor(
    private readonly client: ReportingClient,
    private readonly dataPlatform: DataPlatformClient,
    private readonly profile: CloudProfile,
    private readonly configuredUsername: string | undefined,
    /** The reporting group of a workspace of the caller's tenant (PaginatedReportService's rule). */
    private readonly groupOf: (caller: Caller, workspaceId: string) => Promise<string>,
  ) {}

  /** Runs a reporting call; `setting` is the tenant setting the operation needs, named by a gate when it is off. */
  private call<T>(fn: () => Promise<T>, context: { setting?: string } = {}): Promise<T> {
    return backing(fn, { profile: this.profile, gates: { reporting: context } });
  }

  private exportView(reportId: string, e: BiExport): ReportExport {
    return {
      id: e.id,
      reportId: e.reportId ?? reportId,
      reportName: e.reportName ?? null,
      status: e.status,
      percentComplete: e.percentComplete ?? 0,
      createdDateTime: e.createdDateTime ?? null,
      lastActionDateTime: e.lastActionDateTime ?? null,
      fileExtension: e.resourceFileExtension ?? e.ResourceFileExtension ?? null,
      expirationTime: e.expirationTime ?? null,
    };
  }

  /**
   * The effective identity of an export: for a report over a semantic model (or Analysis Services) always, as the
   * reporting service requires of a service principal; otherwise only when an admin names one. Its roles are the
   * admin's, else every row-level role the models declare.
   */
  private async identityFor(
    caller: Caller,
    group: string,
    reportId: string,
    override: IdentityOverride | undefined,
  ): Promise<EffectiveIdentity | undefined> {
    const { readsModel, datasetIds } = modelsRead(await this.call(() => this.client.listDatasources(group, reportId)));
    if (!readsModel && !override) return undefined;
    const username = effectiveUsername(caller, override, this.configuredUsername, this.profile);
    const roles = override?.roles ?? (await Promise.all(datasetIds.map((id) => this.modelRoles(group, id)))).flat();
    return { username, ...(roles.length ? { roles: [...new Set(roles)] } : {}), ...(datasetIds.length ? { datasets: datasetIds } : {}) };
  }

  /** The row-level roles of a semantic model of the group, from its TMSL definition; none when the group has no such item (a push dataset, or a model elsewhere). */
  private async modelRoles(group: string, datasetId: string): Promise<string[]> {
    try {
      return rolesOf(await this.dataPlatform.getDefinition(group, datasetId, 'TMSL'));
    } catch (err) {
      // No such item in the group, or no data platform in this cloud: the model's roles cannot be read here.
      if ((err instanceof BackingError && err.status === 404) || (err instanceof GateError && !err.cause)) return [];
      return backing(() => Promise.reject(err), { profile: this.profile, gates: { auth: 'data-platform-auth' } });
    }
  }

  /** Starts a render job in one of the API's formats (WORD and EXCEL travel as DOCX and XLSX). */
  async startExport(
    caller: Caller,
    workspaceId: string,
    reportId: string,
    body: {
      format: string;
      parameterValues?: Array<{ name: string; value: string | null }>;
      formatSettings?: Record<string, string>;
      effectiveIdentity?: IdentityOverride;
    },
  ): Promise<ReportExport> {
    const wire = EXPORT_FORMATS[body.format];
    if (!wire) throw new InputError(`body/format must be one of ${Object.keys(EXPORT_FORMATS).join(', ')}`, 'format');
    const group = await this.groupOf(caller, workspaceId);
    const identity = await this.identityFor(caller, group, reportId, body.effectiveIdentity);
    const config = {
      ...(body.parameterValues?.length ? { parameterValues: body.parameterValues } : {}),
      ...(body.formatSettings && Object.keys(body.formatSettings).length ? { formatSettings: body.formatSettings } : {}),
      ...(identity ? { identities: [identity] } : {}),
    };
    const e = await this.call(
      () =>
        this.client.startExport(group, reportId, {
          format: wire,
          ...(Object.keys(config).length ? { paginatedReportConfiguration: config } : {}),
        }),
      { setting: EXPORT_SETTINGS[wire] },
    );
    return this.exportView(reportId, e);
  }

  /** The export's state; Retry-After (seconds) while it is unfinished, as the reporting service says. */
  async getExport(
    caller: Caller,
    workspaceId: string,
    reportId: string,
    exportId: string,
  ): Promise<{ export: ReportExport; retryAfter?: number }> {
    const group = await this.groupOf(caller, workspaceId);
    const { export: e, retryAfter } = await this.call(() => this.client.getExport(group, reportId, exportId));
    return { export: this.exportView(reportId, e), ...(retryAfter ? { retryAfter } : {}) };
  }

  /** The exported file with its content type and a file name from the report's name and the export's extension. */
  async exportFile(
    caller: Caller,
    workspaceId: string,
    reportId: string,
    exportId: string,
  ): Promise<{ bytes: Uint8Array; contentType: string; fileName: string }> {
    const group = await this.groupOf(caller, workspaceId);
    const { export: e } = await this.call(() => this.client.getExport(group, reportId, exportId));
    if (e.status !== 'Succeeded')
      throw new ConflictError(
        `Export ${exportId} is ${e.status}${e.status === 'Failed' ? '' : `, ${e.percentComplete ?? 0}% complete`}; the file exists once it has Succeeded`,
        'export_not_ready',
      );
    const file = await this.call(() => this.client.exportFile(group, reportId, exportId));
    const ext = e.resourceFileExtension ?? e.ResourceFileExtension ?? '';
    const base = (e.reportName ?? reportId).replace(/[^\w .()-]+/g, '_').trim() || reportId;
    return { ...file, fileName: `${base}${ext.startsWith('.') || !ext ? ext : `.${ext}`}` };
  }
}
