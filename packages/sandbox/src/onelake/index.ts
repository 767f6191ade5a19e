import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { ROLE_RANK, type Item } from '../data-platform/store.js';
import {
  adls,
  createPath,
  dfsCaller,
  dfsModule,
  listed,
  notAuthorized,
  pathExists,
  pathResource,
  pathNotFound,
  readPath,
  removePath,
  updatePath,
} from './dfs.js';

/** Resolves /{workspace}/{item or Name.Type}/{path}, checking the API version, the bearer token and the caller's workspace role. */
async function open(core: SandboxCore, ctx: RequestContext, write: boolean) {
  const caller = await dfsCaller(core, ctx);
  const [wsRef, itemRef, ...rest] = ctx.path.split('/').slice(1).map(decodeURIComponent);
  const ws = [...core.dataPlatform.workspaces.values()].find((w) => w.id === wsRef?.toLowerCase() || w.displayName === wsRef);
  if (!ws) throw adls(404, 'FilesystemNotFound', 'The specified filesystem does not exist.');
  const role = ws.roleAssignments.get(caller.objectId)?.role;
  if (!role || ROLE_RANK[role] < ROLE_RANK[write ? 'Contributor' : 'Viewer']) throw notAuthorized();
  let item: Item | undefined;
  if (itemRef) {
    const byName = /^(.+)\.([A-Za-z]+)$/.exec(itemRef);
    item = [...ws.items.values()].find(
      (i) =>
        core.dataPlatform.visible(i) &&
        (i.id === itemRef.toLowerCase() || (byName && i.displayName === byName[1] && i.type.toLowerCase() === byName[2]!.toLowerCase())),
    );
    if (!item) throw pathNotFound();
  }
  return { ws, item, path: rest.filter(Boolean).join('/') };
}

/** OneLake's DFS endpoint (ADLS Gen2 path API subset): directory/file create, append/flush, read, list, delete. */
export function oneLakeService(core: SandboxCore): ServiceModule {
  const router = new Router();
  const any = /^\/[^/]+(\/.*)?$/;
  router.put(any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, true);
    if (!item || !path)
      throw adls(
        403,
        'OperationNotAllowedOnThePath',
        'The item folder is managed by the data platform and cannot be created or changed through OneLake.',
      );
    pathResource(ctx);
    if (!/^(Files|Tables)(\/|$)/.test(path))
      throw adls(403, 'OperationNotAllowedOnThePath', `Paths must be under Files/ or Tables/ of the item; '${path}' is not.`);
    if (path === 'Files' || path === 'Tables') throw pathExists();
    return createPath(ctx, core.oneLake.tree(ws.id, item.id), path);
  });
  router.patch(any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, true);
    if (!item || !path) throw pathNotFound();
    return updatePath(ctx, core.oneLake.tree(ws.id, item.id), path);
  });
  router.on(['GET', 'HEAD'], any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, false);
    if (!item && ctx.query('resource') === 'filesystem') {
      const dir = ctx.query('directory') ?? '';
      const [itemRef, ...sub] = dir.split('/').filter(Boolean);
      const target = itemRef
        ? [...ws.items.values()].find((i) => i.id === itemRef.toLowerCase() && core.dataPlatform.visible(i))
        : undefined;
      if (itemRef && !target) throw pathNotFound();
      const items = target ? [target] : [...ws.items.values()].filter((i) => core.dataPlatform.visible(i));
      const recursive = ctx.query('recursive') === 'true' || !target;
      const paths = items.flatMap((i) => listed(core.oneLake.tree(ws.id, i.id), sub.join('/'), recursive, `${i.id}/`));
      return { status: 200, body: { paths } };
    }
    return readPath(ctx, item ? core.oneLake.get(ws.id, item.id, path || 'Files') : undefined);
  });
  router.delete(any, async (ctx): Promise<Reply> => {
    const { ws, item, path } = await open(core, ctx, true);
    if (!item || !path || path === 'Files' || path === 'Tables')
      throw adls(
        403,
        'OperationNotAllowedOnThePath',
        'The item folder and its Files/ and Tables/ folders are managed by the data platform.',
      );
    return removePath(ctx, core.oneLake.tree(ws.id, item.id), path);
  });
  return dfsModule('oneLake', router);
}
