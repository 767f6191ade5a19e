import type { FastifyInstance } from 'fastify';
import { InputError } from '../errors.js';

/** How deep a JSON body (or query) may nest; the catalog's deepest item definition is 9 levels. */
export const MAX_JSON_DEPTH = 64;

// U+0000 cannot be stored by PostgreSQL (text or jsonb); an unpaired surrogate is not Unicode and would come back as
// U+FFFD. Either is refused, so whatever is accepted is stored and answered back byte for byte.
// (No u flag: the expression looks at UTF-16 code units, where a lone surrogate is visible.)
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first problem of a parsed JSON value, as [field, message], walking without recursion. */
export function checkJsonValue(value: unknown, maxDepth = MAX_JSON_DEPTH): [string, string] | undefined {
  const stack: Array<{ v: unknown; path: string[]; depth: number }> = [{ v: value, path: [], depth: 0 }];
  const field = (path: string[]) => path.join('.');
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (unstorable.test(v)) return [field(path), 'contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored'];
      continue;
    }
    if (!v || typeof v !== 'object' || ArrayBuffer.isView(v)) continue; // raw uploads (Buffers) are not JSON
    if (depth >= maxDepth) return [field(path.slice(0, 1)), `is nested deeper than ${maxDepth} levels`];
    for (const [k, child] of Object.entries(v)) {
      if (unstorable.test(k)) return [field([...path, k.replace(unstorable, '?')]), 'has a key with U+0000 or an unpaired UTF-16 surrogate'];
      stack.push({ v: child, path: [...path, k], depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Refuses, before validation, JSON bodies and query strings nested deeper than MAX_JSON_DEPTH and strings that cannot be
 * stored as given: 400 naming the field, instead of a stack overflow or a store error later.
 */
export function registerInputGuard(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH) {
  app.addHook('preValidation', async (req) => {
    for (const [where, value] of [['body', req.body], ['query', req.query]] as const) {
      if (value === undefined || value === null) continue;
      const problem = checkJsonValue(value, maxDepth);
      if (problem) {
        const [field, message] = problem;
        throw new InputError(`${where}${field ? `/${field.replaceAll('.', '/')}` : ''} ${message}`, field || where);
      }
    }
  });
}

/**
 * A date-time from a request that is to be stored: schema-valid RFC 3339 also allows years 0000 and 9999 with offsets
 * that PostgreSQL keeps but JavaScript cannot read back; only years 1970 to 9999 (UTC) are accepted, else 400 naming the field.
 */
export function storableInstant(value: string, field: string): Date {
  const at = new Date(value);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 1970 || year > 9999) throw new InputError(`${field} must be a date-time from 1970 to 9999`, field);
  return at;
}
