import type { SandboxCore } from '../core.js';
import type { ServiceError } from '../http/errors.js';
import type { Definition } from './definitions.js';
import { invalidInput } from './errors.js';
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
  if (!core.dataPlatform.connections.has(connection.toLowerCase())) return invalidInput(field, `the connection '${connection}' does not exist or the caller has no access to it`);
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
    default:
      return undefined;
  }
}
