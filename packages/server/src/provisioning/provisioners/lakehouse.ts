import type { Provisioner } from '../context.js';
import { ensurePlatformItem } from './platform-item.js';

/** lakehouse: POST /workspaces/{ws}/lakehouses, then declare each table folder under Tables/ in OneLake. */
export const provisionLakehouse: Provisioner = async (ctx) => {
  const { item, created } = await ensurePlatformItem(ctx, { type: 'Lakehouse', collection: 'lakehouses' });
  const ws = ctx.target.platformWorkspaceId!;
  const onelake = ctx.target.oneLakeUrl;
  for (const table of ctx.content.tables as Array<{ name: string; folder: string }>) {
    // A directory PUT is idempotent: an existing folder answers 201/200 again (409 PathAlreadyExists is also fine).
    await ctx.backends.pipeline.send({
      service: 'storage', method: 'PUT', url: `${onelake}/${ws}/${item.id}/${table.folder}?resource=directory`,
      audience: ctx.profile.storageAudience, accept: [409],
    });
    ctx.log(`table folder ${table.folder}`);
  }
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ws } };
};
