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
  constructor(
    private readonly client: ReportingClient,
    private readonly profile: CloudProfile,
  ) {}

  /** The admin route's reports matching `filter`; a refusal of the service identity is the admin-API gate, not an error. */
  async authoring(group: string, filter: string): Promise<Authoring> {
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
