import type { FastifyInstance } from 'fastify';
import { InputError } from '../errors.js';

/** How deep a JSON body (or query) may nest; the catalog's deepest item definition is 9 levels. */
export const MAX_JSON_DEPTH = 64;

// U+0000 cannot be stored by PostgreSQL (text or jsonb); an unpaired surrogate is not Unicode and would come back as
// U+FFFD. Either is refused, so whatever is accepted is stored and answered back byte for byte.
// (No u flag: the expression looks at UTF-16 code units, where a lone surrogate is visible.)
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const field = (path: string[]) => path.join('.');

/** True for an object without keys (most GET requests' query): nothing to check. */
function isEmptyObject(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

/** The first problem of a parsed JSON value, as [field, message], walking without recursion. */
export function checkJsonValue(value: unknown, maxDepth = MAX_JSON_DEPTH): [string, string] | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isEmptyObject(value)) return undefined;
  const stack: Array<{ v: unknown; path: string[]; depth: number }> = [{ v: value, path: [], depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (unstorable.test(v)) return [field(path), 'contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored'];
      continue;
    }
    if (!v || typeof v !== 'object' || ArrayBuffer.isView(v)) continue; // raw uploads (Buffers) are not JSON
    if (depth >= maxDepth) return [field(path.slice(0, 1)), `is nested deeper than ${maxDepth} levels`];
    for (const [k, child] of Object.entries(v)) {
      if (unstorable.test(k))
        return [field([...path, k.replace(unstorable, '?')]), 'has a key with U+0000 or an unpaired UTF-16 surrogate'];
      // JSON.parse keeps these as plain keys, but a later merge or assignment would change an object's prototype.
      if (k === '__proto__')
        return [field([...path, k]), "is a key named '__proto__', which is not accepted: it could change the prototype of objects"];
      if (k === 'constructor' && child && typeof child === 'object' && Object.hasOwn(child, 'prototype')) {
        return [
          field([...path, k, 'prototype']),
          "is a 'constructor.prototype' key, which is not accepted: it could change the prototype of objects",
        ];
      }
      stack.push({ v: child, path: [...path, k], depth: depth + 1 });
    }
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body parser: the bytes must be UTF-8 (invalid sequences are refused, never stored as U+FFFD) and JSON;
 * either fault is 400 naming the body. Keys that could reach a prototype are refused by the guard below.
 */
function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw new InputError("body is empty but content-type is 'application/json'", 'body');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new InputError('body is not valid UTF-8 (a JSON body must be UTF-8 encoded)', 'body');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`body is not valid JSON: ${(err as Error).message}`, 'body');
  }
}

/**
 * Parses JSON bodies (strict UTF-8), and refuses, before validation, JSON bodies and query strings nested deeper than
 * MAX_JSON_DEPTH, strings that cannot be stored as given, and '__proto__' or 'constructor.prototype' keys: 400 naming
 * the field, instead of a stack overflow, a store error or a polluted prototype later.
 */
export function registerInputGuard(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  const refusal = (where: string, value: unknown): InputError | undefined => {
    if (value === undefined || value === null) return undefined;
    const problem = checkJsonValue(value, maxDepth);
    if (!problem) return undefined;
    const [field, message] = problem;
    return new InputError(`${where}${field ? `/${field.replaceAll('.', '/')}` : ''} ${message}`, field || where);
  };
  app.addHook('preValidation', (req, _reply, done) => done(refusal('body', req.body) ?? refusal('query', req.query)));
}
