import { part } from '../../backends/data-platform.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart } from './platform-item.js';

/** kql-dashboard: POST /workspaces/{ws}/kqlDashboards with RealTimeDashboard.json tiles over the app's KQL database. */
export const provisionKqlDashboard: Provisioner = async (ctx) => {
  const db = ctx.contentOf(ctx.content.database);
  const clusterUri = ctx.target.kqlClusterUri ?? '';
  const dashboard = {
    schema_version: '52',
    autoRefresh: { enabled: Boolean(ctx.content.autoRefresh), defaultInterval: ctx.content.autoRefresh ?? '30s' },
    dataSources: [{ id: 'ds1', name: db?.database, clusterUri, database: db?.database, kind: 'manual-kusto', scopeId: 'kusto' }],
    tiles: (ctx.content.tiles as Array<{ title: string; query: string; visual?: string }>).map((t, i) => ({ id: `tile${i + 1}`, title: t.title, query: t.query, dataSourceId: 'ds1', visualType: t.visual ?? 'table', layout: { x: (i % 2) * 12, y: Math.floor(i / 2) * 8, width: 12, height: 8 } })),
  };
  const definition = { parts: [part('RealTimeDashboard.json', JSON.stringify(dashboard, null, 2)), platformPart(ctx, 'KQLDashboard')] };
  const { item, created } = await ensurePlatformItem(ctx, { type: 'KQLDashboard', collection: 'kqlDashboards', definition });
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! } };
};
