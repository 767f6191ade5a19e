// The Data Lake Storage Gen2 path API (specs/storage-dfs) as both DFS emulators serve it: OneLake (a workspace is the
// filesystem, an item its top folder) and the lake's storage accounts (path-style `/<account>/<filesystem>/<path>`).
import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import type { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { callerFrom, type Caller } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import { deletePath, listPaths, putPath, type PathEntry, type PathTree } from './tree.js';

/** A storage error: its status, code (also sent as x-ms-error-code) and message. */
export const adls = (status: number, code: string, message: string) => new ServiceError(status, code, message);

export const pathNotFound = () => adls(404, 'PathNotFound', 'The specified path does not exist.');
export const pathExists = () => adls(409, 'PathAlreadyExists', 'The specified path already exists.');
export const notAuthorized = () =>
  adls(403, 'AuthorizationPermissionMismatch', 'This request is not authorized to perform this operation using this permission.');

/**
 * Storage refuses a request that names no API version (x-ms-version is a required header of every DFS operation in
 * specs/storage-dfs), or names one not in the version format, before it looks at the token.
 */
export function requireVersion(ctx: RequestContext): void {
  const version = ctx.header('x-ms-version');
  if (version === undefined)
    throw adls(400, 'MissingRequiredHeader', "An HTTP header that's mandatory for this request is not specified. (x-ms-version)");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version))
    throw adls(400, 'InvalidHeaderValue', 'The value for one of the HTTP headers is not in the correct format. (x-ms-version)');
}

/** The caller of a DFS request: the API version checked, then the bearer token for the storage audience. */
export async function dfsCaller(core: SandboxCore, ctx: RequestContext): Promise<Caller> {
  requireVersion(ctx);
  const v = await core.tokens.verifyBearer(ctx.header('authorization'), [...AUDIENCES.storage]);
  if (!v.ok) {
    throw v.reason === 'missing'
      ? adls(
          401,
          'NoAuthenticationInformation',
          'Server failed to authenticate the request. Please refer to the information in the www-authenticate header.',
        )
      : adls(401, 'InvalidAuthenticationInfo', `Server failed to authenticate the request. ${v.detail}`);
  }
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  return caller;
}

/** The etag, last-modified and resource type headers of a path. */
export const entryHeaders = (lastModified: number, isDirectory: boolean) => ({
  etag: `"0x8DD${lastModified.toString(16).toUpperCase()}"`,
  'last-modified': new Date(lastModified).toUTCString(),
  'x-ms-resource-type': isDirectory ? 'directory' : 'file',
});

/** The `resource` of a path create: 'directory' or 'file', else 400 InvalidQueryParameterValue. */
export function pathResource(ctx: RequestContext): 'directory' | 'file' {
  const resource = ctx.query('resource');
  if (resource !== 'directory' && resource !== 'file')
    throw adls(
      400,
      'InvalidQueryParameterValue',
      "Value for one of the query parameters specified in the request URI is invalid. (resource must be 'directory' or 'file')",
    );
  return resource;
}

/** PUT ?resource=directory|file: creates the path (and its parents); If-None-Match: * refuses an existing one. */
export function createPath(ctx: RequestContext, tree: PathTree, path: string): Reply {
  const resource = pathResource(ctx);
  const existing = tree.get(path);
  if (existing && ctx.header('if-none-match') === '*') throw pathExists();
  if (existing && existing.isDirectory !== (resource === 'directory'))
    throw adls(409, 'ResourceTypeMismatch', 'The resource type specified in the request does not match the type of the resource.');
  const entry: PathEntry = {
    isDirectory: resource === 'directory',
    lastModified: Date.now(),
    ...(resource === 'file' ? { content: Buffer.alloc(0) } : {}),
  };
  putPath(tree, path, entry);
  return { status: 201, headers: entryHeaders(entry.lastModified, entry.isDirectory) };
}

/** PATCH ?action=append|flush on a file; an append with flush=true is flushed in the same call (2025-01-05 and later). */
export async function updatePath(ctx: RequestContext, tree: PathTree, path: string): Promise<Reply> {
  const entry = tree.get(path);
  if (!entry || entry.isDirectory) throw pathNotFound();
  const action = ctx.query('action');
  if (action === 'append') {
    entry.content = Buffer.concat([entry.content ?? Buffer.alloc(0), await ctx.body()]);
    if (ctx.query('flush') === 'true') entry.lastModified = Date.now();
    return { status: 202 };
  }
  if (action === 'flush') {
    entry.lastModified = Date.now();
    return { status: 200, headers: entryHeaders(entry.lastModified, false) };
  }
  throw adls(
    400,
    'InvalidQueryParameterValue',
    "Value for one of the query parameters specified in the request URI is invalid. (action must be 'append' or 'flush')",
  );
}

/** GET/HEAD of a path: a file's bytes, a directory's properties. */
export function readPath(ctx: RequestContext, entry: PathEntry | undefined): Reply {
  if (!entry) throw pathNotFound();
  const headers = entryHeaders(entry.lastModified, entry.isDirectory);
  if (ctx.method === 'HEAD' || entry.isDirectory) return { status: 200, headers };
  return { status: 200, headers, raw: entry.content ?? Buffer.alloc(0), contentType: 'application/octet-stream' };
}

/** DELETE of a path; a non-empty directory needs recursive=true (409 DirectoryNotEmpty). */
export function removePath(ctx: RequestContext, tree: PathTree, path: string): Reply {
  if (!tree.get(path)) throw pathNotFound();
  if (!deletePath(tree, path, ctx.query('recursive') === 'true'))
    throw adls(409, 'DirectoryNotEmpty', 'The recursive query parameter value must be true to delete a non-empty directory.');
  return { status: 200 };
}

/** A listing's path objects (the service sends isDirectory and contentLength as strings), names prefixed by `prefix`. */
export function listed(tree: PathTree, dir: string, recursive: boolean, prefix = '') {
  return listPaths(tree, dir, recursive).map(([name, e]) => ({
    name: `${prefix}${name}`,
    isDirectory: e.isDirectory ? 'true' : undefined,
    contentLength: String(e.content?.length ?? 0),
    lastModified: new Date(e.lastModified).toUTCString(),
    etag: entryHeaders(e.lastModified, e.isDirectory).etag,
  }));
}

/** A DFS emulator's module: storage's JSON error body and x-ms-error-code, its fault codes and common headers. */
export function dfsModule(name: ServiceModule['name'], router: Router): ServiceModule {
  return {
    name,
    router,
    errorReply: (err, ctx) => ({
      status: err.status,
      body: { error: { code: err.code, message: `${err.message}\nRequestId:${ctx.requestId}\nTime:${new Date().toISOString()}` } },
      headers: { 'x-ms-error-code': err.code, ...err.headers },
    }),
    faultCode: (status) =>
      status === 503 ? 'ServerBusy' : status === 500 ? 'InternalError' : status === 429 ? 'TooManyRequests' : `Http${status}`,
    commonHeaders: (ctx) => ({
      'x-ms-request-id': ctx.requestId,
      'x-ms-version': ctx.header('x-ms-version') ?? '2023-11-03',
      server: 'Windows-Azure-HDFS/1.0 Microsoft-HTTPAPI/2.0',
    }),
  };
}
