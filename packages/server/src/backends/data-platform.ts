import type { BackingPipeline, BackingResponse } from './http-pipeline.js';
import { BackingError, backingPath } from './http-pipeline.js';
import { followOperation } from './lro.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { GateError } from '../errors.js';
import { gate } from '../provisioning/gates.js';

/** A data-platform item as listed. */
export interface PlatformItem {
  id: string;
  displayName: string;
  type: string;
  workspaceId?: string;
}

/** A data-platform connection as listed (GET /v1/connections). */
export interface PlatformConnection {
  id: string;
  displayName?: string;
  connectivityType?: string;
  connectionDetails?: { type?: string; path?: string };
}

export interface DefinitionPart {
  path: string;
  payload: string;
  payloadType: 'InlineBase64';
}

export interface Definition {
  format?: string;
  parts: DefinitionPart[];
}

export interface FirewallRule {
  id: string;
  name: string;
  startIpAddress: string;
  endIpAddress: string;
}

export interface RoleAssignment {
  id: string;
  principal: { id: string; type: string; displayName?: string };
  role: string;
}

/** A job instance as polled (a pipeline run). */
export interface JobInstance {
  id: string;
  status: string;
  failureReason?: { errorCode?: string; message?: string } | null;
}

/** One page of a list: both continuation fields are absent on the last page. */
interface Page<T> {
  value: T[];
  continuationToken?: string;
  continuationUri?: string;
}

/** A definition part from text. */
export const part = (path: string, text: string): DefinitionPart => ({
  path,
  payload: Buffer.from(text, 'utf8').toString('base64'),
  payloadType: 'InlineBase64',
});

/** A continuation token as a query value: the service sends it URL-encoded, as its continuationUri carries it. */
function tokenParam(token: string): string {
  try {
    return encodeURIComponent(decodeURIComponent(token));
  } catch {
    return encodeURIComponent(token);
  }
}

/**
 * The data platform API (/v1), the one client installs and identity operations share: items, definitions, long-running
 * operations, lakehouses, connections, role assignments, firewall rules, workspace read, pipeline job runs.
 */
