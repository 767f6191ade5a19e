import { type StepContext, StepRefused, type TypedProvisionContext } from '../provisioning/context.js';
import { sparkPool, synapseName } from '../provisioning/synapse-artifact.js';
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
import type { PipelineContent } from './data-pipeline.js';
import type { LiveBackend } from './descriptor.js';

type Activity = PipelineContent['activities'][number] & Record<string, unknown>;
type Settings = {
  type?: string;
  schema?: unknown;
  typeProperties?: Record<string, unknown>;
  linkedService?: { name?: string; properties?: { typeProperties?: { rootFolder?: string } } };
};

const copies = (c: PipelineContent) => c.activities.filter((a) => a.type === 'Copy').length;

/** The lake folder a data-platform dataset points at: the lakehouse's folder, its root (Files, Tables) and the path. */
function folderOf(ds: Settings, leaf: string | undefined): string {
  const lakehouse = (ds.linkedService?.name ?? 'lake').replace(/[^A-Za-z0-9_\- ]/g, '_');
  const root = ds.linkedService?.properties?.typeProperties?.rootFolder ?? 'Files';
  return [lakehouse, root, leaf].filter(Boolean).join('/');
}

/**
 * A Copy activity's source and sink datasets, as Synapse datasets over the lake: a file source keeps its format (its
 * location moved to the tenant's lake folder), a lakehouse table sink becomes a Parquet folder of the table's name.
 */
function copyDatasets(ctx: StepContext, a: Activity, pipeline: string, i: number, ls: string): [NamedArtifact, NamedArtifact] {
  const tp = a.typeProperties as { source?: { datasetSettings?: Settings }; sink?: { datasetSettings?: Settings } };
  const src = tp.source?.datasetSettings ?? {};
  const sink = tp.sink?.datasetSettings ?? {};
  const lsRef = { type: 'LinkedServiceReference', referenceName: ls };
  const srcLoc = (src.typeProperties?.location ?? {}) as { folderPath?: string; fileName?: string };
  const srcTable = src.typeProperties?.table as string | undefined;
  const input: NamedArtifact = {
    name: ownedName(pipeline, `c${i}_in`),
    properties: srcTable
      ? { type: 'Parquet', linkedServiceName: lsRef, typeProperties: { location: lakeLocation(ctx, folderOf(src, srcTable)) } }
      : {
          type: src.type ?? 'DelimitedText',
          linkedServiceName: lsRef,
          ...(Array.isArray(src.schema) ? { schema: src.schema } : {}),
          typeProperties: {
            ...src.typeProperties,
            location: { ...lakeLocation(ctx, folderOf(src, srcLoc.folderPath)), ...(srcLoc.fileName ? { fileName: srcLoc.fileName } : {}) },
          },
        },
  };
  const sinkTable = (sink.typeProperties?.table as string | undefined) ?? `copy_${i}`;
  const output: NamedArtifact = {
    name: ownedName(pipeline, `c${i}_out`),
    properties: {
      type: 'Parquet',
      linkedServiceName: lsRef,
      typeProperties: { location: lakeLocation(ctx, folderOf(sink, sinkTable)), compressionCodec: 'snappy' },
    },
  };
  return [input, output];
}

/** A data-platform activity as Synapse's: notebooks run on the Spark pool, pipelines invoked, copies over datasets. */
function translate(ctx: StepContext, a: Activity, datasets: [NamedArtifact, NamedArtifact] | undefined): Record<string, unknown> {
  const { typeProperties: tp, ...rest } = a as Activity & { typeProperties: Record<string, any> };
  const base = { ...rest, dependsOn: a.dependsOn ?? [] };
  if (a.type === 'TridentNotebook')
    return {
      ...base,
      type: 'SynapseNotebook',
      typeProperties: {
        notebook: { type: 'NotebookReference', referenceName: tp.notebookId },
        sparkPool: { type: 'BigDataPoolReference', referenceName: sparkPool(ctx) },
        ...(tp.parameters ? { parameters: tp.parameters } : {}),
      },
    };
  if (a.type === 'InvokePipeline') {
    const { policy: _policy, ...control } = base as typeof base & { policy?: unknown };
    return {
      ...control,
      type: 'ExecutePipeline',
      typeProperties: {
        pipeline: { type: 'PipelineReference', referenceName: tp.pipelineId },
        waitOnCompletion: tp.waitOnCompletion ?? true,
        ...(tp.parameters ? { parameters: tp.parameters } : {}),
      },
    };
  }
  if (a.type === 'Copy' && datasets) {
    const { datasetSettings: _s, storeSettings, ...source } = tp.source ?? {};
    return {
      ...base,
      inputs: [{ type: 'DatasetReference', referenceName: datasets[0].name }],
      outputs: [{ type: 'DatasetReference', referenceName: datasets[1].name }],
      typeProperties: {
        source: { ...source, ...(storeSettings ? { storeSettings: { ...storeSettings, type: 'AzureBlobFSReadSettings' } } : {}) },
        sink: { type: 'ParquetSink', storeSettings: { type: 'AzureBlobFSWriteSettings' } },
        ...(tp.translator ? { translator: tp.translator } : {}),
      },
    };
  }
  return a;
}

