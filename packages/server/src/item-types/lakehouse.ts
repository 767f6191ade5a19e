import { Type, type Static } from '@sinclair/typebox';
import { validateLakehouse } from '../catalog/validate-stores.js';
import type { StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { BackingError } from '../backends/http-pipeline.js';
import { isDirectory } from '../backends/onelake.js';
import { raiseGate } from '../backends/failures.js';
import { findPlatformItem } from '../provisioning/platform-read.js';
import { ensurePlatformItem, listCall, platformItemCalls, type PlatformKind } from '../provisioning/platform-item.js';
import { Column, Name, Row } from './content-parts.js';
import type { LiveItemType, LiveState } from './descriptor.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { lakehouseLake } from './lakehouse-lake.js';

/** A lakehouse table: its folder, Spark columns and seed rows. */
export const LakehouseTable = Type.Object({
  name: Name,
  folder: Name,
  columns: Type.Array(Column, { minItems: 1 }),
  seedRows: Type.Optional(Type.Array(Row)),
});
/** Lakehouse content: tables and declared file folders. */
export const LakehouseContent = Type.Object({
  tables: Type.Array(LakehouseTable, { minItems: 1 }),
  files: Type.Optional(Type.Array(Name)),
});
export type LakehouseContent = Static<typeof LakehouseContent>;

const PLATFORM: PlatformKind = { type: 'Lakehouse', collection: 'lakehouses' };
const SQL_ENDPOINT_WAIT_MS = 120_000;

/** Waits (bounded) for the lakehouse's SQL endpoint, which lags the create; returns its id and connection string. */
async function sqlEndpoint(ctx: StepContext, ws: string, id: string) {
  const deadline = Date.now() + SQL_ENDPOINT_WAIT_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
    const lh = await ctx.backends.dataPlatform
      .getLakehouse(ws, id)
      .catch((err) => raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } }));
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

/** The part a lakehouse is compared as: the table folders provisioning declares under it, one a line. */
const FOLDERS = 'table folders';
const foldersPart = (folders: readonly string[]) => [...new Set(folders)].sort().join('\n');

/** The lakehouse as it is now: its SQL endpoint, and which of the content's table folders OneLake holds. */
async function readLakehouse(ctx: TypedProvisionContext<LakehouseContent>): Promise<LiveState | undefined> {
  const { ws, item } = await findPlatformItem(ctx, PLATFORM.type);
  if (!item) return undefined;
  try {
    const sql = (await ctx.backends.dataPlatform.getLakehouse(ws, item.id)).properties?.sqlEndpointProperties;
    const wanted = ctx.content.tables.map((t) => t.folder);
    const present = new Set<string>();
    for (const parent of new Set(wanted.map((f) => f.split('/').slice(0, -1).join('/')))) {
      const listed = await ctx.backends.oneLake.listPaths(ws, parent ? `${item.id}/${parent}` : item.id, false).catch((err) => {
        if (err instanceof BackingError && err.status === 404) return [];
        throw err;
      });
      for (const p of listed.filter(isDirectory)) present.add(p.name.slice(item.id.length + 1));
    }
    return {
      resourceId: item.id,
      secondaryIds: {
        platformWorkspaceId: ws,
        ...(sql?.id ? { sqlEndpointId: sql.id } : {}),
        ...(sql?.connectionString ? { sqlEndpoint: sql.connectionString } : {}),
      },
      parts: { [FOLDERS]: foldersPart(wanted.filter((f) => present.has(f))) },
    };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
}

/** lakehouse: POST /workspaces/{ws}/lakehouses, then declare each table folder under Tables/ in OneLake. */
export const lakehouse: LiveItemType<'lakehouse', typeof LakehouseContent> = {
  id: 'lakehouse',
  displayName: 'Lakehouse',
  description: 'Delta tables and files',
  icon: 'HomeDatabase',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  holdsData: true,
  // Without the data platform: folders in the lake and a database on the Synapse serverless SQL pool (issue 20).
  alternatives: [lakehouseLake],
  content: LakehouseContent,
  nameRule: { pattern: /^[A-Za-z][A-Za-z0-9_]*$/, rule: "may use only letters, digits and _ (the data platform rejects '-')" },
  validate: validateLakehouse,
  edges: { from: ['feeds'], to: ['feeds', 'reads-from', 'visualizes', 'triggers-on'] },
  calls: (c) => [
    ...platformItemCalls(PLATFORM, false),
    { service: 'onelake', method: 'PUT', path: '/{ws}/{id}/Tables/{table}?resource=directory', times: c.tables.length },
    { service: 'data-platform', method: 'GET', path: '/workspaces/{ws}/lakehouses/{id}' },
  ],
  desired: async (ctx) => ({ [FOLDERS]: foldersPart(ctx.content.tables.map((t) => t.folder)) }),
  readLive: readLakehouse,
  readCalls: () => [
    listCall(PLATFORM.type),
    { service: 'data-platform', method: 'GET', path: '/workspaces/{ws}/lakehouses/{id}', when: 'existing' },
    { service: 'onelake', method: 'GET', path: '/{ws}?resource=filesystem&recursive=false&directory={directory}', when: 'existing' },
  ],
  async provision(ctx) {
    const { item, created } = await ensurePlatformItem(ctx, PLATFORM);
    const ws = ctx.target.platformWorkspaceId!;
    for (const table of ctx.content.tables) {
      await ctx.backends.oneLake.createDirectory(ws, item.id, table.folder);
      ctx.log(`table folder ${table.folder}`);
    }
    const sql = await sqlEndpoint(ctx, ws, item.id);
    return {
      status: created ? 'created' : 'exists',
      resourceId: item.id,
      secondaryIds: {
        platformWorkspaceId: ws,
        ...(sql?.id ? { sqlEndpointId: sql.id } : {}),
        ...(sql?.connectionString ? { sqlEndpoint: sql.connectionString } : {}),
      },
    };
  },
};
