import type { BackingPipeline } from './http-pipeline.js';
import { backingPath } from './http-pipeline.js';
import { DFS_API_VERSION, DfsFilesystem, type DfsPath } from './dfs.js';

/** The storage API version every OneLake call names (x-ms-version); the DFS client's (backends/dfs.ts). */
export const ONELAKE_API_VERSION = DFS_API_VERSION;

/** A path as a OneLake listing answers it. */
export type OneLakePath = DfsPath;
export { isDirectory } from './dfs.js';

/**
 * OneLake's DFS endpoint (the ADLS Gen2 path API), where a workspace is the filesystem and an item its top folder:
 * directory create, path listing and file read, as the lakehouse provisioner and the identity probes use them. The
 * calls are the shared DFS client's (backends/dfs.ts), which the lake's storage accounts use too.
 */
export class OneLakeClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly baseUrl: string,
    private readonly audience: string,
  ) {}

  /** The OneLake host, as abfss:// addresses (a SQL pool's external data source) name it. */
  get host(): string {
    return new URL(this.baseUrl).host;
  }

  /** The same client over another pipeline (a probe acting as another identity, under the same per-service limits). */
  through(pipeline: BackingPipeline): OneLakeClient {
    return new OneLakeClient(pipeline, this.baseUrl, this.audience);
  }

  /** A workspace as a DFS filesystem. */
  private fs(workspaceId: string): DfsFilesystem {
    return new DfsFilesystem(this.pipeline, `${this.baseUrl}${backingPath`/${workspaceId}`}`, this.audience);
  }

  /** Creates a directory (and its missing parents) under an item; an existing one is fine (201 again, or 409 PathAlreadyExists). */
  async createDirectory(workspaceId: string, itemId: string, path: string): Promise<void> {
    // The item's folder as the base: its id is one encoded segment, whatever it holds.
    await new DfsFilesystem(this.pipeline, `${this.baseUrl}${backingPath`/${workspaceId}/${itemId}`}`, this.audience).createDirectory(path);
  }

  /** The paths under a folder of the workspace ('item/Tables/orders'), across pages (x-ms-continuation). */
  async listPaths(workspaceId: string, directory: string, recursive: boolean): Promise<OneLakePath[]> {
    return this.fs(workspaceId).list(directory, recursive);
  }

  /** A file's content as text; `path` is its name as a listing gives it ('item/Tables/orders/part-0.csv'). */
  async readText(workspaceId: string, path: string): Promise<string> {
    return this.fs(workspaceId).readText(path);
  }
}
