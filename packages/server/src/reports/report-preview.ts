import { randomBytes } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { ReportingClient } from '../backends/reporting.js';
import { backing } from '../backends/failures.js';
import { ServiceError } from '../errors.js';
import type { ReportExports } from './report-exports.js';

/** Draft reports are named with this prefix and the time they were made; lists never show them. */
export const DRAFT_PREFIX = '~svc-draft-';

/** A draft older than this is one a process left behind (it died mid-preview): the next preview in its group deletes it. */
const STALE_DRAFT_MS = 10 * 60_000;
const RENDER_DEADLINE_MS = 120_000;

export interface PreviewRequest {
  definition: string;
  format: 'PDF' | 'IMAGE';
  parameterValues?: Array<{ name: string; value: string | null }>;
  formatSettings?: Record<string, string>;
}

/** What the preview needs of the report service (its group rule, its checks, its metadata cache). */
export interface PreviewHost {
  group(caller: Caller, workspaceId: string): Promise<string>;
  validate(definition: string): Promise<void>;
  forget(group: string): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Run in the designer: renders a draft definition without publishing it. The draft is imported as a report of its
 * own (a name lists never show), exported like any report (with the caller's effective identity for a semantic
 * model), and deleted again whatever happened; a draft a dead process left behind goes at the next preview.
 */
export class ReportPreviews {
  constructor(
    private readonly client: ReportingClient,
    private readonly exports: ReportExports,
    private readonly profile: CloudProfile,
    private readonly host: PreviewHost,
  ) {}

  private call<T>(fn: () => Promise<T>): Promise<T> {
    return backing(fn, { profile: this.profile, gates: { reporting: {} } });
  }

  /** Deletes drafts older than STALE_DRAFT_MS (their names carry their start time). */
  private async sweep(group: string, now: number): Promise<void> {
    const reports = await this.call(() => this.client.listReports(group));
    for (const r of reports) {
      const at = r.name?.startsWith(DRAFT_PREFIX) ? Number(r.name.slice(DRAFT_PREFIX.length).split('-')[0]) : Number.NaN;
      if (Number.isFinite(at) && now - at > STALE_DRAFT_MS) await this.client.removeReport(group, r.id).catch(() => false);
    }
  }

  /** The rendered file of the draft (the first page for IMAGE unless formatSettings say otherwise). */
  async preview(caller: Caller, workspaceId: string, req: PreviewRequest): Promise<{ bytes: Uint8Array; contentType: string }> {
    await this.host.validate(req.definition);
    const group = await this.host.group(caller, workspaceId);
    const now = Date.now();
    await this.sweep(group, now);
    const name = `${DRAFT_PREFIX}${now}-${randomBytes(4).toString('hex')}`;
    const imp = await this.call(() => this.client.importRdl(group, name, new TextEncoder().encode(req.definition), 'Abort'));
    const reportId = imp.reports?.[0]?.id;
    if (imp.importState === 'Failed' || !reportId)
      throw new ServiceError(400, 'import_failed', JSON.stringify(imp), {
        field: 'definition',
        hint: 'the reporting service refused the draft',
      });
    try {
      const settings =
        req.format === 'IMAGE' ? { OutputFormat: 'PNG', StartPage: '1', EndPage: '1', ...req.formatSettings } : req.formatSettings;
      let e = await this.exports.startExport(caller, workspaceId, reportId, {
        format: req.format,
        ...(req.parameterValues?.length ? { parameterValues: req.parameterValues } : {}),
        ...(settings ? { formatSettings: settings } : {}),
      });
      const deadline = Date.now() + RENDER_DEADLINE_MS;
      while (e.status !== 'Succeeded' && e.status !== 'Failed') {
        if (Date.now() > deadline)
          throw new ServiceError(504, 'preview_timeout', `The draft was still rendering after ${RENDER_DEADLINE_MS / 1000} s`);
        const r = await this.exports.getExport(caller, workspaceId, reportId, e.id);
        e = r.export;
        if (e.status !== 'Succeeded' && e.status !== 'Failed') await sleep(Math.min((r.retryAfter ?? 0) * 1000 || 300, 2000));
      }
      if (e.status === 'Failed')
        throw new ServiceError(502, 'preview_failed', 'The reporting service could not render the draft (its export job Failed)', {
          hint: 'check the expressions, the data set queries and the parameter values',
        });
      const file = await this.exports.exportFile(caller, workspaceId, reportId, e.id);
      return { bytes: file.bytes, contentType: file.contentType };
    } finally {
      await this.client.removeReport(group, reportId).catch(() => false);
      this.host.forget(group);
    }
  }
}
