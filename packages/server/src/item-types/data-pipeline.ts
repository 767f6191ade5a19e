import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { validatePipeline } from '../catalog/validate-flows.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { ensurePlatformItem, platformItemCalls, platformPart, type PlatformKind } from '../provisioning/platform-item.js';
import { platformLifecycle } from '../provisioning/platform-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { dataPipelineSynapse } from './data-pipeline-synapse.js';

const Activity = Type.Object(
  {
    name: Name,
    type: Name,
    dependsOn: Type.Optional(Type.Array(Type.Unknown())),
    typeProperties: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: true },
);
/** Data pipeline content: the variant and its pipeline-content activities. */
export const PipelineContent = Type.Object({
  variant: Type.Union([Type.Literal('notebook'), Type.Literal('copy')]),
  notebook: Type.Optional(Key),
  lakehouse: Type.Optional(Key),
  description: Type.Optional(Type.String()),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  activities: Type.Array(Activity, { minItems: 1 }),
});
export type PipelineContent = Static<typeof PipelineContent>;

const PLATFORM: PlatformKind = { type: 'DataPipeline', collection: 'dataPipelines' };

/** The definition a pipeline's provisioning sends; activities already carry the live ids of what they use (bindings resolved by the runner). */
function definitionOf(ctx: TypedProvisionContext<PipelineContent>) {
  const c = ctx.content;
  const pipelineContent = {
    properties: {
      description: c.description ?? ctx.item.description,
      activities: c.activities,
      ...(c.parameters ? { parameters: c.parameters } : {}),
    },
  };
  return { parts: [part('pipeline-content.json', JSON.stringify(pipelineContent, null, 2)), platformPart(ctx, 'DataPipeline')] };
}

/** data-pipeline: POST /workspaces/{ws}/dataPipelines carrying its definition; notebook activities point at the app's live notebook. */
export const dataPipeline: LiveItemType<'data-pipeline', typeof PipelineContent> = {
  id: 'data-pipeline',
  displayName: 'Data pipeline',
  description: 'activities that run notebooks and copy data',
  icon: 'Flow',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  content: PipelineContent,
  validate: validatePipeline,
  validatesAfter: ['lakehouse'],
  edges: { from: ['runs', 'feeds', 'reads-from'], to: ['runs'] },
  // The notebooks, pipelines and lakehouses it runs are named by ${item:<key>.id} bindings: those are its dependencies.
  calls: () => platformItemCalls(PLATFORM, true),
  ...platformLifecycle(PLATFORM, definitionOf),
  async provision(ctx) {
    const ws = ctx.target.platformWorkspaceId ?? '';
    const notebookId = ctx.content.notebook ? ctx.dependency(ctx.content.notebook)?.resourceId : undefined;
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition: definitionOf(ctx) });
    return {
      status: created ? 'created' : 'exists',
      resourceId: item.id,
      secondaryIds: { platformWorkspaceId: ws, ...(notebookId ? { notebookId } : {}) },
    };
  },
  alternatives: [dataPipelineSynapse],
};
