import { backingPath, type BackingPipeline } from './http-pipeline.js';
import { followArmOperation } from './lro.js';

export const ARM_API_VERSION = '2024-04-13';

/** The KQL cluster: the resource manager's database PUT and the data plane's management and query endpoints. */
export class KqlClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly armUrl: string,
    private readonly armAudience: string,
    private readonly kqlAudience: string,
  ) {}

  /** Creates or updates a database under the cluster (PUT is idempotent); returns its ARM id and whether it was new. */
  async putDatabase(clusterResourceId: string, database: string, location: string): Promise<{ id: string; created: boolean }> {
    // The cluster's ARM id is a path of its own (a setting, or an operator's target checked against the id's pattern).
    const url = `${this.armUrl}${clusterResourceId}${backingPath`/databases/${database}`}?api-version=${ARM_API_VERSION}`;
    const res = await this.pipeline.send({
      service: 'arm',
      method: 'PUT',
      url,
      audience: this.armAudience,
      json: { kind: 'ReadWrite', location, properties: { softDeletePeriod: 'P365D', hotCachePeriod: 'P31D' } },
    });
    if (res.status === 202 || (res.status === 201 && res.headers.get('azure-asyncoperation')))
      await followArmOperation(this.pipeline, this.armAudience, res);
    const body = res.text ? res.json<{ id?: string }>() : {};
    return { id: body.id ?? `${clusterResourceId}/databases/${database}`, created: res.status === 201 || res.status === 202 };
  }

  /** The database under the cluster as the resource manager holds it (GET), or undefined when there is none (404). */
  async getDatabase(clusterResourceId: string, database: string): Promise<{ id: string } | undefined> {
    const url = `${this.armUrl}${clusterResourceId}${backingPath`/databases/${database}`}?api-version=${ARM_API_VERSION}`;
    const res = await this.pipeline.send({ service: 'arm', method: 'GET', url, audience: this.armAudience, accept: [404] });
    if (res.status === 404) return undefined;
    return { id: res.json<{ id?: string }>().id ?? `${clusterResourceId}/databases/${database}` };
  }

  /**
   * Deletes a database under the cluster (the resource manager's DELETE: 200, or 202 followed to its end); false when
   * there was none (204, the resource manager's answer for a database that does not exist).
   */
  async deleteDatabase(clusterResourceId: string, database: string): Promise<boolean> {
    const url = `${this.armUrl}${clusterResourceId}${backingPath`/databases/${database}`}?api-version=${ARM_API_VERSION}`;
    const res = await this.pipeline.send({ service: 'arm', method: 'DELETE', url, audience: this.armAudience });
    if (res.status === 204) return false;
    if (res.status === 202) await followArmOperation(this.pipeline, this.armAudience, res);
    return true;
  }

  /** Runs a management command (.create table, .ingest inline, …); returns the primary V1 table's rows. */
  async mgmt(clusterUri: string, database: string, csl: string): Promise<unknown[][]> {
    return (await this.mgmtTable(clusterUri, database, csl)).rows;
  }

  /** Runs a management command; returns the primary V1 table's rows as records by column name (column order differs by engine version). */
  async mgmtRecords(clusterUri: string, database: string, csl: string): Promise<Array<Record<string, unknown>>> {
    const { columns, rows } = await this.mgmtTable(clusterUri, database, csl);
    return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
  }

  private async mgmtTable(clusterUri: string, database: string, csl: string): Promise<{ columns: string[]; rows: unknown[][] }> {
    const res = await this.pipeline.send({
      service: 'kql',
      method: 'POST',
      url: `${clusterUri}/v1/rest/mgmt`,
      audience: this.audienceFor(clusterUri),
      json: { db: database, csl },
    });
    const table = res.json<{ Tables: Array<{ Columns?: Array<{ ColumnName: string }>; Rows: unknown[][] }> }>().Tables[0];
    return { columns: (table?.Columns ?? []).map((c) => c.ColumnName), rows: table?.Rows ?? [] };
  }

  /** Runs a query on /v2/rest/query; returns the PrimaryResult rows. */
  async query(clusterUri: string, database: string, csl: string): Promise<unknown[][]> {
    const res = await this.pipeline.send({
      service: 'kql',
      method: 'POST',
      url: `${clusterUri}/v2/rest/query`,
      audience: this.audienceFor(clusterUri),
      json: { db: database, csl },
    });
    const frames = res.json<Array<{ FrameType: string; TableKind?: string; Rows?: unknown[][] }>>();
    return frames.find((f) => f.FrameType === 'DataTable' && f.TableKind === 'PrimaryResult')?.Rows ?? [];
  }

  private audienceFor(clusterUri: string) {
    return this.kqlAudience || new URL(clusterUri).origin;
  }
}
