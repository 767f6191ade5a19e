// What the development endpoint refuses in an artifact PUT before it starts the operation: a name the service does not
// take, a body its published description does not allow, and a reference to something the workspace does not have.
import path from 'node:path';
import { check } from '../conformance/schema.js';
import { specsAvailable, specsDir } from '../conformance/specs.js';
import { ServiceError } from '../http/errors.js';
import type { ArtifactKind, SynapseStore } from './store.js';

const DIR = 'synapse-artifacts/data-plane/Microsoft.Synapse/stable/2020-12-01';

/** Per collection: its description file and resource definition, the singular the messages use, and the name rule. */
export const KINDS: Record<
  ArtifactKind,
  { file: string; definition: string; singular: string; type: string; name: RegExp; max: number; rule: string }
> = {
  notebooks: {
    file: 'notebooks.json',
    definition: 'NotebookResource',
    singular: 'notebook',
    type: 'Microsoft.Synapse/workspaces/notebooks',
    name: /^[A-Za-z0-9_][A-Za-z0-9_\- ]*$/,
    max: 140,
    rule: 'letters, digits, underscores, hyphens and spaces',
  },
  pipelines: {
    file: 'pipelines.json',
    definition: 'PipelineResource',
    singular: 'pipeline',
    type: 'Microsoft.Synapse/workspaces/pipelines',
    name: /^[A-Za-z0-9_][A-Za-z0-9_\- ]*$/,
    max: 140,
    rule: 'letters, digits, underscores, hyphens and spaces',
  },
  linkedservices: {
    file: 'linkedServices.json',
    definition: 'LinkedServiceResource',
    singular: 'linked service',
    type: 'Microsoft.Synapse/workspaces/linkedservices',
    name: /^[A-Za-z][A-Za-z0-9_]*$/,
    max: 260,
    rule: 'a letter followed by letters, digits and underscores',
  },
  datasets: {
    file: 'datasets.json',
    definition: 'DatasetResource',
    singular: 'dataset',
    type: 'Microsoft.Synapse/workspaces/datasets',
    name: /^[A-Za-z][A-Za-z0-9_]*$/,
    max: 260,
    rule: 'a letter followed by letters, digits and underscores',
  },
};

const badRequest = (message: string, target?: string) => new ServiceError(400, 'BadRequest', message, target ? { target } : {});

/** 400 for a name the service does not take for this collection. */
export function checkName(kind: ArtifactKind, name: string): void {
  const k = KINDS[kind];
  if (!name || name.length > k.max || !k.name.test(name))
    throw badRequest(
      `The ${k.singular} name '${name}' is invalid: a ${k.singular} name has at most ${k.max} characters, ${k.rule}.`,
      'name',
    );
}

/** 400 for a body the published description does not allow (a required property missing, a wrong type). */
export function checkBody(kind: ArtifactKind, body: unknown): void {
  if (!specsAvailable()) return;
  const k = KINDS[kind];
  const errors = check(body, { $ref: `#/definitions/${k.definition}` }, path.join(specsDir(), DIR, k.file), 'body');
  if (errors.length) throw badRequest(`The ${k.singular} definition is invalid: ${errors.slice(0, 3).join('; ')}`);
}

const refName = (r: unknown): string | undefined =>
  r && typeof r === 'object' && typeof (r as { referenceName?: unknown }).referenceName === 'string'
    ? (r as { referenceName: string }).referenceName
    : undefined;

/** One reference an artifact makes: to what, and where in its body. */
interface Reference {
  kind: ArtifactKind;
  name: string;
  where: string;
}

/** The artifacts an artifact's properties name (a dataset's linked service; a pipeline's notebooks, pipelines, datasets, linked services). */
function referencesOf(kind: ArtifactKind, props: Record<string, any>): Reference[] {
  const out: Reference[] = [];
  const add = (what: ArtifactKind, ref: string | undefined, where: string) => {
    if (ref !== undefined) out.push({ kind: what, name: ref, where });
  };
  if (kind === 'datasets') add('linkedservices', refName(props.linkedServiceName), 'properties.linkedServiceName');
  if (kind !== 'pipelines') return out;
  const walk = (activities: unknown, at: string) => {
    if (!Array.isArray(activities)) return;
    for (const [i, a] of (activities as any[]).entries()) {
      const where = `${at}[${i}]`;
      add('linkedservices', refName(a?.linkedServiceName), `${where}.linkedServiceName`);
      const tp = a?.typeProperties ?? {};
      if (a?.type === 'SynapseNotebook') add('notebooks', refName(tp.notebook), `${where}.typeProperties.notebook`);
      if (a?.type === 'ExecutePipeline') add('pipelines', refName(tp.pipeline), `${where}.typeProperties.pipeline`);
      if (a?.type === 'Copy')
        for (const side of ['inputs', 'outputs'] as const)
          for (const [j, d] of (Array.isArray(a[side]) ? (a[side] as unknown[]) : []).entries())
            add('datasets', refName(d), `${where}.${side}[${j}]`);
      for (const nested of ['activities', 'ifTrueActivities', 'ifFalseActivities', 'defaultActivities'])
        walk(tp[nested], `${where}.typeProperties.${nested}`);
    }
  };
  walk(props.activities, 'properties.activities');
  return out;
}

/** 400 for a reference to a Spark pool, notebook, pipeline, linked service or dataset the workspace does not have. */
export function checkReferences(store: SynapseStore, kind: ArtifactKind, name: string, props: Record<string, any>): void {
  if (kind === 'notebooks') {
    const pool = refName(props.bigDataPool);
    if (props.bigDataPool && (!pool || ![...store.sparkPools].some((p) => p.toLowerCase() === pool.toLowerCase())))
      throw badRequest(`The Spark pool '${pool ?? ''}' does not exist in workspace '${store.workspace}'.`, 'properties.bigDataPool');
  }
  for (const r of referencesOf(kind, props)) {
    if (r.kind === 'pipelines' && kind === 'pipelines' && r.name.toLowerCase() === name.toLowerCase()) continue;
    if (!store.get(r.kind, r.name))
      throw badRequest(
        `The document creation or update failed because of invalid reference '${r.name}' (${r.where}): no ${KINDS[r.kind].singular} of that name.`,
        r.where,
      );
  }
}

/** 400 for the delete of an artifact another one still names (a dataset its pipeline copies with, a notebook a pipeline runs). */
export function checkNotReferenced(store: SynapseStore, kind: ArtifactKind, name: string): void {
  store.settle();
  for (const holder of ['pipelines', 'datasets'] as const)
    for (const a of store.artifacts[holder].values()) {
      if (holder === kind && a.name.toLowerCase() === name.toLowerCase()) continue;
      if (referencesOf(holder, a.properties).some((r) => r.kind === kind && r.name.toLowerCase() === name.toLowerCase()))
        throw badRequest(`The document cannot be deleted since it is referenced by ${KINDS[holder].singular} '${a.name}'.`);
    }
}
