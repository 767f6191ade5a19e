// The lake: Data Lake Storage Gen2 accounts served path-style on loopback as Azurite serves them,
// `<url>/<account>/<filesystem>/<path>`, with the DFS path API OneLake's emulator shares (onelake/dfs.ts).
import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import {
  adls,
  createPath,
  dfsCaller,
  dfsModule,
  listed,
  notAuthorized,
  pathNotFound,
  readPath,
  removePath,
  updatePath,
} from '../onelake/dfs.js';
import type { Filesystem, LakeAccount } from './store.js';

/** A filesystem (container) name as storage takes it: 3-63 lowercase letters, digits and single inner hyphens. */
const FILESYSTEM_NAME = /^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

const filesystemNotFound = () => adls(404, 'FilesystemNotFound', 'The specified filesystem does not exist.');

/** Resolves /{account}/{filesystem}/{path}: the API version, the bearer token, then the caller's data role on the account. */
async function open(core: SandboxCore, ctx: RequestContext, write: boolean) {
  const caller = await dfsCaller(core, ctx);
  const [accountName, fsName, ...rest] = ctx.path.split('/').slice(1).map(decodeURIComponent);
  const account: LakeAccount | undefined = core.lake.accounts.get(accountName ?? '');
  if (!account) throw adls(404, 'ResourceNotFound', 'The specified resource does not exist.');
  if (!core.lake.allowed(account, caller.objectId, write)) throw notAuthorized();
  if (!fsName) throw adls(400, 'InvalidUri', 'The requested URI does not represent any resource on the server.');
  if (!FILESYSTEM_NAME.test(fsName)) throw adls(400, 'InvalidResourceName', 'The specifed resource name contains invalid characters.');
  const path = rest.filter(Boolean).join('/');
  return { account, fsName, fs: account.filesystems.get(fsName), path };
}

/** The filesystem a path operation needs (404 FilesystemNotFound when absent). */
const need = (fs: Filesystem | undefined): Filesystem => {
  if (!fs) throw filesystemNotFound();
  return fs;
};

/** The storage-account DFS endpoint: filesystem create/list/delete, path create, append/flush, read, delete. */
export function lakeService(core: SandboxCore): ServiceModule {
  const router = new Router();
  const any = /^\/[^/]+(\/.*)?$/;
  router.put(any, async (ctx): Promise<Reply> => {
    const { account, fsName, fs, path } = await open(core, ctx, true);
    if (!path) {
      // DFS `?resource=filesystem` and Blob `?restype=container` both create the container.
      const blob = ctx.query('restype') === 'container';
      if (!blob && ctx.query('resource') !== 'filesystem')
        throw adls(
          400,
          'InvalidQueryParameterValue',
          "Value for one of the query parameters specified in the request URI is invalid. (resource must be 'filesystem')",
        );
      if (fs)
        throw blob
          ? adls(409, 'ContainerAlreadyExists', 'The specified container already exists.')
          : adls(409, 'FilesystemAlreadyExists', 'The specified filesystem already exists.');
      account.filesystems.set(fsName, { name: fsName, createdAt: Date.now(), tree: new Map() });
      return { status: 201 };
    }
    return createPath(ctx, need(fs).tree, path);
  });
  router.patch(any, async (ctx): Promise<Reply> => {
    const { fs, path } = await open(core, ctx, true);
    if (!path) throw pathNotFound();
    return updatePath(ctx, need(fs).tree, path);
  });
  router.on(['GET', 'HEAD'], any, async (ctx): Promise<Reply> => {
    const { fs, path } = await open(core, ctx, false);
    const tree = need(fs).tree;
    if (path) return readPath(ctx, tree.get(path));
    if (ctx.query('resource') !== 'filesystem')
      throw adls(
        400,
        'InvalidQueryParameterValue',
        "Value for one of the query parameters specified in the request URI is invalid. (resource must be 'filesystem')",
      );
    if (ctx.method === 'HEAD') return { status: 200 };
    const recursive = ctx.query('recursive');
    if (recursive !== 'true' && recursive !== 'false')
      throw adls(400, 'MissingRequiredQueryParameter', "A query parameter that's mandatory for this request is not specified. (recursive)");
    const dir = (ctx.query('directory') ?? '').replace(/^\/+|\/+$/g, '');
    if (dir && !tree.get(dir)?.isDirectory) throw pathNotFound();
    // Pages of maxResults (at most the service's page size), the next one named by x-ms-continuation.
    const all = listed(tree, dir, recursive === 'true');
    const token = ctx.query('continuation');
    const start =
      token === undefined
        ? 0
        : Number(
            Buffer.from(token, 'base64url')
              .toString('utf8')
              .replace(/^page:/, '') || Number.NaN,
          );
    if (!Number.isInteger(start) || start < 0 || start > all.length)
      throw adls(
        400,
        'InvalidQueryParameterValue',
        'Value for one of the query parameters specified in the request URI is invalid. (continuation)',
      );
    const max = Math.min(Number(ctx.query('maxResults') ?? 5000) || 5000, core.switches['lake.pageSize']);
    const end = start + max;
    return {
      status: 200,
      body: { paths: all.slice(start, end) },
      ...(end < all.length ? { headers: { 'x-ms-continuation': Buffer.from(`page:${end}`).toString('base64url') } } : {}),
    };
  });
  router.delete(any, async (ctx): Promise<Reply> => {
    const { account, fsName, fs, path } = await open(core, ctx, true);
    if (path) return removePath(ctx, need(fs).tree, path);
    if (ctx.query('resource') !== 'filesystem' && ctx.query('restype') !== 'container')
      throw adls(
        400,
        'InvalidQueryParameterValue',
        "Value for one of the query parameters specified in the request URI is invalid. (resource must be 'filesystem')",
      );
    need(fs);
    account.filesystems.delete(fsName);
    return { status: 202 };
  });
  return dfsModule('lake', router);
}
