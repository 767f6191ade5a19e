import type { BiReport, ReportingClient } from '../backends/reporting.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { RemediationGate } from '../errors.js';
import { backing, classify } from '../backends/failures.js';
import { BackingError } from '../backends/http-pipeline.js';
import { Semaphore } from '../semaphore.js';
import { modelsRead } from './effective-identity.js';

/** The authoring fields of a group's reports by id, or the gate that explains why they cannot be read. */
export type Authoring = { byId: Map<string, BiReport>; gate?: undefined } | { byId?: undefined; gate: RemediationGate };

// At most this many data-source reads of one list in flight, so a large workspace does not burst the reporting API.
const DATASOURCE_READS = 6;

/**
 * What the reporting service's normal Report object lacks: modifiedDateTime and modifiedBy come only from its admin
 * route, and a paginated report's datasetId (always empty there) from its data sources' semantic-model database.
 */
export class ReportMetadata {
  // Per group: the admin route is throttled, and a console refresh lists and gets reports again and again.
  private readonly cache = new Map<string, { at: number; value: Promise<Authoring> }>();

  constructor(
    private readonly client: ReportingClient,
    private readonly profile: CloudProfile,
    private readonly cacheMs: number,
  ) {}

  /**
   * The group's paginated reports from the admin route, reused for SVC_REPORT_METADATA_CACHE_SECONDS unless it lacks one
   * of `reportIds` (a report made since, outside the service).
   */
  async authoring(group: string, reportIds: string[] = []): Promise<Authoring> {
    const hit = this.cache.get(group);
    if (hit && Date.now() - hit.at < this.cacheMs) {
      const cached = await hit.value;
      if (cached.gate || reportIds.every((id) => cached.byId.has(id.toLowerCase()))) return cached;
    }
    const value = this.read(group, "reportType eq 'PaginatedReport'");
    if (this.cacheMs > 0) {
      if (this.cache.size > 1000) this.cache.clear();
      this.cache.set(group, { at: Date.now(), value });
      value.catch(() => this.cache.delete(group));
    }
    return value;
  }

  /** Reads the group's authoring fields afresh next time (after a change made through the service). */
  forget(group: string): void {
    this.cache.delete(group);
  }

  /** The admin route's reports matching `filter`; a refusal of the service identity is the admin-API gate, not an error. */
  private async read(group: string, filter: string): Promise<Authoring> {
    try {
      const list = await this.client.listAdminReports(group, filter);
      return { byId: new Map(list.map((r) => [r.id.toLowerCase(), r])) };
    } catch (err) {
      if (!(err instanceof BackingError)) throw err;
      const verdict = classify(err, { profile: this.profile, gates: { auth: 'reporting-admin-apis' } });
      if (verdict.kind === 'gate') return { gate: verdict.gate };
      return backing(() => Promise.reject(err), { profile: this.profile, gates: { reporting: {} } });
    }
  }

  /** The semantic model each report reads (the first one its data sources name), null for a report over other sources. */
  async datasets(group: string, reportIds: string[]): Promise<Map<string, string | null>> {
    const limit = new Semaphore(DATASOURCE_READS);
    const pairs = await Promise.all(
      reportIds.map((id) =>
        limit.run(async () => {
          const sources = await backing(() => this.client.listDatasources(group, id), { profile: this.profile, gates: { reporting: {} } });
          return [id, modelsRead(sources).datasetIds[0] ?? null] as const;
        }),
      ),
    );
    return new Map(pairs);
  }
}
