import type { FastifyInstance } from 'fastify';
import { InputError } from '../errors.js';

/**
 * Where a parsed JSON value holds a key that would set an object's prototype if the value were ever merged into
 * another object (`__proto__`, or `prototype` under `constructor`), as a dotted path; undefined when it holds none.
 */
export function prototypeKey(value: unknown): string | undefined {
  const stack: Array<{ v: unknown; path: string[] }> = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    for (const [k, child] of Object.entries(v)) {
      if (k === '__proto__' || (k === 'prototype' && path.at(-1) === 'constructor')) return [...path, k].join('.');
      stack.push({ v: child, path: [...path, k] });
    }
  }
  return undefined;
}

/**
 * JSON bodies: Fastify's own parser (empty and malformed bodies answer as before), but a key that could poison a
 * prototype is refused with 400 naming it, where Fastify's guard would call the whole body "not valid JSON".
 */
export function registerJsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('ignore', 'ignore'); // JSON.parse: such a key is an own property, checked below
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (err, value) => {
      if (err) return done(err, undefined);
      // (The walk only when the text could spell such a key, directly or with \u escapes.)
      const at = /proto|\\u/.test(body as string) ? prototypeKey(value) : undefined;
      if (at !== undefined) return done(new InputError(`body/${at.replaceAll('.', '/')} is a key the service refuses: it could set an object's prototype`, at), undefined);
      done(null, value);
    });
  });
}
