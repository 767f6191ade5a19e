// A Synapse pipeline with what it owns: its linked services and datasets, created before it and deleted after it. The
// data pipeline and the mirrored database (a copy pipeline into the lake) are each one such bundle.
import { BackingError } from '../backends/http-pipeline.js';
import type { PlannedCall } from '../item-types/calls.js';
import type { LiveParts, LiveState, RemoveOutcome } from '../item-types/descriptor.js';
import { StepRefused, type StepContext } from './context.js';
import { nativePrefix } from './native-scope.js';
import {
  canonical,
  ensureArtifact,
  ensureCalls,
  onSynapse,
  readCall,
  removeArtifact,
  removeCalls,
  synapseWorkspace,
} from './synapse-artifact.js';

export interface NamedArtifact {
  name: string;
  properties: Record<string, unknown>;
}

/** A pipeline and the linked services and datasets only it uses (named after it, so its removal finds them). */
export interface SynapseBundle {
  linkedServices: NamedArtifact[];
  datasets: NamedArtifact[];
  pipeline: NamedArtifact;
}

/** A name for what a pipeline owns: the pipeline's name with what linked service and dataset names refuse turned into `_`. */
export const ownedName = (pipeline: string, suffix: string) => `${pipeline.replace(/[^A-Za-z0-9_]/g, '_')}_${suffix}`;

/** The lake linked service of a pipeline: Data Lake Storage Gen2 (AzureBlobFS), the workspace's managed identity. */
export function lakeLinkedService(ctx: StepContext, pipeline: string): NamedArtifact {
  const account = ctx.target.lakeAccount ?? '';
  const url = ctx.profile.lakeDfsUrl
    ? `${ctx.profile.lakeDfsUrl.replace(/\/+$/, '')}/${account}`
    : `https://${account}.dfs${ctx.profile.storageSuffix}`;
  return {
    name: ownedName(pipeline, 'lake'),
    properties: { type: 'AzureBlobFS', description: `the lake account ${account}`, typeProperties: { url } },
  };
}

/** A folder of the lake under the tenant's prefix folder (`w<12 hex>/…`) of the target's container. */
export function lakeLocation(ctx: StepContext, folder: string) {
  return { type: 'AzureBlobFSLocation', fileSystem: ctx.target.lakeContainer ?? '', folderPath: `${nativePrefix(ctx)}/${folder}` };
}

/** Refuses, before any call, a bundle that copies into the lake when the target has no lake account. */
export function needLake(ctx: StepContext): void {
  if (!ctx.target.lakeAccount || !ctx.target.lakeContainer)
    throw new StepRefused(
      'lake_not_configured',
      'the copy activities write to the lake: set SVC_LAKE_ACCOUNT and SVC_LAKE_CONTAINER (a Data Lake Storage Gen2 account and its container)',
    );
}

/** What removal needs of a bundle: the names alone (no target setting is read, so an uninstall never meets a gate for one). */
export function bundleNames(pipeline: string, linkedServices: string[], datasets: string[]): SynapseBundle {
  const named = (suffix: string) => ({ name: ownedName(pipeline, suffix), properties: {} });
  return { pipeline: { name: pipeline, properties: {} }, linkedServices: linkedServices.map(named), datasets: datasets.map(named) };
}

/** How often a bundle is made again when a part it names went while it was being made. */
const BUNDLE_ATTEMPTS = 3;

/** The bundle's own artifact that a refused write names as missing (another removal of it ran meanwhile), if any. */
function missingPart(err: unknown, b: SynapseBundle): string | undefined {
  if (!(err instanceof BackingError) || err.status !== 400) return undefined;
  const ref = /failed because of invalid reference '([^']+)'/.exec(err.body)?.[1];
  const own = [...b.linkedServices, ...b.datasets].map((a) => a.name.toLowerCase());
  return ref && own.includes(ref.toLowerCase()) ? ref : undefined;
}

/**
 * Creates or updates the linked services, the datasets, then the pipeline; answers whether the pipeline was new. Another
 * install of the app into the same tenant prefix may be removing the same bundle at that moment: a part it deleted
 * between this one's write of it and the write that names it is made again, and the bundle is ensured once more.
 */
