import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import type { Router } from '../http/router.js';
import { platformCaller, requireRole, workspaceOf } from './auth.js';
import { checkNames } from './create-item.js';
import {
  checkDefinitionContent,
  checkDefinitionShape,
  platformMetadata,
  platformPart,
  tmdlToTmsl,
  tmslToTmdl,
  type Definition,
  type DefinitionPart,
} from './definitions.js';
import { fabricError, invalidInput, invalidJson } from './errors.js';
import { ruleFor } from './item-types.js';
import { checkPartContent } from './part-content.js';
import { itemOf, typeOfCollection } from './items-routes.js';
import { accepted } from './operations.js';
import type { Item } from './store.js';

const json = (path: string, value: unknown): DefinitionPart => ({
  path,
  payload: Buffer.from(JSON.stringify(value, null, 2)).toString('base64'),
  payloadType: 'InlineBase64',
});

/** What an item created without a definition returns from getDefinition. */
function defaultParts(item: Item): DefinitionPart[] {
  switch (item.type) {
    case 'Notebook':
      return [
        {
          path: 'notebook-content.py',
          payload: Buffer.from(
            '# Fabric notebook source\n\n# METADATA ********************\n\n# META {\n# META   "kernel_info": {"name": "synapse_pyspark"}\n# META }\n',
          ).toString('base64'),
          payloadType: 'InlineBase64',
        },
      ];
    case 'Lakehouse':
      return [
        json('lakehouse.metadata.json', item.creationPayload?.enableSchemas ? { defaultSchema: 'dbo' } : {}),
        json('shortcuts.metadata.json', []),
      ];
    case 'Reflex':
      return [json('ReflexEntities.json', [])];
    case 'DataPipeline':
      return [json('pipeline-content.json', { properties: { activities: [] } })];
    case 'Eventstream':
      return [
        json('eventstream.json', { sources: [], destinations: [], streams: [], operators: [], compatibilityLevel: '1.0' }),
        json('eventstreamProperties.json', { retentionTimeInDays: 1, eventThroughputLevel: 'Low' }),
      ];
    case 'Eventhouse':
      return [json('EventhouseProperties.json', {})];
    case 'KQLDatabase':
      return [
        json('DatabaseProperties.json', {
          databaseType: item.creationPayload?.databaseType ?? 'ReadWrite',
          parentEventhouseItemId: item.creationPayload?.parentEventhouseItemId,
          oneLakeCachingPeriod: 'P36500D',
          oneLakeStandardStoragePeriod: 'P36500D',
        }),
      ];
    case 'KQLDashboard':
      return [json('RealTimeDashboard.json', { schema_version: '52', tiles: [], dataSources: [] })];
    case 'KQLQueryset':
      return [json('RealTimeQueryset.json', { queryset: { version: '1.0.0', dataSources: [], tabs: [] } })];
    default:
      return [];
  }
}

/** The definition as getDefinition returns it: stored parts (semantic models in TMDL unless ?format=TMSL) and `.platform`. */
function definitionOf(item: Item, format: string | undefined): Definition {
  let parts = (item.definition?.parts ?? defaultParts(item)).filter((p) => p.path !== '.platform');
  let outFormat = item.definition?.format;
  if (item.type === 'SemanticModel') {
    const wantTmsl = format?.toUpperCase() === 'TMSL';
    const isTmsl = parts.some((p) => p.path === 'model.bim');
    if (!wantTmsl && isTmsl) parts = tmslToTmdl(parts);
    if (wantTmsl && !isTmsl) parts = tmdlToTmsl(parts);
    outFormat = wantTmsl ? 'TMSL' : 'TMDL';
  }
  return { ...(outFormat ? { format: outFormat } : {}), parts: [...parts, platformPart(item, item.logicalId)] };
}

async function open(core: SandboxCore, ctx: RequestContext) {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, 'Contributor');
  const item = itemOf(core, ws, ctx.params.id!, typeOfCollection(ctx.params.collection));
  const rule = ruleFor(item.type);
  if (rule.definitionAtCreate === 'unsupported')
    throw fabricError(400, 'OperationNotSupportedForItem', `The operation is not supported for items of type ${item.type}`);
  return { caller, ws, item, rule };
}

async function getDefinition(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const { caller, item } = await open(core, ctx);
  const format = ctx.query('format');
  if (format && item.type === 'SemanticModel' && !['TMSL', 'TMDL'].includes(format.toUpperCase())) {
    throw fabricError(400, 'InvalidDefinitionFormat', `The definition format '${format}' is not supported for item type SemanticModel`);
  }
  const definition = definitionOf(item, format);
  if (core.switches['dataPlatform.asyncMode'] !== 'always') return { status: 200, body: { definition } };
  return accepted(core, core.dataPlatform.startOperation(caller.objectId, { result: () => ({ definition }) }));
}

async function updateDefinition(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const { caller, ws, item, rule } = await open(core, ctx);
  const body = await ctx.json(invalidJson);
  if (!body?.definition) throw invalidInput('definition', 'The definition is required');
  const def = checkDefinitionShape(body.definition, rule);
  const contentError = checkDefinitionContent(def, rule) ?? checkPartContent(core, def, rule);
  let meta: { displayName?: string; description?: string } = {};
  if (ctx.query('updateMetadata') === 'true' && item.type !== 'MirroredDatabase' && !contentError) {
    meta = platformMetadata(def);
    checkNames(rule, meta, false);
    if (meta.displayName && meta.displayName !== item.displayName) {
      const conflict = core.dataPlatform.nameConflict(ws, item.type, meta.displayName, item.id);
      if (conflict) throw conflict;
    }
  }
  const apply = () => {
    item.definition = def;
    const logicalId = platformMetadata(def).logicalId;
    if (logicalId) item.logicalId = logicalId;
    if (meta.displayName) item.displayName = meta.displayName;
    if (meta.description !== undefined) item.description = meta.description;
  };
  if (core.switches['dataPlatform.asyncMode'] !== 'always') {
    if (contentError) throw contentError;
    apply();
    return { status: 200 };
  }
  return accepted(core, core.dataPlatform.startOperation(caller.objectId, contentError ? { error: contentError } : { apply }));
}

/** getDefinition / updateDefinition on /items/{id} and every typed collection. */
export function definitionRoutes(core: SandboxCore, router: Router): void {
  for (const coll of ['items', ':collection']) {
    router.post(`/v1/workspaces/:ws/${coll}/:id/getDefinition`, (ctx) => getDefinition(core, ctx));
    router.post(`/v1/workspaces/:ws/${coll}/:id/updateDefinition`, (ctx) => updateDefinition(core, ctx));
  }
}
