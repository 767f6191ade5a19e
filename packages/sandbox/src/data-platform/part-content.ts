import path from 'node:path';
import type { SandboxCore } from '../core.js';
import type { ServiceError } from '../http/errors.js';
import { check } from '../conformance/schema.js';
import { specsAvailable, specsDir } from '../conformance/specs.js';
import type { Definition } from './definitions.js';
import { fabricError, invalidInput } from './errors.js';
import type { ItemTypeRule } from './item-types.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const decoded = (def: Definition, path: string): any => {
  const p = def.parts.find((x) => x.path === path);
  return p ? JSON.parse(Buffer.from(p.payload, 'base64').toString('utf8')) : undefined;
};

/** mirroring.json names its source's connection by the id of an existing connection (GET /v1/connections). */
function checkMirroring(core: SandboxCore, def: Definition): ServiceError | undefined {
  const mirroring = decoded(def, 'mirroring.json');
  const connection = mirroring?.properties?.source?.typeProperties?.connection;
  const field = 'mirroring.json: properties.source.typeProperties.connection';
  if (typeof connection !== 'string' || !connection) return invalidInput(field, 'is required');
  if (!GUID.test(connection)) return invalidInput(field, `'${connection}' is not a valid connection id (a GUID)`);
  if (!core.dataPlatform.connections.has(connection.toLowerCase()))
    return invalidInput(field, `the connection '${connection}' does not exist or the caller has no access to it`);
  return undefined;
}

/** The item types a destination of each type may name (its workspaceId and itemId). */
const DESTINATION_ITEMS: Record<string, string[]> = {
  Eventhouse: ['KQLDatabase', 'Eventhouse'],
  Lakehouse: ['Lakehouse'],
  Activator: ['Reflex'],
};

/**
 * eventstream.json has the published topology's shape (eventstream/definitions/topology.json: sources, destinations,
 * streams, operators, compatibilityLevel), checked when the descriptions are at hand; a destination names an item of
 * its kind by workspace and item id.
 */
function checkEventstream(core: SandboxCore, def: Definition): ServiceError | undefined {
  const topology = decoded(def, 'eventstream.json');
  if (specsAvailable()) {
    const file = path.join(specsDir(), 'fabric/eventstream/definitions/topology.json');
    // The topology is published as an answer: a node's runtime status is the service's to add, not the definition's.
    const errors = check(topology, { $ref: '#/definitions/EventstreamTopologyResponse' }, file, 'eventstream.json', [], {
      skipRequiredOf: ['RuntimeInformation'],
    });
    if (errors.length) {
      return fabricError(400, 'InvalidInput', 'The request has an invalid input', {
        moreDetails: errors.slice(0, 10).map((message) => ({ errorCode: 'InvalidDefinitionPart', message })),
      });
    }
  }
  for (const [i, d] of (Array.isArray(topology?.destinations) ? topology.destinations : []).entries()) {
    const kinds = DESTINATION_ITEMS[d?.type];
    if (!kinds) continue;
    const ws = core.dataPlatform.workspaces.get(String(d.properties?.workspaceId).toLowerCase());
    const item = ws?.items.get(String(d.properties?.itemId).toLowerCase());
    if (!item || !core.dataPlatform.visible(item) || !kinds.includes(item.type)) {
      return invalidInput(
        `eventstream.json: destinations[${i}].properties.itemId`,
        `'${d.properties?.itemId}' is not a ${kinds.join(' or ')} item of workspace '${d.properties?.workspaceId}'`,
      );
    }
  }
  return undefined;
}

/**
 * Checks what the decoded parts say, beyond their paths and JSON syntax (checkDefinitionContent): the rules the real
 * service applies to a type's content. Runs after checkDefinitionContent found the parts well-formed.
 */
export function checkPartContent(core: SandboxCore, def: Definition, rule: ItemTypeRule): ServiceError | undefined {
  switch (rule.type) {
    case 'MirroredDatabase':
      return checkMirroring(core, def);
    case 'Eventstream':
      return checkEventstream(core, def);
    default:
      return undefined;
  }
}