export async function ensureBundle(ctx: StepContext, b: SynapseBundle): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      for (const ls of b.linkedServices) await ensureArtifact(ctx, 'linkedservices', ls.name, ls.properties);
      for (const ds of b.datasets) await ensureArtifact(ctx, 'datasets', ds.name, ds.properties);
      return (await ensureArtifact(ctx, 'pipelines', b.pipeline.name, b.pipeline.properties)).created;
    } catch (err) {
      const missing = missingPart(err, b);
      if (!missing || attempt >= BUNDLE_ATTEMPTS) throw err;
      ctx.log(`'${missing}' went while the bundle was being made (another removal of it): making the bundle again`);
    }
  }
}

/** The calls of ensureBundle for a bundle of this many linked services and datasets. */
export function bundleCalls(linkedServices: number, datasets: number): PlannedCall[] {
  return [
    ...(linkedServices ? ensureCalls('linkedservices', linkedServices) : []),
    ...(datasets ? ensureCalls('datasets', datasets) : []),
    ...ensureCalls('pipelines'),
  ];
}

/**
 * Deletes the pipeline, then its datasets and linked services; removed is the pipeline's. A part something else still
 * names is kept, and keptFor says which and why.
 */
export async function removeBundle(ctx: StepContext, b: SynapseBundle): Promise<RemoveOutcome> {
  const outcome = await removeArtifact(ctx, 'pipelines', b.pipeline.name);
  if (outcome.keptFor) return outcome;
  const kept: string[] = [];
  for (const [kind, list] of [
    ['datasets', b.datasets],
    ['linkedservices', b.linkedServices],
  ] as const)
    for (const a of list) {
      const part = await removeArtifact(ctx, kind, a.name);
      if (part.keptFor) kept.push(`${kind} '${a.name}' (${part.keptFor})`);
    }
  return kept.length ? { ...outcome, keptFor: kept.join('; ') } : outcome;
}

/** The calls of removeBundle. */
export const bundleRemoveCalls = (linkedServices: number, datasets: number): PlannedCall[] => [
  ...removeCalls('pipelines'),
  ...(datasets ? removeCalls('datasets', datasets) : []),
  ...(linkedServices ? removeCalls('linkedservices', linkedServices) : []),
];

/** What plan and drift compare: the pipeline's properties and each dataset's and linked service's, by name. */
export function bundleParts(b: SynapseBundle): LiveParts {
  return Object.fromEntries([
    ['pipeline', canonical(b.pipeline.properties)],
    ...b.datasets.map((d) => [`dataset ${d.name}`, canonical(d.properties)]),
    ...b.linkedServices.map((l) => [`linked service ${l.name}`, canonical(l.properties)]),
  ]);
}

/** The bundle as the workspace holds it now (undefined when the pipeline is not there); what is missing reads as empty. */
export async function readBundle(ctx: StepContext, b: SynapseBundle): Promise<LiveState | undefined> {
  const ws = synapseWorkspace(ctx);
  const synapse = ctx.backends.synapse;
  return onSynapse(ctx, async () => {
    const pipeline = await synapse.get(ws, 'pipelines', b.pipeline.name);
    if (!pipeline) return undefined;
    const read = async (kind: 'datasets' | 'linkedservices', list: NamedArtifact[]) =>
      Promise.all(list.map(async (a) => ({ name: a.name, properties: (await synapse.get(ws, kind, a.name))?.properties ?? {} })));
    const live: SynapseBundle = {
      pipeline: { name: pipeline.name, properties: pipeline.properties },
      datasets: await read('datasets', b.datasets),
      linkedServices: await read('linkedservices', b.linkedServices),
    };
    return { resourceId: b.pipeline.name, secondaryIds: { synapseWorkspace: ws }, parts: bundleParts(live) };
  });
}

/** The reads of readBundle. */
export const bundleReadCalls = (linkedServices: number, datasets: number): PlannedCall[] => [
  readCall('pipelines'),
  ...(datasets ? [{ ...readCall('datasets', datasets), when: 'existing' as const }] : []),
  ...(linkedServices ? [{ ...readCall('linkedservices', linkedServices), when: 'existing' as const }] : []),
];
