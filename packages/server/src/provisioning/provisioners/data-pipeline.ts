import { part } from '../../backends/data-platform.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart } from './platform-item.js';

/** data-pipeline: POST /workspaces/{ws}/dataPipelines, then update definition; notebook activities point at the app's live notebook. */
export const provisionDataPipeline: Provisioner = async (ctx) => {
  const ws = ctx.target.platformWorkspaceId ?? '';
  // Activities already carry the live ids of the notebooks, pipelines and lakehouses they use (bindings resolved by the runner).
  const activities = ctx.content.activities as Array<Record<string, any>>;
  const notebookId = ctx.content.notebook ? ctx.dependency(ctx.content.notebook)?.resourceId : undefined;
  const pipelineContent = { properties: { description: ctx.content.description ?? ctx.item.description, activities, ...(ctx.content.parameters ? { parameters: ctx.content.parameters } : {}) } };
  const definition = { parts: [part('pipeline-content.json', JSON.stringify(pipelineContent, null, 2)), platformPart(ctx, 'DataPipeline')] };
  const { item, created } = await ensurePlatformItem(ctx, { type: 'DataPipeline', collection: 'dataPipelines', definition });
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ws, ...(notebookId ? { notebookId } : {}) } };
};
