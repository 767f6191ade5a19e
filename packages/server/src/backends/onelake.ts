import type { BackingPipeline, BackingResponse } from './http-pipeline.js';
import { backingPath } from './http-pipeline.js';

/**
 * The storage API version every OneLake call names (x-ms-version): storage refuses an Entra-authorised call without
 * one (400 MissingRequiredHeader). A documented Data Lake Storage version (specs/storage-dfs/.../stable/2025-01-05).
 */
export const ONELAKE_API_VERSION = '2025-01-05';

/** A path as a DFS listing answers it (the service sends isDirectory and contentLength as strings). */
export interface OneLakePath {
  name: string;
  isDirectory?: boolean | string;
  contentLength?: number | string;
  lastModified?: string;
  etag?: string;
}

/** A path below a workspace ('item/Tables/orders'), each segment checked and encoded by backingPath. */
const segments = (path: string) =>
  path
    .split('/')
    .map((s) => backingPath`/${s}`)
    .join('');

/**
 * OneLake's DFS endpoint (the ADLS Gen2 path API), where a workspace is the filesystem and an item its top folder:
 * directory create, path listing and file read, as the lakehouse provisioner and the identity probes use them.
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

  private send(method: string, url: string, accept?: number[]): Promise<BackingResponse> {
    return this.pipeline.send({
      service: 'storage',
      method,
      url,
      audience: this.audience,
      headers: { 'x-ms-version': ONELAKE_API_VERSION },
      ...(accept ? { accept } : {}),
    });
  }

  /** Creates a directory (and its missing parents) under an item; an existing one is fine (201 again, or 409 PathAlreadyExists). */
  async createDirectory(workspaceId: string, itemId: string, path: string): Promise<void> {
    await this.send('PUT', `${this.baseUrl}${backingPath`/${workspaceId}/${itemId}`}${segments(path)}?resource=directory`, [409]);
  }

  /** The paths under a folder of the workspace ('item/Tables/orders'), across pages (x-ms-continuation). */
  async listPaths(workspaceId: string, directory: string, recursive: boolean): Promise<OneLakePath[]> {
    segments(directory); // refuses an empty, '.' or '..' segment before anything is sent
    const out: OneLakePath[] = [];
    let continuation: string | undefined;
    do {
      const query = `resource=filesystem&recursive=${recursive}&directory=${encodeURIComponent(directory)}${continuation ? `&continuation=${encodeURIComponent(continuation)}` : ''}`;
      const res = await this.send('GET', `${this.baseUrl}${backingPath`/${workspaceId}`}?${query}`);
      out.push(...(res.json<{ paths?: OneLakePath[] }>().paths ?? []));
      continuation = res.headers.get('x-ms-continuation') ?? undefined;
    } while (continuation);
    return out;
  }

  /** A file's content as text; `path` is its name as a listing gives it ('item/Tables/orders/part-0.csv'). */
  async readText(workspaceId: string, path: string): Promise<string> {
    return (await this.send('GET', `${this.baseUrl}${backingPath`/${workspaceId}`}${segments(path)}`)).text;
  }
}

/** True when a listed path is a directory. */
export const isDirectory = (p: OneLakePath) => p.isDirectory === true || p.isDirectory === 'true';