export class DataPlatformClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly baseUrl: string | undefined,
    private readonly audience: string,
    private readonly profile?: CloudProfile,
  ) {}

  /** The same client over another pipeline (a probe acting as another identity, under the same per-service limits). */
  through(pipeline: BackingPipeline): DataPlatformClient {
    return new DataPlatformClient(pipeline, this.baseUrl, this.audience, this.profile);
  }

  /** A call's address; in a cloud without the data platform, the gate that says so (nothing is sent). */
  private url(path: string, query = '') {
    if (!this.baseUrl) {
      const g = gate('data-platform-absent', this.profile!);
      throw new GateError(g);
    }
    return `${this.baseUrl}${path}${query ? `?${query}` : ''}`;
  }

  private send(method: string, url: string, json?: unknown): Promise<BackingResponse> {
    return this.pipeline.send({ service: 'data-platform', method, url, audience: this.audience, ...(json !== undefined ? { json } : {}) });
  }

  /**
   * Every entry of a list, across its pages. The next page is asked for with the page's continuationToken on the
   * list's own address; a page that carries only a continuationUri is followed as given.
   */
  private async all<T>(path: string, query = ''): Promise<T[]> {
    const out: T[] = [];
    let url: string | undefined = this.url(path, query);
    while (url) {
      const page: Page<T> = (await this.send('GET', url)).json();
      out.push(...page.value);
      const next = page.continuationToken ? `continuationToken=${tokenParam(page.continuationToken)}` : undefined;
      url = next ? this.url(path, query ? `${query}&${next}` : next) : page.continuationUri;
    }
    return out;
  }

  /** Every item of a type in the workspace, across all pages. */
  listItems(workspaceId: string, type: string): Promise<PlatformItem[]> {
    return this.all(backingPath`/workspaces/${workspaceId}/items`, `type=${encodeURIComponent(type)}`);
  }

  /** Finds an item by display name (case-insensitive, per type). */
  async findItem(workspaceId: string, type: string, displayName: string): Promise<PlatformItem | undefined> {
    const lower = displayName.toLowerCase();
    return (await this.listItems(workspaceId, type)).find((i) => i.displayName.toLowerCase() === lower);
  }

  /** Every connection the service identity may use, across all pages (GET /v1/connections). */
  listConnections(): Promise<PlatformConnection[]> {
    return this.all('/connections');
  }

  /** Creates an item on its typed collection; follows a 202 to the created item. */
  async createItem(workspaceId: string, collection: string, body: Record<string, unknown>): Promise<PlatformItem> {
    const res = await this.send('POST', this.url(backingPath`/workspaces/${workspaceId}/${collection}`), body);
    if (res.status === 202) {
      const result = await followOperation(this.pipeline, 'data-platform', this.audience, res);
      if (result?.text) return result.json<PlatformItem>();
      const found = await this.findItem(workspaceId, String(body.type ?? ''), String(body.displayName));
      if (!found)
        throw new BackingError(
          'data-platform',
          202,
          res.text,
          'OperationHasNoResult',
          'the create finished without a result and the item is not listed',
        );
      return found;
    }
    return res.json<PlatformItem>();
  }

  /**
   * Deletes an item (DELETE …/items/{id}: 200, into the workspace's recycle bin by default). Answers false when the
   * platform says the item does not exist (404 ItemNotFound); any other refusal, a 404 of another code included, throws.
   */
  async deleteItem(workspaceId: string, itemId: string): Promise<boolean> {
    try {
      await this.send('DELETE', this.url(backingPath`/workspaces/${workspaceId}/items/${itemId}`));
      return true;
    } catch (err) {
      if (err instanceof BackingError && err.status === 404 && err.code === 'ItemNotFound') return false;
      throw err;
    }
  }

  /** Replaces an item's definition; follows a 202 to its end. */
  async updateDefinition(workspaceId: string, itemId: string, definition: Definition): Promise<void> {
    const res = await this.send('POST', this.url(backingPath`/workspaces/${workspaceId}/items/${itemId}/updateDefinition`), { definition });
    if (res.status === 202) await followOperation(this.pipeline, 'data-platform', this.audience, res);
  }

  /** An item's definition as the platform stores it (getDefinition, in `format` if given); follows a 202 to the operation's result. */
  async getDefinition(workspaceId: string, itemId: string, format?: string): Promise<Definition> {
    const query = format ? `format=${encodeURIComponent(format)}` : '';
    const res = await this.send('POST', this.url(backingPath`/workspaces/${workspaceId}/items/${itemId}/getDefinition`, query));
    const result = res.status === 202 ? await followOperation(this.pipeline, 'data-platform', this.audience, res) : res;
    if (!result?.text)
      throw new BackingError('data-platform', res.status, res.text, 'OperationHasNoResult', 'getDefinition finished without a definition');
    return result.json<{ definition: Definition }>().definition;
  }

  /** A lakehouse with its properties (OneLake paths, SQL endpoint and its provisioning status). */
  async getLakehouse(workspaceId: string, lakehouseId: string) {
    const res = await this.send('GET', this.url(backingPath`/workspaces/${workspaceId}/lakehouses/${lakehouseId}`));
    return res.json<{
      id: string;
      properties?: {
        oneLakeTablesPath?: string;
        sqlEndpointProperties?: { id?: string; connectionString?: string; provisioningStatus?: string };
      };
    }>();
  }

  /** The workspace (Viewer or higher). */
  async getWorkspace(workspaceId: string): Promise<{ id: string; displayName?: string }> {
    return (await this.send('GET', this.url(backingPath`/workspaces/${workspaceId}`))).json();
  }

  listFirewallRules(workspaceId: string): Promise<FirewallRule[]> {
    return this.all(backingPath`/workspaces/${workspaceId}/firewallRules`);
  }

  async addFirewallRule(workspaceId: string, rule: Omit<FirewallRule, 'id'>): Promise<FirewallRule> {
    return (await this.send('POST', this.url(backingPath`/workspaces/${workspaceId}/firewallRules`), rule)).json<FirewallRule>();
  }

  async deleteFirewallRule(workspaceId: string, ruleId: string): Promise<void> {
    await this.send('DELETE', this.url(backingPath`/workspaces/${workspaceId}/firewallRules/${ruleId}`));
  }

  listRoleAssignments(workspaceId: string): Promise<RoleAssignment[]> {
    return this.all(backingPath`/workspaces/${workspaceId}/roleAssignments`);
  }

  async addRoleAssignment(workspaceId: string, principalId: string, role: string, type = 'ServicePrincipal'): Promise<RoleAssignment> {
    const body = { principal: { id: principalId, type }, role };
    return (await this.send('POST', this.url(backingPath`/workspaces/${workspaceId}/roleAssignments`), body)).json<RoleAssignment>();
  }

  async deleteRoleAssignment(workspaceId: string, assignmentId: string): Promise<void> {
    await this.send('DELETE', this.url(backingPath`/workspaces/${workspaceId}/roleAssignments/${assignmentId}`));
  }

  /** Starts a pipeline job instance; answers the job instance's address (202 + Location). */
  async runPipeline(workspaceId: string, pipelineId: string): Promise<{ status: number; location?: string }> {
    const res = await this.send(
      'POST',
      this.url(backingPath`/workspaces/${workspaceId}/items/${pipelineId}/jobs/instances`, 'jobType=Pipeline'),
    );
    return { status: res.status, location: res.headers.get('location') ?? undefined };
  }

  /** A job instance at the address runPipeline answered, with the Retry-After the service asks for (seconds). */
  async getJobInstance(location: string): Promise<{ job: JobInstance; retryAfter?: number }> {
    const res = await this.send('GET', location);
    const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
    return { job: res.json<JobInstance>(), ...(Number.isFinite(retryAfter) ? { retryAfter } : {}) };
  }
}
