import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { callerFrom } from '../identity/caller.js';
import { AUDIENCES } from '../identity/resources.js';
import { ROLE_RANK, type Item } from '../data-platform/store.js';

const adls = (status: number, code: string, message: string) => new ServiceError(status, code, message);

/**
 * Storage refuses a request that names no API version (x-ms-version is a required header of every DFS operation in
 * specs/storage-dfs), or names one not in the version format, before it looks at the token.
 */
function requireVersion(ctx: RequestContext): void {
  const version = ctx.header('x-ms-version');
  if (version === undefined)
    throw adls(400, 'MissingRequiredHeader', "An HTTP header that's mandatory for this request is not specified. (x-ms-version)");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version))
    throw adls(400, 'InvalidHeaderValue', 'The value for one of the HTTP headers is not in the correct format. (x-ms-version)');
}

/** Resolves /{workspace}/{item or Name.Type}/{path}, checking the API version, the bearer token and the caller's workspace role. */
async function open(core: SandboxCore, ctx: RequestContext, write: boolean) {
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
  const [wsRef, itemRef, ...rest] = ctx.path.split('/').slice(1).map(decodeURIComponent);
  const ws = [...core.dataPlatform.workspaces.values()].find((w) => w.id === wsRef?.toLowerCase() || w.displayName === wsRef);
  if (!ws) throw adls(404, 'FilesystemNotFound', 'The specified filesystem does not exist.');
  const role = ws.roleAssignments.get(caller.objectId)?.role;
  if (!role || ROLE_RANK[role] < ROLE_RANK[write ? 'Contributor' : 'Viewer'])
    throw adls(403, 'AuthorizationPermissionMismatch', 'This request is not authorized to perform this operation using this permission.');
  let item: Item | undefined;
  if (itemRef) {
    const byName = /^(.+)\.([A-Za-z]+)$/.exec(itemRef);
    item = [...ws.items.values()].find(
      (i) =>
        core.dataPlatform.visible(i) &&
        (i.id === itemRef.toLowerCase() || (byName && i.displayName === byName[1] && i.type.toLowerCase() === byName[2]!.toLowerCase())),
    );
    if (!item) throw adls(404, 'PathNotFound', 'The specified path does not exist.');
  }
  return { ws, item, path: rest.filter(Boolean).join('/') };
}

const entryHeaders = (lastModified: number, isDirectory: boolean) => ({
  etag: `"0x8DD${lastModified.toString(16).toUpperCase()}"`,
  'last-modified': new Date(lastModified).toUTCString(),
  'x-ms-resource-type': isDirectory ? 'directory' : 'file',
});

/** OneLake's DFS endpoint (ADLS Gen2 path API subset): directory/file create, append/flush, read, list, delete. */
export function oneLakeService(core: SandboxCore): ServiceModule {
  const router = new Router();
  const any = /^\/[^/]+(\/.*)?$/;
  router.put(any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, true);
    const resource = ctx.query('resource');
    if (!item || !path)
      throw adls(
        403,
        'OperationNotAllowedOnThePath',
        'The item folder is managed by the data platform and cannot be created or changed through OneLake.',
      );
    if (resource !== 'directory' && resource !== 'file')
      throw adls(
        400,
        'InvalidQueryParameterValue',
        "Value for one of the query parameters specified in the request URI is invalid. (resource must be 'directory' or 'file')",
      );
    if (!/^(Files|Tables)(\/|$)/.test(path))
      throw adls(403, 'OperationNotAllowedOnThePath', `Paths must be under Files/ or Tables/ of the item; '${path}' is not.`);
    if (path === 'Files' || path === 'Tables') throw adls(409, 'PathAlreadyExists', 'The specified path already exists.');
    const existing = core.oneLake.get(ws.id, item.id, path);
    if (existing && ctx.header('if-none-match') === '*') throw adls(409, 'PathAlreadyExists', 'The specified path already exists.');
    if (existing && existing.isDirectory !== (resource === 'directory'))
      throw adls(409, 'ResourceTypeMismatch', 'The resource type specified in the request does not match the type of the resource.');
    const entry = {
      isDirectory: resource === 'directory',
      lastModified: Date.now(),
      ...(resource === 'file' ? { content: Buffer.alloc(0) } : {}),
    };
    core.oneLake.put(ws.id, item.id, path, entry);
    return { status: 201, headers: entryHeaders(entry.lastModified, entry.isDirectory) };
  });
  router.patch(any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, true);
    const entry = item && path ? core.oneLake.get(ws.id, item.id, path) : undefined;
    if (!entry || entry.isDirectory) throw adls(404, 'PathNotFound', 'The specified path does not exist.');
    const action = ctx.query('action');
    if (action === 'append') {
      entry.content = Buffer.concat([entry.content ?? Buffer.alloc(0), await ctx.body()]);
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
  });
  router.on(['GET', 'HEAD'], any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, false);
    if (!item && ctx.query('resource') === 'filesystem') {
      const dir = ctx.query('directory') ?? '';
      const [itemRef, ...sub] = dir.split('/').filter(Boolean);
      const target = itemRef
        ? [...ws.items.values()].find((i) => i.id === itemRef.toLowerCase() && core.dataPlatform.visible(i))
        : undefined;
      if (itemRef && !target) throw adls(404, 'PathNotFound', 'The specified path does not exist.');
      const items = target ? [target] : [...ws.items.values()].filter((i) => core.dataPlatform.visible(i));
      const paths = items.flatMap((i) =>
        core.oneLake.list(ws.id, i.id, sub.join('/'), ctx.query('recursive') === 'true' || !target).map(([name, e]) => ({
          name: `${i.id}/${name}`,
          isDirectory: e.isDirectory ? 'true' : undefined,
          contentLength: String(e.content?.length ?? 0),
          lastModified: new Date(e.lastModified).toUTCString(),
          etag: entryHeaders(e.lastModified, e.isDirectory).etag,
        })),
      );
      return { status: 200, body: { paths } };
    }
    const entry = item ? core.oneLake.get(ws.id, item.id, path || 'Files') : undefined;
    if (!item || !entry) throw adls(404, 'PathNotFound', 'The specified path does not exist.');
    const headers = entryHeaders(entry.lastModified, entry.isDirectory);
    if (ctx.method === 'HEAD' || entry.isDirectory) return { status: 200, headers };
    return { status: 200, headers, raw: entry.content ?? Buffer.alloc(0), contentType: 'application/octet-stream' };
  });
  router.delete(any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, true);
    if (!item || !path || path === 'Files' || path === 'Tables')
      throw adls(
        403,
        'OperationNotAllowedOnThePath',
        'The item folder and its Files/ and Tables/ folders are managed by the data platform.',
      );
    if (!core.oneLake.get(ws.id, item.id, path)) throw adls(404, 'PathNotFound', 'The specified path does not exist.');
    if (!core.oneLake.delete(ws.id, item.id, path, ctx.query('recursive') === 'true'))
      throw adls(409, 'DirectoryNotEmpty', 'The recursive query parameter value must be true to delete a non-empty directory.');
    return { status: 200 };
  });
  return {
    name: 'oneLake',
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
