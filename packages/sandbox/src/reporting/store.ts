import { randomBytes } from 'node:crypto';
import type { IdSource, SandboxIds } from '../ids.js';
import { stableUuid } from '../ids.js';
import type { SwitchValues } from '../switches.js';
import { readRdl, RdlError } from './rdl.js';
import { customerListRdl, inventoryRdl, salesByRegionRdl } from './seed.js';
import { zip } from './render/zip.js';
import type { PushDataset } from './push-datasets.js';

export type ReportType = 'PaginatedReport' | 'PowerBIReport';

export interface StoredReport {
  id: string;
  groupId: string;
  name: string;
  reportType: ReportType;
  /** The .rdl bytes exactly as imported (paginated), or the .pbix package. */
  definition: Buffer;
  /** Power BI reports only: the semantic model. */
  datasetId?: string;
  description: string;
  createdBy: string;
  modifiedBy: string;
  createdAt: number;
  modifiedAt: number;
  /** Object id of the data sources' owner (the publisher, or whoever took over). */
  datasourceOwner: string;
}

export type ImportState = 'Publishing' | 'Succeeded' | 'Failed';

export interface ImportRecord {
  id: string;
  groupId: string;
  name: string;
  callerId: string;
  callerName: string;
  nameConflict: 'Abort' | 'Overwrite';
  definition: Buffer;
  /** Overwrite: the report whose definition is replaced. */
  targetId?: string;
  createdAt: number;
  readyAt: number;
  state: ImportState;
  reportId?: string;
  error?: { code: string; details: string };
  updatedAt: number;
}

export type ExportStatus = 'NotStarted' | 'Running' | 'Succeeded' | 'Failed';

export interface ExportFile {
  bytes: Buffer;
  contentType: string;
  extension: string;
}

export interface ExportJob {
  id: string;
  groupId: string;
  reportId: string;
  reportName: string;
  format: string;
  createdAt: number;
  startAt: number;
  doneAt: number;
  /** When the job fails instead of finishing (the per-job timeout). */
  failAt?: number;
  expiresAt: number;
  /** Renders the file (once, when the job first reads as finished). */
  render: (executionTime: Date) => ExportFile;
  file?: ExportFile;
  /** Why the render failed (a data source error): the job reads as Failed. */
  error?: string;
}

/** The reporting service's state: reports per group, imports and export jobs. */
export class ReportingStore {
  readonly reports = new Map<string, StoredReport>();
  readonly imports = new Map<string, ImportRecord>();
  readonly exports = new Map<string, ExportJob>();
  /** Push datasets by id (created through POST datasets). */
  readonly datasets = new Map<string, PushDataset>();
  /** Embed tokens by token text: what they grant and until when. */
  readonly embedTokens = new Map<
    string,
    { tokenId: string; reports: string[]; datasets: string[]; accessLevel: string; username?: string; expiresAt: number }
  >();
  /** When the last export started on a PPU workspace (one per five minutes). */
  lastPpuExport?: number;
  readonly seeded: {
    salesByRegion: string;
    inventory: string;
    customerList: string;
    executiveOverview: string;
    customersDatasetId: string;
  };

  constructor(
    readonly ids: SandboxIds,
    readonly idSource: IdSource,
    readonly switches: SwitchValues,
    seed: string,
  ) {
    const u = (label: string) => stableUuid(seed, `reporting:${label}`);
    this.seeded = {
      salesByRegion: u('report:sales-by-region'),
      inventory: u('report:inventory'),
      customerList: u('report:customer-list'),
      executiveOverview: u('report:executive-overview'),
      customersDatasetId: u('dataset:customers'),
    };
    const ws = ids.platformWorkspaceId;
    const mi = ids.serviceIdentity.objectId;
    const ada = ids.users[0]!.objectId;
    const day = 86_400_000;
    const base = Math.floor(Date.now() / day) * day - 7 * day;
    const add = (r: Omit<StoredReport, 'groupId' | 'createdAt' | 'modifiedAt' | 'description'> & { ageDays: number }) => {
      const description = r.reportType === 'PaginatedReport' ? (readRdl(r.definition).description ?? '') : '';
      this.reports.set(r.id, {
        ...r,
        groupId: ws,
        description,
        createdAt: base + (7 - r.ageDays) * day,
        modifiedAt: base + (7 - r.ageDays) * day + 3_600_000,
      });
    };
    add({
      id: this.seeded.salesByRegion,
      name: 'Sales by Region',
      reportType: 'PaginatedReport',
      definition: Buffer.from(salesByRegionRdl(this.seeded.salesByRegion)),
      createdBy: ids.serviceIdentity.name,
      modifiedBy: ids.serviceIdentity.name,
      datasourceOwner: mi,
      ageDays: 6,
    });
    add({
      id: this.seeded.inventory,
      name: 'Inventory Snapshot',
      reportType: 'PaginatedReport',
      definition: Buffer.from(inventoryRdl(this.seeded.inventory, 'sandbox-warehouse.datawarehouse.fabric.microsoft.com')),
      createdBy: ids.serviceIdentity.name,
      modifiedBy: ids.serviceIdentity.name,
      datasourceOwner: mi,
      ageDays: 4,
    });
    add({
      id: this.seeded.customerList,
      name: 'Customer List',
      reportType: 'PaginatedReport',
      definition: Buffer.from(customerListRdl(this.seeded.customerList, this.seeded.customersDatasetId)),
      createdBy: ids.users[0]!.upn,
      modifiedBy: ids.users[0]!.upn,
      datasourceOwner: ada,
      ageDays: 2,
    });
    add({
      id: this.seeded.executiveOverview,
      name: 'Executive Overview',
      reportType: 'PowerBIReport',
      datasetId: this.seeded.customersDatasetId,
      definition: pbixPackage('Executive Overview'),
      createdBy: ids.users[0]!.upn,
      modifiedBy: ids.users[0]!.upn,
      datasourceOwner: ada,
      ageDays: 1,
    });
  }

