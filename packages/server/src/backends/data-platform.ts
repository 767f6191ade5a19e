import type { BackingPipeline } from './http-pipeline.js';
import { BackingError, backingPath } from './http-pipeline.js';
import { followOperation } from './lro.js';

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

/** A definition part from text. */
export const part = (path: string, text: string): DefinitionPart => ({ path, payload: Buffer.from(text, 'utf8').toString('base64'), payloadType: 'InlineBase64' });

/** The data platform API (/v1): items, definitions, long-running operations, connections, role assignments, jobs, firewall rules. */
export class DataPlatformClient {
  constructor(private readonly pipeline: BackingPipeline, private readonly baseUrl: string, private readonly audience: string) {}

  private url(path: string) {
    return `${this.baseUrl}${path}`;
  }

  /** Every item of a type in the workspace, across all pages. */
  async listItems(workspaceId: string, type: string): Promise<PlatformItem[]> {
    const out: PlatformItem[] = [];
    let url: string | undefined = this.url(`${backingPath`/workspaces/${workspaceId}/items`}?type=${encodeURIComponent(type)}`);
    while (url) {
      const res = await this.pipeline.send({ service: 'data-platform', method: 'GET', url, audience: this.audience });
      const body = res.json<{ value: PlatformItem[]; continuationToken?: string; continuationUri?: string }>();
      out.push(...body.value);
      url = body.continuationUri ?? (body.continuationToken ? this.url(`${backingPath`/workspaces/${workspaceId}/items`}?type=${encodeURIComponent(type)}&continuationToken=${encodeURIComponent(body.continuationToken)}`) : undefined);
    }
    return out;
  }

  /** Finds an item by display name (case-insensitive, per type). */
  async findItem(workspaceId: string, type: string, displayName: string): Promise<PlatformItem | undefined> {
    const lower = displayName.toLowerCase();
    return (await this.listItems(workspaceId, type)).find((i) => i.displayName.toLowerCase() === lower);
  }

  /** Every connection the service identity may use, across all pages (GET /v1/connections). */
  async listConnections(): Promise<PlatformConnection[]> {
    const out: PlatformConnection[] = [];
    let url: string | undefined = this.url('/connections');
    while (url) {
      const res = await this.pipeline.send({ service: 'data-platform', method: 'GET', url, audience: this.audience });
      const body = res.json<{ value: PlatformConnection[]; continuationToken?: string; continuationUri?: string }>();
      out.push(...body.value);
      url = body.continuationUri ?? (body.continuationToken ? this.url(`/connections?continuationToken=${encodeURIComponent(body.continuationToken)}`) : undefined);
    }
    return out;
  }

  /** Creates an item on its typed collection; follows a 202 to the created item. */
  async createItem(workspaceId: string, collection: string, body: Record<string, unknown>): Promise<PlatformItem> {
    const res = await this.pipeline.send({ service: 'data-platform', method: 'POST', url: this.url(backingPath`/workspaces/${workspaceId}/${collection}`), audience: this.audience, json: body });
    if (res.status === 202) {
      const result = await followOperation(this.pipeline, 'data-platform', this.audience, res);
      if (result?.text) return result.json<PlatformItem>();
      const found = await this.findItem(workspaceId, String(body.type ?? ''), String(body.displayName));
      if (!found) throw new BackingError('data-platform', 202, res.text, 'OperationHasNoResult', 'the create finished without a result and the item is not listed');
      return found;
    }
    return res.json<PlatformItem>();
  }

  /** Replaces an item's definition; follows a 202 to its end. */
  async updateDefinition(workspaceId: string, itemId: string, definition: Definition): Promise<void> {
    const res = await this.pipeline.send({ service: 'data-platform', method: 'POST', url: this.url(backingPath`/workspaces/${workspaceId}/items/${itemId}/updateDefinition`), audience: this.audience, json: { definition } });
    if (res.status === 202) await followOperation(this.pipeline, 'data-platform', this.audience, res);
  }

  /** An item's definition as the platform stores it (getDefinition); follows a 202 to the operation's result. */
  async getDefinition(workspaceId: string, itemId: string): Promise<Definition> {
    const res = await this.pipeline.send({ service: 'data-platform', method: 'POST', url: this.url(backingPath`/workspaces/${workspaceId}/items/${itemId}/getDefinition`), audience: this.audience });
    const result = res.status === 202 ? await followOperation(this.pipeline, 'data-platform', this.audience, res) : res;
    if (!result?.text) throw new BackingError('data-platform', res.status, res.text, 'OperationHasNoResult', 'getDefinition finished without a definition');
    return result.json<{ definition: Definition }>().definition;
  }

  /** A lakehouse with its properties (OneLake paths, SQL endpoint and its provisioning status). */
  async getLakehouse(workspaceId: string, lakehouseId: string) {
    const res = await this.pipeline.send({ service: 'data-platform', method: 'GET', url: this.url(backingPath`/workspaces/${workspaceId}/lakehouses/${lakehouseId}`), audience: this.audience });
    return res.json<{ id: string; properties?: { oneLakeTablesPath?: string; sqlEndpointProperties?: { id?: string; connectionString?: string; provisioningStatus?: string } } }>();
  }
}
