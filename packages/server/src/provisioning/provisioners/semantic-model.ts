import { part } from '../../backends/data-platform.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart } from './platform-item.js';

/** semantic-model: POST /workspaces/{ws}/semanticModels with a TMSL model.bim part (definition required at create). */
export const provisionSemanticModel: Provisioner = async (ctx) => {
  const bim = { name: ctx.item.displayName, ...ctx.content.model };
  const pbism = { version: '4.0', settings: {} };
  const definition = { format: 'TMSL', parts: [part('model.bim', JSON.stringify(bim, null, 2)), part('definition.pbism', JSON.stringify(pbism)), platformPart(ctx, 'SemanticModel')] };
  const { item, created } = await ensurePlatformItem(ctx, { type: 'SemanticModel', collection: 'semanticModels', definition, definitionAtCreate: true });
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId!, source: ctx.dependency(ctx.content.source)?.resourceId ?? '' } };
};
