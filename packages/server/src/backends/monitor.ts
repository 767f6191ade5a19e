import { backingPath, type BackingPipeline, type BackingResponse } from './http-pipeline.js';

/** Scheduled query rules (log search alerts): the newest stable version the government clouds serve alike. */
export const RULES_API_VERSION = '2023-12-01';
/** Action groups: the newest stable version. */
export const ACTION_GROUPS_API_VERSION = '2023-01-01';

/** A resource group's resource manager id: `/subscriptions/{sub}/resourceGroups/{rg}` (the SVC_ALERT_RESOURCE_GROUP setting). */
export const RESOURCE_GROUP_ID = /^\/subscriptions\/[0-9A-Fa-f-]{36}\/resourceGroups\/[-\w._()]{1,90}$/;

/** A Microsoft.Insights resource as the resource manager answers it. */
export interface InsightsResource {
  id: string;
  name: string;
  location?: string;
  kind?: string;
  properties: Record<string, any>;
}

type InsightsType = 'scheduledQueryRules' | 'actionGroups';
const VERSION: Record<InsightsType, string> = { scheduledQueryRules: RULES_API_VERSION, actionGroups: ACTION_GROUPS_API_VERSION };

/** Azure Monitor's resource manager resources: scheduled query rules and action groups in one resource group. */
export class MonitorClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly armUrl: string,
    private readonly armAudience: string,
  ) {}

  /** The URL of a resource (or of the group's collection); the group id is a path of its own, checked against its pattern. */
  private url(resourceGroupId: string, type: InsightsType, name?: string): string {
    if (!RESOURCE_GROUP_ID.test(resourceGroupId)) throw new Error(`'${resourceGroupId}' is not a resource group id`);
    const tail = name ? backingPath`/${name}` : '';
    return `${this.armUrl}${resourceGroupId}/providers/Microsoft.Insights/${type}${tail}?api-version=${VERSION[type]}`;
  }

  private send(method: string, url: string, extra: { json?: unknown; accept?: number[] } = {}): Promise<BackingResponse> {
    return this.pipeline.send({ service: 'arm', method, url, audience: this.armAudience, ...extra });
  }

  /** Creates or replaces a resource (PUT is idempotent); `created` when the resource manager answered 201. */
  async put(
    resourceGroupId: string,
    type: InsightsType,
    name: string,
    body: unknown,
  ): Promise<{ resource: InsightsResource; created: boolean }> {
    const res = await this.send('PUT', this.url(resourceGroupId, type, name), { json: body });
    return { resource: res.json<InsightsResource>(), created: res.status === 201 };
  }

  /** A resource, or undefined when there is none (404). */
  async get(resourceGroupId: string, type: InsightsType, name: string): Promise<InsightsResource | undefined> {
    const res = await this.send('GET', this.url(resourceGroupId, type, name), { accept: [404] });
    return res.status === 404 ? undefined : res.json<InsightsResource>();
  }

  /** Deletes a resource; false when there was none (204, the resource manager's answer for a missing resource). */
  async delete(resourceGroupId: string, type: InsightsType, name: string): Promise<boolean> {
    const res = await this.send('DELETE', this.url(resourceGroupId, type, name), { accept: [404] });
    return res.status !== 204 && res.status !== 404;
  }
}
