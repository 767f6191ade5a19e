// The decoded parts of a data-platform item definition, checked where something is published about them: the
// eventstream topology schema (fabric/eventstream/definitions/topology.json), the part rules of
// reference/data-platform-api.md §4 (InlineBase64 payloads, JSON parts that parse, ReflexEntities.json an array) and
// DESIGN.md's mirrored-database row (mirroring.json names an existing connection id, never an unresolved token).
import { check, definition } from './schema.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A template token left unexpanded (`${connection.id}`): the real service takes it literally. */
const UNRESOLVED = /\$\{[A-Za-z_][\w.-]*\}/;

/**
 * Part schemas the descriptions publish, by part path. eventstream.json is the topology the service answers, less
 * what the service itself adds to it: node ids and runtime information (RuntimeInformation: status, error) are
 * required in the answer, not in a definition a client sends.
 */
const PART_SCHEMAS: Record<string, { file: string; name: string; serviceAdds?: RegExp }> = {
  'eventstream.json': {
    file: 'fabric/eventstream/definitions/topology.json',
    name: 'EventstreamTopologyResponse',
    serviceAdds: /\.(id|status|error): required$/,
  },
};

/** Rules for parts whose schema is not published, by part path. */
const PART_RULES: Record<string, (doc: unknown) => string[]> = {
  'ReflexEntities.json': (doc) =>
    Array.isArray(doc) ? [] : ['$: ReflexEntities.json is a JSON array of entities (reference/data-platform-api.md §4)'],
  'mirroring.json': (doc: any) => {
    const connection = doc?.properties?.source?.typeProperties?.connection;
    if (connection === undefined) return ['$.properties.source.typeProperties.connection: required (reference/data-platform-api.md §4)'];
    return typeof connection === 'string' && GUID.test(connection)
      ? []
      : [
          `$.properties.source.typeProperties.connection: ${JSON.stringify(connection)} is not a connection id (DESIGN.md: mirroring.json names an existing connection)`,
        ];
  },
};

/** Problems of one request body's `definition` (absent: none), each naming the part and the JSON path inside it. */
export function checkDefinition(body: unknown): string[] {
  const def = (body as any)?.definition;
  if (!def || typeof def !== 'object' || !Array.isArray(def.parts)) return [];
  const problems: string[] = [];
  for (const [i, part] of (def.parts as any[]).entries()) {
    const at = `definition.parts[${i}] ${typeof part?.path === 'string' ? part.path : '?'}`;
    if (part?.payloadType !== 'InlineBase64') {
      problems.push(`${at}: payloadType ${JSON.stringify(part?.payloadType)} is not InlineBase64`);
      continue;
    }
    if (typeof part.payload !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(part.payload) || part.payload.length % 4 !== 0) {
      problems.push(`${at}: payload is not base64`);
      continue;
    }
    const name = String(part.path).split('/').at(-1)!;
    const text = Buffer.from(part.payload, 'base64').toString('utf8');
    const jsonPart = name.endsWith('.json') || name === '.platform';
    if (!jsonPart) continue;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      problems.push(`${at}: not JSON (${(err as Error).message})`);
      continue;
    }
    const token = UNRESOLVED.exec(text);
    if (token) problems.push(`${at}: carries the unresolved token ${token[0]} (DESIGN.md: never send an unresolved token)`);
    const published = PART_SCHEMAS[name];
    if (published) {
      const { schema, file } = definition(published.file, published.name);
      const errors = check(doc, schema, file).filter((e) => !published.serviceAdds?.test(e));
      problems.push(...errors.map((e) => `${at} ${e} (${published.file})`));
    }
    problems.push(...(PART_RULES[name]?.(doc) ?? []).map((e) => `${at} ${e}`));
  }
  return problems;
}

/** How many parts of a body's definition were decoded and checked. */
export const definitionParts = (body: unknown): number => ((body as any)?.definition?.parts?.length as number | undefined) ?? 0;
