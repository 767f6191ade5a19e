import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { validateKqlQueries } from '../catalog/validate-consumers.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { ensurePlatformItem, platformItemCalls, platformPart, type PlatformKind } from '../provisioning/platform-item.js';
import { platformLifecycle } from '../provisioning/platform-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { KqlDatabaseContent } from './kql-database.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';

/** KQL dashboard content: tiles of queries over a KQL database of the app. */
export const KqlDashboardContent = Type.Object({
  database: Key,
  tiles: Type.Array(Type.Object({ title: Name, query: Name, visual: Type.Optional(Type.String()) }), { minItems: 1 }),
  autoRefresh: Type.Optional(Type.String()),
});
export type KqlDashboardContent = Static<typeof KqlDashboardContent>;

const PLATFORM: PlatformKind = { type: 'KQLDashboard', collection: 'kqlDashboards' };

/** The definition a KQL dashboard's provisioning sends: RealTimeDashboard.json with its tiles over the app's database. */
function definitionOf(ctx: TypedProvisionContext<KqlDashboardContent>) {
  const db = ctx.contentOf(ctx.content.database, KqlDatabaseContent);
  const clusterUri = ctx.target.kqlClusterUri ?? '';
  const dashboard = {
    schema_version: '52',
    autoRefresh: { enabled: Boolean(ctx.content.autoRefresh), defaultInterval: ctx.content.autoRefresh ?? '30s' },
    dataSources: [{ id: 'ds1', name: db?.database, clusterUri, database: db?.database, kind: 'manual-kusto', scopeId: 'kusto' }],
    tiles: ctx.content.tiles.map((t, i) => ({
      id: `tile${i + 1}`,
      title: t.title,
      query: t.query,
      dataSourceId: 'ds1',
      visualType: t.visual ?? 'table',
      layout: { x: (i % 2) * 12, y: Math.floor(i / 2) * 8, width: 12, height: 8 },
    })),
  };
  return { parts: [part('RealTimeDashboard.json', JSON.stringify(dashboard, null, 2)), platformPart(ctx, 'KQLDashboard')] };
}

/** kql-dashboard: POST /workspaces/{ws}/kqlDashboards with RealTimeDashboard.json tiles over the app's KQL database. */
export const kqlDashboard: LiveItemType<'kql-dashboard', typeof KqlDashboardContent> = {
  id: 'kql-dashboard',
  displayName: 'KQL dashboard',
  description: 'tiles of KQL queries',
  icon: 'Grid',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  content: KqlDashboardContent,
  validate: validateKqlQueries,
  validatesAfter: ['kql-database', 'eventhouse'],
  edges: { from: ['visualizes'], to: [] },
  dependsOn: (c) => [c.database],
  calls: () => platformItemCalls(PLATFORM, true),
  ...platformLifecycle(PLATFORM, definitionOf),
  alternatives: [
    {
      backing: 'stored',
      reason:
        'Azure Data Explorer dashboards have no published API: the dashboard is kept in the service with its queries, which the console runs against the KQL database.',
    },
  ],
  async provision(ctx) {
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition: definitionOf(ctx) });
    return {
      status: created ? 'created' : 'exists',
      resourceId: item.id,
      secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! },
    };
  },
};
