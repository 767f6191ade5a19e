import { createHash } from 'node:crypto';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;
interface RouteSchema {
  schema?: unknown;
}

const compiled = new Map<string, Serialize>();
const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url');

/**
 * Fastify's response serializer factory, keeping each compiled serializer for the life of the process, keyed by the
 * response schema and the shared schemas it may reference. Compiling the responses of every route takes about 1.5 s of
 * CPU; a process that builds the app more than once (the test suites build hundreds, the document generator and the
 * benchmarks several) compiles each schema once, and a serializer is compiled when its first answer is sent, not at start.
 */
export function cachedSerializerFactory() {
  const base = SerializerSelector();
  return (externalSchemas: unknown, options: unknown) => {
    const compile = base(externalSchemas as never, options as never) as unknown as (route: RouteSchema) => Serialize;
    const shared = digest({ externalSchemas, options });
    return (route: RouteSchema) => {
      const key = `${shared}:${digest(route.schema)}`;
      let fn = compiled.get(key);
      if (!fn) {
        let serialize: Serialize | undefined;
        fn = (data) => (serialize ??= compile(route))(data);
        compiled.set(key, fn);
      }
      return fn;
    };
  };
}
