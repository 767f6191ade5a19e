import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Compile = (route: unknown) => Validate;

/**
 * Fastify's request validator factory (its own Ajv compiler, the same options), compiling a route's schema when its
 * first request arrives rather than at start: compiling every route's params, query and body schemas is a fifth of the
 * CPU a start takes. Fastify reads a failed validation's `errors` from the function it was given, so they are copied.
 */
export function lazyValidatorFactory(): BuildCompilerFromPool {
  const base = AjvCompiler();
  const factory = (externalSchemas: never, options: never): Compile => {
    const compile = base(externalSchemas, options) as unknown as Compile;
    return (route) => {
      let validate: Validate | undefined;
      const lazy: Validate = (data) => {
        validate ??= compile(route);
        const result = validate(data);
        lazy.errors = validate.errors;
        return result;
      };
      return lazy;
    };
  };
  // The package's types name Ajv's own compile (a schema in); Fastify calls it with the route's definition.
  return factory as unknown as BuildCompilerFromPool;
}
