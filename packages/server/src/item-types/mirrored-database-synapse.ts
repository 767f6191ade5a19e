import { StepRefused, type TypedProvisionContext } from '../provisioning/context.js';
import { synapseName } from '../provisioning/synapse-artifact.js';
import {
  bundleCalls,
  bundleNames,
  bundleParts,
  bundleReadCalls,
  bundleRemoveCalls,
  ensureBundle,
  lakeLinkedService,
  lakeLocation,
  type NamedArtifact,
  needLake,
  ownedName,
  readBundle,
  removeBundle,
  type SynapseBundle,
} from '../provisioning/synapse-bundle.js';
import type { LiveBackend } from './descriptor.js';
import type { MirroredDatabaseContent } from './mirrored-database.js';

/** The sources a copy pipeline reads with the workspace's managed identity: linked service, dataset and copy source types. */
const SOURCES: Record<string, { linkedService: string; dataset: string; source: string }> = {
  AzureSqlDatabase: { linkedService: 'AzureSqlDatabase', dataset: 'AzureSqlTable', source: 'AzureSqlSource' },
  AzureSqlMI: { linkedService: 'AzureSqlMI', dataset: 'AzureSqlMITable', source: 'SqlMISource' },
};

const tablesOf = (c: MirroredDatabaseContent) =>
  (c.mirroring.properties.mountedTables ?? []).map((t) => t.source.typeProperties as { schemaName: string; tableName: string });

/** Why this content cannot be mirrored by a copy pipeline, if it cannot (refused before any call). */
function refusal(c: MirroredDatabaseContent): StepRefused | undefined {
  const type = c.mirroring.properties.source.type;
  if (!SOURCES[type])
    return new StepRefused(
      'mirror_source_unsupported',
      `a ${type} source is not mirrored without the data platform: the copy pipeline reads ${Object.keys(SOURCES).join(' and ')} sources with the Synapse workspace's managed identity`,
    );
  if (!c.connection)
    return new StepRefused('mirror_connection_missing', 'the content names no connection (server and database) to copy from');
  if (!tablesOf(c).length)
    return new StepRefused('mirror_tables_missing', 'name the tables to mirror (mountedTables): the pipeline copies each');
  return undefined;
}

/** The copy pipeline of a mirrored database: source and lake linked services, a dataset pair and a Copy per table. */
export function mirrorBundle(
  ctx: TypedProvisionContext<MirroredDatabaseContent>,
  name = synapseName(ctx, ctx.item.displayName),
): SynapseBundle {
  const c = ctx.content;
  const kind = SOURCES[c.mirroring.properties.source.type] ?? SOURCES.AzureSqlDatabase!;
  const server = c.connection?.server ?? '';
  const database = c.mirroring.properties.source.typeProperties.database || c.connection?.database || '';
  const source: NamedArtifact = {
    name: ownedName(name, 'source'),
    properties: {
      type: kind.linkedService,
      description: `the mirrored database ${database} on ${server}`,
      typeProperties: {
        connectionString: `Data Source=tcp:${server},1433;Initial Catalog=${database};Encrypt=True;Connection Timeout=30`,
        authenticationType: 'SystemAssignedManagedIdentity',
      },
    },
  };
  const lake = lakeLinkedService(ctx, name);
  const datasets: NamedArtifact[] = [];
  const activities = tablesOf(c).map((t, i) => {
    const from: NamedArtifact = {
      name: ownedName(name, `t${i}_src`),
      properties: {
        type: kind.dataset,
        linkedServiceName: { type: 'LinkedServiceReference', referenceName: source.name },
        typeProperties: { schema: t.schemaName, table: t.tableName },
      },
    };
    const to: NamedArtifact = {
      name: ownedName(name, `t${i}_lake`),
      properties: {
        type: 'Parquet',
        linkedServiceName: { type: 'LinkedServiceReference', referenceName: lake.name },
        typeProperties: {
          location: lakeLocation(ctx, `${ctx.item.displayName.replace(/[^A-Za-z0-9_\- ]/g, '_')}/${t.schemaName}/${t.tableName}`),
          compressionCodec: 'snappy',
        },
      },
    };
    datasets.push(from, to);
    return {
      name: `Copy ${t.schemaName}.${t.tableName}`.slice(0, 55),
      type: 'Copy',
      dependsOn: [],
      inputs: [{ type: 'DatasetReference', referenceName: from.name }],
      outputs: [{ type: 'DatasetReference', referenceName: to.name }],
      typeProperties: { source: { type: kind.source }, sink: { type: 'ParquetSink', storeSettings: { type: 'AzureBlobFSWriteSettings' } } },
    };
  });
  return {
    linkedServices: [source, lake],
    datasets,
    pipeline: {
      name,
      properties: {
        description: `mirrors ${database} into the lake (a scheduled copy; the data platform's mirroring is absent)`,
        activities,
        annotations: ['mirror'],
      },
    },
  };
}

const counts = (c: MirroredDatabaseContent): [number, number] => [2, tablesOf(c).length * 2];

/**
 * mirrored-database → a copy pipeline into the lake (the data platform's mirroring has no Azure-native API): linked
 * services to the source (managed identity) and the lake, a dataset pair per mounted table, and a Copy per table into the
 * tenant's lake folder. Its schedule is a trigger the operator sets: Synapse's triggers API is not among the published
 * descriptions here.
 */
export const mirroredDatabaseSynapse: LiveBackend<MirroredDatabaseContent> = {
  backing: 'synapse',
  calls: (c) => bundleCalls(...counts(c)),
  async provision(ctx) {
    const refused = refusal(ctx.content);
    if (refused) throw refused;
    needLake(ctx);
    const bundle = mirrorBundle(ctx);
    const created = await ensureBundle(ctx, bundle);
    ctx.log(
      `the copy runs when triggered: set a schedule trigger on pipeline '${bundle.pipeline.name}' in Synapse Studio (Integrate, Add trigger); the service does not, as the triggers API is not in the published descriptions it follows`,
    );
    return {
      status: created ? 'created' : 'exists',
      resourceId: bundle.pipeline.name,
      secondaryIds: {
        synapseWorkspace: ctx.target.warehouseWorkspace ?? '',
        lakeFolder: lakeLocation(ctx, ctx.item.displayName).folderPath,
      },
    };
  },
  desired: async (ctx) => bundleParts(mirrorBundle(ctx)),
  readLive: (ctx) => readBundle(ctx, mirrorBundle(ctx)),
  readCalls: (c) => bundleReadCalls(...counts(c)),
  remove: (ctx, resourceId) =>
    removeBundle(
      ctx,
      bundleNames(
        resourceId,
        ['source', 'lake'],
        tablesOf(ctx.content).flatMap((_, i) => [`t${i}_src`, `t${i}_lake`]),
      ),
    ),
  removeCalls: (c) => bundleRemoveCalls(...counts(c)),
};
