import type { SandboxCore } from '../core.js';
import type { Reply } from '../http/context.js';
import type { Caller } from '../identity/caller.js';
import type { ServiceError } from '../http/errors.js';
import { checkDefinitionContent, checkDefinitionShape, platformMetadata, type Definition } from './definitions.js';
import { fabricError, invalidInput } from './errors.js';
import { checkPartContent } from './part-content.js';
import { canonicalType, creatable, ruleFor, type ItemTypeRule } from './item-types.js';
import { itemJson } from './item-json.js';
import { accepted } from './operations.js';
import type { Item, Workspace } from './store.js';

const ITEM_LIMIT = 1000;
const FORBIDDEN_NAME_CHARS = /[\\/:*?"<>|#%\u0000-\u001f]/;

/** Validates displayName and description (shared by create and PATCH). */
export function checkNames(rule: ItemTypeRule, body: { displayName?: unknown; description?: unknown }, required: boolean): void {
  if (body.displayName !== undefined || required) {
    if (typeof body.displayName !== 'string' || !body.displayName.trim()) throw invalidInput('displayName', 'The display name is required');
    if (body.displayName.length > 256) throw invalidInput('displayName', 'The display name must be at most 256 characters');
    if (FORBIDDEN_NAME_CHARS.test(body.displayName))
      throw invalidInput('displayName', 'The display name contains characters that are not allowed');
    if (rule.name && !rule.name.re.test(body.displayName)) throw invalidInput('displayName', `A ${rule.type} name ${rule.name.says}`);
  }
  if (body.description !== undefined && body.description !== null) {
    if (typeof body.description !== 'string') throw invalidInput('description', 'must be a string');
    if (body.description.length > 256) throw invalidInput('description', 'The description must be at most 256 characters');
  }
}

function checkCreationPayload(core: SandboxCore, ws: Workspace, rule: ItemTypeRule, payload: Record<string, any>): void {
  if (typeof payload !== 'object' || Array.isArray(payload)) throw invalidInput('creationPayload', 'must be an object');
  switch (rule.type) {
    case 'Lakehouse':
      if (payload.enableSchemas !== true) throw invalidInput('creationPayload.enableSchemas', 'Only the value true is supported');
      return;
    case 'Eventhouse':
      if (
        payload.minimumConsumptionUnits !== undefined &&
        !(typeof payload.minimumConsumptionUnits === 'number' && payload.minimumConsumptionUnits >= 0)
      ) {
        throw invalidInput('creationPayload.minimumConsumptionUnits', 'must be a non-negative number');
      }
      return;
    case 'Warehouse':
      if (
        payload.collationType !== undefined &&
        !['Latin1_General_100_BIN2_UTF8', 'Latin1_General_100_CI_AS_KS_WS_SC_UTF8'].includes(payload.collationType)
      ) {
        throw invalidInput(
          'creationPayload.collationType',
          'must be Latin1_General_100_BIN2_UTF8 or Latin1_General_100_CI_AS_KS_WS_SC_UTF8',
        );
      }
      return;
    case 'KQLDatabase': {
      if (!['ReadWrite', 'Shortcut'].includes(payload.databaseType))
        throw invalidInput('creationPayload.databaseType', 'must be ReadWrite or Shortcut');
      const parent =
        typeof payload.parentEventhouseItemId === 'string' ? ws.items.get(payload.parentEventhouseItemId.toLowerCase()) : undefined;
      if (!parent || !core.dataPlatform.visible(parent) || parent.type !== 'Eventhouse') {
        throw invalidInput('creationPayload.parentEventhouseItemId', 'must name an existing Eventhouse of the workspace');
      }
      if (payload.databaseType === 'Shortcut' && !payload.sourceClusterUri && !payload.invitationToken) {
        throw invalidInput(
          'creationPayload.sourceClusterUri',
          'A Shortcut database needs sourceClusterUri and sourceDatabaseName, or invitationToken',
        );
      }
      return;
    }
  }
}

/** Whether this create answers 202 (switch dataPlatform.asyncMode; MirroredDatabase is 201 only). */
function goesAsync(core: SandboxCore, rule: ItemTypeRule, hasDefinition: boolean): boolean {
  if (rule.type === 'MirroredDatabase') return false;
  const mode = core.switches['dataPlatform.asyncMode'];
  return mode === 'always' || (mode === 'auto' && (Boolean(rule.asyncByDefault) || hasDefinition));
}

/** POST …/items or …/{collection}: validates, enforces unique names, answers 201 or 202 with an operation. */
export function createItem(core: SandboxCore, caller: Caller, ws: Workspace, body: Record<string, any>, typedAs?: string): Reply {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw fabricError(400, 'InvalidRequest', 'The request body must be a JSON object');
  let type = typedAs;
  if (!type) {
    if (typeof body.type !== 'string' || !body.type) throw invalidInput('type', 'The item type is required');
    type = canonicalType(body.type);
    if (!type) throw fabricError(400, 'InvalidItemType', `The item type '${body.type}' is invalid`);
  }
  if (!creatable(type)) throw fabricError(400, 'InvalidItemType', `Items of type ${type} cannot be created with the public API`);
  const rule = ruleFor(type);
  checkNames(rule, body, true);
  if (body.folderId !== undefined && body.folderId !== null)
    throw fabricError(400, 'FolderNotFound', `The folder '${body.folderId}' was not found`);
  const hasDefinition = body.definition !== undefined && body.definition !== null;
  const hasPayload = body.creationPayload !== undefined && body.creationPayload !== null;
  if (hasDefinition && hasPayload)
    throw fabricError(
      400,
      'RequestWithDefinitionAndCreationPayloadNotSupported',
      'A request cannot carry both a definition and a creationPayload',
    );
  if (hasDefinition && rule.definitionAtCreate === 'unsupported')
    throw fabricError(400, 'OperationNotSupportedForItem', `Creating an item of type ${type} with a definition is not supported`);
  if (!hasDefinition && rule.definitionAtCreate === 'required')
    throw invalidInput('definition', `A definition is required to create an item of type ${type}`);
  if (hasPayload && rule.creationPayload === 'none')
    throw fabricError(400, 'ItemTypeDoesNotSupportCreationPayload', `Item type ${type} does not support a creationPayload`);
  if (!hasPayload && !hasDefinition && rule.creationPayload === 'required')
    throw invalidInput('creationPayload', `A creationPayload is required to create an item of type ${type}`);
  if (hasPayload) checkCreationPayload(core, ws, rule, body.creationPayload);
  let definition: Definition | undefined;
  if (hasDefinition) definition = checkDefinitionShape(body.definition, rule);
  if (ws.items.size >= ITEM_LIMIT)
    throw fabricError(400, 'WorkspaceItemsLimitExceeded', `The workspace has reached its limit of ${ITEM_LIMIT} items`);
  const conflict = core.dataPlatform.nameConflict(ws, type, body.displayName);
  if (conflict) throw conflict;

  const contentError: ServiceError | undefined = definition
    ? (checkDefinitionContent(definition, rule) ?? checkPartContent(core, definition, rule))
    : undefined;
  const async = goesAsync(core, rule, hasDefinition);
  if (contentError && !async) throw contentError;
  if (contentError) return accepted(core, core.dataPlatform.startOperation(caller.objectId, { error: contentError }));

  const now = Date.now();
  const id = core.idSource.next('item');
  const item: Item = {
    id,
    workspaceId: ws.id,
    type,
    displayName: body.displayName,
    description: body.description ?? '',
    definition,
    logicalId: (definition && platformMetadata(definition).logicalId) || core.idSource.next('logical'),
    creationPayload: body.creationPayload ?? undefined,
    createdAt: now,
    readyAt: now,
    lagUntil: now + core.switches['dataPlatform.postCreateLagMs'],
    ...(type === 'Lakehouse' ? { sqlEndpointId: core.idSource.next('sql-endpoint') } : {}),
  };
  ws.items.set(id, item);
  if (!async) {
    const location =
      rule.locationOnCreate && typedAs
        ? { location: `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/${rule.collection}/${id}` }
        : undefined;
    return { status: 201, ...(location ? { headers: location } : {}), body: itemJson(item) };
  }
  const op = core.dataPlatform.startOperation(caller.objectId, { result: () => itemJson(item) });
  item.readyAt = op.readyAt;
  item.createdAt = op.readyAt;
  item.lagUntil = op.readyAt + core.switches['dataPlatform.postCreateLagMs'];
  return accepted(core, op);
}
