import { gateOnAuth } from '../gates.js';
import { backingPath } from '../../backends/http-pipeline.js';
import type { ProvisionContext, Provisioner } from '../context.js';
import { ensurePlatformItem } from './platform-item.js';

const SQL_ENDPOINT_WAIT_MS = 120_000;

/** Waits (bounded) for the lakehouse's SQL endpoint, which lags the create; returns its id and connection string. */
async function sqlEndpoint(ctx: ProvisionContext, ws: string, id: string) {
  const deadline = Date.now() + SQL_ENDPOINT_WAIT_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
    const lh = await ctx.backends.dataPlatform.getLakehouse(ws, id).catch((err) => gateOnAuth(err, 'data-platform-auth', ctx.profile));
    const sql = lh.properties?.sqlEndpointProperties;
    if (sql?.provisioningStatus === 'Success' || !sql?.provisioningStatus) return sql;
    if (sql.provisioningStatus === 'Failed' || Date.now() > deadline) {
      ctx.log(`SQL endpoint ${sql.provisioningStatus === 'Failed' ? 'failed to provision' : 'still provisioning'}; continuing without it`);
      return sql;
    }
    ctx.log(`SQL endpoint ${sql.provisioningStatus}: waiting`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** lakehouse: POST /workspaces/{ws}/lakehouses, then declare each table folder under Tables/ in OneLake. */
export const provisionLakehouse: Provisioner = async (ctx) => {
  const { item, created } = await ensurePlatformItem(ctx, { type: 'Lakehouse', collection: 'lakehouses' });
  const ws = ctx.target.platformWorkspaceId!;
  const onelake = ctx.target.oneLakeUrl;
  for (const table of ctx.content.tables as Array<{ name: string; folder: string }>) {
    // A directory PUT is idempotent: an existing folder answers 201 again (409 PathAlreadyExists is also fine).
    await ctx.backends.pipeline.send({
      service: 'storage', method: 'PUT', url: `${onelake}${backingPath`/${ws}/${item.id}`}/${table.folder.split('/').map(encodeURIComponent).join('/')}?resource=directory`,
      audience: ctx.profile.storageAudience, accept: [409],
    });
    ctx.log(`table folder ${table.folder}`);
  }
  const sql = await sqlEndpoint(ctx, ws, item.id);
  return {
    status: created ? 'created' : 'exists',
    resourceId: item.id,
    secondaryIds: { platformWorkspaceId: ws, ...(sql?.id ? { sqlEndpointId: sql.id } : {}), ...(sql?.connectionString ? { sqlEndpoint: sql.connectionString } : {}) },
  };
};