  inGroup(groupId: string): StoredReport[] {
    return [...this.reports.values()].filter((r) => r.groupId === groupId.toLowerCase()).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Opaque export ids, like the service's base64 strings (not GUIDs). */
  exportId(): string {
    return `${randomBytes(36).toString('base64')}`;
  }

  /** Drops expired export jobs; finishes imports whose publishing time has passed (validates the RDL, then creates or overwrites the report). */
  settle(now = Date.now()): void {
    // An export's file lives 24 hours; expired jobs are forgotten.
    for (const [id, job] of this.exports) if (now > job.expiresAt) this.exports.delete(id);
    for (const imp of this.imports.values()) {
      if (imp.state !== 'Publishing' || now < imp.readyAt) continue;
      imp.updatedAt = imp.readyAt;
      let description = '';
      try {
        description = readRdl(imp.definition).description ?? '';
      } catch (err) {
        if (!(err instanceof RdlError)) throw err;
        imp.state = 'Failed';
        imp.error = { code: 'RdlValidationFailed', details: err.message };
        continue;
      }
      const target = imp.targetId ? this.reports.get(imp.targetId) : undefined;
      if (target) {
        target.definition = imp.definition;
        target.description = description;
        target.modifiedAt = imp.readyAt;
        target.modifiedBy = imp.callerName;
        imp.reportId = target.id;
      } else {
        const id = this.idSource.next('reporting:report');
        this.reports.set(id, {
          id,
          groupId: imp.groupId,
          name: imp.name,
          reportType: 'PaginatedReport',
          definition: imp.definition,
          description,
          createdBy: imp.callerName,
          modifiedBy: imp.callerName,
          createdAt: imp.readyAt,
          modifiedAt: imp.readyAt,
          datasourceOwner: imp.callerId,
        });
        imp.reportId = id;
      }
      imp.state = 'Succeeded';
    }
  }

  /** An export job's state at a moment. */
  exportState(job: ExportJob, now = Date.now()): { status: ExportStatus; percentComplete: number; lastAction: number } {
    if (job.failAt !== undefined && now >= job.failAt) return { status: 'Failed', percentComplete: 0, lastAction: job.failAt };
    if (job.error && now >= job.doneAt) return { status: 'Failed', percentComplete: 100, lastAction: job.doneAt };
    if (now >= job.doneAt) return { status: 'Succeeded', percentComplete: 100, lastAction: job.doneAt };
    if (now < job.startAt) return { status: 'NotStarted', percentComplete: 0, lastAction: job.createdAt };
    const pct = Math.floor(((now - job.startAt) / Math.max(1, job.doneAt - job.startAt)) * 100);
    return { status: 'Running', percentComplete: Math.min(99, Math.max(1, pct)), lastAction: job.startAt };
  }

  /** Jobs still rendering (the concurrency limit counts these). */
  activeRenders(now = Date.now()): number {
    return [...this.exports.values()].filter(
      (j) => this.exportState(j, now).status === 'NotStarted' || this.exportState(j, now).status === 'Running',
    ).length;
  }

  view() {
    return {
      reports: [...this.reports.values()].map((r) => ({
        id: r.id,
        groupId: r.groupId,
        name: r.name,
        reportType: r.reportType,
        bytes: r.definition.length,
        modifiedBy: r.modifiedBy,
        datasourceOwner: r.datasourceOwner,
      })),
      imports: [...this.imports.values()].map((i) => ({
        id: i.id,
        groupId: i.groupId,
        name: i.name,
        importState: i.state,
        reportId: i.reportId,
        nameConflict: i.nameConflict,
      })),
      exports: [...this.exports.values()].map((e) => ({
        id: e.id,
        reportId: e.reportId,
        format: e.format,
        status: this.exportState(e).status,
      })),
      datasets: [...this.datasets.values()].map((d) => ({
        id: d.id,
        groupId: d.groupId,
        name: d.name,
        retention: d.retention,
        tables: d.tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => `${c.name}:${c.dataType}`), rows: t.rows })),
      })),
    };
  }
}

/** A minimal .pbix-shaped package (a zip with a version, a layout and metadata) for the seeded Power BI report. */
function pbixPackage(name: string): Buffer {
  const layout = JSON.stringify({
    id: 0,
    reportId: name,
    sections: [{ name: 'ReportSection', displayName: 'Overview', visualContainers: [] }],
  });
  return zip(
    [
      { name: 'Version', data: Buffer.from('1.28', 'utf16le') },
      {
        name: '[Content_Types].xml',
        data: '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="json" ContentType="" /></Types>',
      },
      { name: 'Report/Layout', data: Buffer.from(layout, 'utf16le') },
      { name: 'Metadata', data: Buffer.from(JSON.stringify({ name }), 'utf16le') },
    ],
    new Date(Date.UTC(2025, 0, 1)),
  );
}
