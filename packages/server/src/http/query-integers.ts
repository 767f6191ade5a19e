import type { FastifyInstance, preValidationHookHandler } from 'fastify';

// A query string is text. The validator keeps coerceTypes off, so a JSON body's "5" is never taken for 5; integer
// query parameters are read here instead, for the routes that declare them, before validation.
const DECIMAL = /^-?[0-9]+$/;

/** The names of the integer properties of a route's querystring schema (an inline object, as TypeBox writes it). */
function integerQueryParameters(querystring: unknown): string[] {
  const properties = (querystring as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => s?.type === 'integer')
    .map(([name]) => name);
}

/**
 * Reads each integer query parameter given as decimal digits as a number; anything else (`abc`, `1.5`, a repeated
 * parameter) is left as it came, so the schema refuses it with 400 naming the parameter.
 */
export function registerQueryIntegers(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const names = integerQueryParameters(route.schema?.querystring);
    if (!names.length) return;
    const read: preValidationHookHandler = (req, _reply, done) => {
      const query = req.query as Record<string, unknown>;
      for (const name of names) {
        const value = query[name];
        if (typeof value === 'string' && DECIMAL.test(value)) query[name] = Number(value);
      }
      done();
    };
    route.preValidation = [read, ...[route.preValidation ?? []].flat()];
  });
}