/** The Synapse name of a data pipeline of the step's app: its display name under the tenant's prefix. */
export const synapsePipelineName = (ctx: StepContext, displayName = ctx.item.displayName) => synapseName(ctx, displayName);

/** The pipeline with its lake linked service and copy datasets, as provisioning sends them. */
export function pipelineBundle(ctx: TypedProvisionContext<PipelineContent>, name = synapsePipelineName(ctx)): SynapseBundle {
  const c = ctx.content;
  const ls = lakeLinkedService(ctx, name);
  const datasets: NamedArtifact[] = [];
  let copy = 0;
  const activities = c.activities.map((a) => {
    if (a.type !== 'Copy') return translate(ctx, a, undefined);
    const pair = copyDatasets(ctx, a, name, copy++, ls.name);
    datasets.push(...pair);
    return translate(ctx, a, pair);
  });
  return {
    linkedServices: copy ? [ls] : [],
    datasets,
    pipeline: {
      name,
      properties: {
        ...(c.description || ctx.item.description ? { description: c.description ?? ctx.item.description } : {}),
        activities,
        ...(c.parameters ? { parameters: c.parameters } : {}),
        annotations: [],
      },
    },
  };
}

/**
 * data-pipeline → a Synapse pipeline (artifacts API): notebook activities run the app's Synapse notebooks on the Spark
 * pool, copies go into the lake through a linked service and datasets of the pipeline's own; each a long-running PUT.
 */
export const dataPipelineSynapse: LiveBackend<PipelineContent> = {
  backing: 'synapse',
  calls: (c) => bundleCalls(copies(c) ? 1 : 0, copies(c) * 2),
  async provision(ctx) {
    if (copies(ctx.content)) needLake(ctx);
    const bundle = pipelineBundle(ctx);
    // A binding left unresolved (what it names has no live id) would be sent as a name: refused before any call.
    const unresolved = /\$\{item:[^}]+\}/.exec(JSON.stringify(bundle.pipeline.properties));
    if (unresolved)
      throw new StepRefused('unresolved_binding', `${unresolved[0]} has no live id (its item was not provisioned): provision it first`);
    const created = await ensureBundle(ctx, bundle);
    const notebookId = ctx.content.notebook ? ctx.dependency(ctx.content.notebook)?.resourceId : undefined;
    return {
      status: created ? 'created' : 'exists',
      resourceId: bundle.pipeline.name,
      secondaryIds: { synapseWorkspace: ctx.target.warehouseWorkspace ?? '', ...(notebookId ? { notebookId } : {}) },
    };
  },
  desired: async (ctx) => bundleParts(pipelineBundle(ctx)),
  readLive: (ctx) => readBundle(ctx, pipelineBundle(ctx)),
  readCalls: (c) => bundleReadCalls(copies(c) ? 1 : 0, copies(c) * 2),
  remove: (ctx, resourceId) =>
    removeBundle(
      ctx,
      bundleNames(
        resourceId,
        copies(ctx.content) ? ['lake'] : [],
        Array.from({ length: copies(ctx.content) }, (_, i) => [`c${i}_in`, `c${i}_out`]).flat(),
      ),
    ),
  removeCalls: (c) => bundleRemoveCalls(copies(c) ? 1 : 0, copies(c) * 2),
};
