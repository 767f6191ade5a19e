import type { DataPlatformClient, PlatformConnection, PlatformItem } from '../backends/data-platform.js';
import type { StepContext } from './context.js';

/** The job's lists of a step; a step run outside a job (no lists given) lists for itself. */
export const jobLists = (ctx: StepContext): JobLists => ctx.lists ?? new JobLists(ctx.backends.dataPlatform);

/**
 * What a job lists once and its steps share (fabric-cicd's list-once pattern): the data platform's items of each
 * (workspace, type), every page, and the connections the service identity may use. A step's create adds its item, an
 * item found gone is dropped, and a name race lists the type again (`relist`). A list that failed is not kept: the
 * next step that needs it lists again.
 */
export class JobLists {
  private readonly items = new Map<string, Promise<PlatformItem[]>>();
  private connectionList?: Promise<PlatformConnection[]>;

  constructor(private readonly dataPlatform: DataPlatformClient) {}

  /** Every item of `type` in the workspace, listed on the first ask of the job. */
  list(workspaceId: string, type: string): Promise<PlatformItem[]> {
    const key = keyOf(workspaceId, type);
    let listed = this.items.get(key);
    if (!listed) {
      listed = this.dataPlatform.listItems(workspaceId, type);
      this.items.set(key, listed);
      listed.catch(() => {
        if (this.items.get(key) === listed) this.items.delete(key);
      });
    }
    return listed;
  }

  /**
   * The item of `type` with this display name (case-insensitive, as the platform keeps names unique per type), in the
   * job's list, or with `fresh` in the type listed again.
   */
  async find(workspaceId: string, type: string, displayName: string, { fresh = false } = {}): Promise<PlatformItem | undefined> {
    const lower = displayName.toLowerCase();
    const listed = await (fresh ? this.relist(workspaceId, type) : this.list(workspaceId, type));
    return listed.find((i) => i.displayName.toLowerCase() === lower);
  }

  /** Lists the type again (another caller created or deleted one of its items meanwhile); the fresh list is kept. */
  relist(workspaceId: string, type: string): Promise<PlatformItem[]> {
    this.items.delete(keyOf(workspaceId, type));
    return this.list(workspaceId, type);
  }

  /** Adds an item the job created to its type's list (when the job has listed that type). */
  async add(workspaceId: string, type: string, item: PlatformItem): Promise<void> {
    const listed = await this.items.get(keyOf(workspaceId, type))?.catch(() => undefined);
    if (listed && !listed.some((i) => i.id === item.id)) listed.push({ ...item, type: item.type ?? type });
  }

  /** Drops an item found gone from its type's list. */
  async drop(workspaceId: string, type: string, itemId: string): Promise<void> {
    const listed = await this.items.get(keyOf(workspaceId, type))?.catch(() => undefined);
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

const keyOf = (workspaceId: string, type: string) => `${workspaceId.toLowerCase()}/${type.toLowerCase()}`;
