import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { validateSemanticModel } from '../catalog/validate-model.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { ensurePlatformItem, platformItemCalls, platformPart, type PlatformKind } from '../provisioning/platform-item.js';
import { platformLifecycle } from '../provisioning/platform-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { semanticModelReporting } from './semantic-model-reporting.js';

const TmslColumn = Type.Object({ name: Name, dataType: Name, sourceColumn: Name }, { additionalProperties: true });
const TmslPartition = Type.Object(
  {
    name: Name,
    mode: Type.Optional(Type.String()),
    source: Type.Object(
      { type: Type.Literal('entity'), entityName: Name, schemaName: Type.Optional(Name), expressionSource: Type.Optional(Name) },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
const TmslTable = Type.Object(
  {
    name: Name,
    columns: Type.Array(TmslColumn, { minItems: 1 }),
    partitions: Type.Array(TmslPartition, { minItems: 1 }),
    measures: Type.Optional(Type.Array(Type.Object({ name: Name, expression: Name }, { additionalProperties: true }))),
  },
  { additionalProperties: true },
);
/** Semantic model content: the source lakehouse or warehouse and the model.bim document. */
export const SemanticModelContent = Type.Object({
  source: Key,
  model: Type.Object(
    {
      compatibilityLevel: Type.Literal(1604),
      model: Type.Object(
        {
          tables: Type.Array(TmslTable, { minItems: 1 }),
          expressions: Type.Optional(
            Type.Array(
              Type.Object(
                { name: Name, kind: Type.Literal('m'), expression: Type.Union([Name, Type.Array(Type.String())]) },
                { additionalProperties: true },
              ),
            ),
          ),
          relationships: Type.Optional(
            Type.Array(
              Type.Object({ name: Name, fromTable: Name, fromColumn: Name, toTable: Name, toColumn: Name }, { additionalProperties: true }),
            ),
          ),
        },
        { additionalProperties: true },
      ),
    },
    { additionalProperties: true },
  ),
});
export type SemanticModelContent = Static<typeof SemanticModelContent>;

const PLATFORM: PlatformKind = { type: 'SemanticModel', collection: 'semanticModels', readFormat: 'TMSL' };

/** The definition a semantic model's provisioning sends: model.bim, definition.pbism and the .platform part. */
function definitionOf(ctx: TypedProvisionContext<SemanticModelContent>) {
  const bim = { name: ctx.item.displayName, ...ctx.content.model };
  const pbism = { version: '4.0', settings: {} };
  return {
    format: 'TMSL',
    parts: [
      part('model.bim', JSON.stringify(bim, null, 2)),
      part('definition.pbism', JSON.stringify(pbism)),
      platformPart(ctx, 'SemanticModel'),
    ],
  };
}

/** semantic-model: POST /workspaces/{ws}/semanticModels with a TMSL model.bim part (definition required at create). */
export const semanticModel: LiveItemType<'semantic-model', typeof SemanticModelContent> = {
  id: 'semantic-model',
  displayName: 'Semantic model',
  description: 'a TMSL model over lakehouse or warehouse tables',
  icon: 'DataTrending',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  content: SemanticModelContent,
  validate: validateSemanticModel,
  validatesAfter: ['lakehouse', 'warehouse'],
  edges: { from: ['reads-from'], to: ['reads-from', 'visualizes'] },
  dependsOn: (c) => [c.source],
  calls: () => platformItemCalls(PLATFORM, true),
  ...platformLifecycle(PLATFORM, definitionOf),
  alternatives: [semanticModelReporting],
  async provision(ctx) {
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition: definitionOf(ctx) });
    return {
      status: created ? 'created' : 'exists',
      resourceId: item.id,
      secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId!, source: ctx.dependency(ctx.content.source)?.resourceId ?? '' },
    };
  },
};
