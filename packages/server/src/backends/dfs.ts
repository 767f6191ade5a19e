import { BackingError, backingPath, type BackingPipeline, type BackingResponse } from './http-pipeline.js';

/**
 * The storage API version every DFS call names (x-ms-version): storage refuses an Entra-authorised call without one
 * (400 MissingRequiredHeader). A documented Data Lake Storage version (specs/storage-dfs/.../stable/2025-01-05).
 */
export const DFS_API_VERSION = '2025-01-05';

/** A path as a DFS listing answers it (the service sends isDirectory and contentLength as strings). */
export interface DfsPath {
  name: string;
  isDirectory?: boolean | string;
  contentLength?: number | string;
  lastModified?: string;
  etag?: string;
}

/** A path below a filesystem ('item/Tables/orders'), each segment checked and encoded by backingPath. */
export const segments = (path: string) =>
  path
    .split('/')
    .map((s) => backingPath`/${s}`)
    .join('');

/** True when a listed path is a directory. */
export const isDirectory = (p: DfsPath) => p.isDirectory === true || p.isDirectory === 'true';

const notFound = (err: unknown) => err instanceof BackingError && err.status === 404;

/**
 * The Data Lake Storage Gen2 path API on one filesystem URL (OneLake's workspace, or a storage account's container):
 * every call through the pipeline as service 'storage' with the storage audience and x-ms-version.
 */
export class DfsFilesystem {
  constructor(
    private readonly pipeline: BackingPipeline,
    /** The filesystem's URL: `<endpoint>/<filesystem>`, its segments already encoded. */
    readonly url: string,
    private readonly audience: string,
  ) {}

  private send(method: string, url: string, extra: { accept?: number[]; body?: string; headers?: Record<string, string> } = {}) {
    return this.pipeline.send({
      service: 'storage',
      method,
      url,
      audience: this.audience,
      headers: { 'x-ms-version': DFS_API_VERSION, ...extra.headers },
      ...(extra.body !== undefined ? { body: extra.body, contentType: 'application/octet-stream' } : {}),
      ...(extra.accept ? { accept: extra.accept } : {}),
    }) as Promise<BackingResponse>;
  }

  /** Creates the filesystem; false when it exists already (409 FilesystemAlreadyExists). */
  async create(): Promise<boolean> {
    const res = await this.send('PUT', `${this.url}?resource=filesystem`, { accept: [409] });
    return res.status !== 409;
  }

  /** Creates a directory and its missing parents; an existing one is fine (201 again, or 409 PathAlreadyExists). */
  async createDirectory(path: string): Promise<void> {
    await this.send('PUT', `${this.url}${segments(path)}?resource=directory`, { accept: [409] });
  }

  /** Writes a file whole: create (replacing one there, empty), then append the bytes at 0 flushed in the same call. */
  async writeFile(path: string, text: string): Promise<void> {
    const url = `${this.url}${segments(path)}`;
    await this.send('PUT', `${url}?resource=file`);
    if (text) await this.send('PATCH', `${url}?action=append&position=0&flush=true`, { body: text });
  }

  /** The paths under a folder ('' for the root), across pages (x-ms-continuation); a missing folder is the service's 404. */
  async list(directory: string, recursive: boolean): Promise<DfsPath[]> {
    if (directory) segments(directory); // refuses an empty, '.' or '..' segment before anything is sent
    const out: DfsPath[] = [];
    let continuation: string | undefined;
    do {
      const query = `resource=filesystem&recursive=${recursive}${directory ? `&directory=${encodeURIComponent(directory)}` : ''}${continuation ? `&continuation=${encodeURIComponent(continuation)}` : ''}`;
      const res = await this.send('GET', `${this.url}?${query}`);
      out.push(...(res.json<{ paths?: DfsPath[] }>().paths ?? []));
      continuation = res.headers.get('x-ms-continuation') ?? undefined;
    } while (continuation);
    return out;
  }

  /** The paths under a folder, or undefined when the folder does not exist (404 PathNotFound). */
  async listIfPresent(directory: string, recursive: boolean): Promise<DfsPath[] | undefined> {
    return this.list(directory, recursive).catch((err) => {
      if (notFound(err)) return undefined;
      throw err;
    });
  }

  /** A file's content as text; `path` is its name as a listing gives it. */
  async readText(path: string): Promise<string> {
    return (await this.send('GET', `${this.url}${segments(path)}`)).text;
  }

  /** Deletes a path (a directory with everything under it when recursive); false when it was already gone. */
  async delete(path: string, recursive: boolean): Promise<boolean> {
    try {
      await this.send('DELETE', `${this.url}${segments(path)}${recursive ? '?recursive=true' : ''}`);
      return true;
    } catch (err) {
      if (notFound(err)) return false;
      throw err;
    }
  }
}
