import type { DataPlatformClient, PlatformConnection, PlatformItem } from '../backends/data-platform.js';
import type { StepContext } from './context.js';

/** The job's lists of a step; a step run outside a job (no lists given) lists for itself. */
export const jobLists = (ctx: StepContext): JobLists => ctx.lists ?? new JobLists(ctx.backends.dataPlatform);

/**
 * What a job lists once and its steps share (fabric-cicd's list-once pattern): the data platform's items of each
 * workspace, of every type in one list (every page), and the connections the service identity may use. A step's
 * create adds its item, an item found gone is dropped, and a name race (or an item another service made since, such as
 * a KQL database the resource manager created) lists the workspace again (`relist`). A list that failed is not kept:
 * the next step that needs it lists again.
 */
export class JobLists {
  private readonly items = new Map<string, Promise<PlatformItem[]>>();
  private connectionList?: Promise<PlatformConnection[]>;

  constructor(private readonly dataPlatform: DataPlatformClient) {}

  /** Every item of the workspace, listed on the first ask of the job. */
  private workspace(workspaceId: string): Promise<PlatformItem[]> {
    const key = workspaceId.toLowerCase();
    let listed = this.items.get(key);
    if (!listed) {
      listed = this.dataPlatform.listItems(workspaceId);
      this.items.set(key, listed);
      listed.catch(() => {
        if (this.items.get(key) === listed) this.items.delete(key);
      });
    }
    return listed;
  }

  /** Every item of `type` in the workspace, from the job's list of it. */
  async list(workspaceId: string, type: string): Promise<PlatformItem[]> {
    return (await this.workspace(workspaceId)).filter((i) => sameType(i, type));
  }

  /** The item of `type` with this display name (case-insensitive, as the platform keeps names unique per type). */
  async find(workspaceId: string, type: string, displayName: string): Promise<PlatformItem | undefined> {
    const lower = displayName.toLowerCase();
    return (await this.list(workspaceId, type)).find((i) => i.displayName.toLowerCase() === lower);
  }

  /** Lists the workspace again (another caller created or deleted one of its items meanwhile); the fresh list is kept. */
  relist(workspaceId: string, type: string): Promise<PlatformItem[]> {
    this.items.delete(workspaceId.toLowerCase());
    return this.list(workspaceId, type);
  }

  /** Adds an item the job created to the workspace's list (when the job has listed it). */
  async add(workspaceId: string, type: string, item: PlatformItem): Promise<void> {
    const listed = await this.items.get(workspaceId.toLowerCase())?.catch(() => undefined);
    if (listed && !listed.some((i) => i.id === item.id)) listed.push({ ...item, type: item.type ?? type });
  }

  /** Drops an item found gone from the workspace's list. */
  async drop(workspaceId: string, _type: string, itemId: string): Promise<void> {
    const listed = await this.items.get(workspaceId.toLowerCase())?.catch(() => undefined);
    const at = listed?.findIndex((i) => i.id === itemId) ?? -1;
    if (at >= 0) listed!.splice(at, 1);
  }

  /** The connections the service identity may use (GET /v1/connections), listed on the first ask of the job. */
  connections(): Promise<PlatformConnection[]> {
    if (!this.connectionList) {
      const listed = this.dataPlatform.listConnections();
      this.connectionList = listed;
      listed.catch(() => {
        if (this.connectionList === listed) this.connectionList = undefined;
      });
    }
    return this.connectionList;
  }
}

/** Whether a listed item is of the type (the platform's type names, compared case-insensitively). */
const sameType = (item: PlatformItem, type: string) => item.type?.toLowerCase() === type.toLowerCase();
