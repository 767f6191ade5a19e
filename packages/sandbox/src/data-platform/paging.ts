import { createHash } from 'node:crypto';
import type { RequestContext } from '../http/context.js';
import { fabricError } from './errors.js';

export interface Page<T> {
  value: T[];
  continuationToken?: string;
  continuationUri?: string;
}

const scopeOf = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 8);

/** Reads the continuationToken query parameter (accepting it encoded once or twice). */
function readToken(ctx: RequestContext, key: string): number {
  let raw = ctx.query('continuationToken')?.replace(/ /g, '+');
  if (raw === undefined || raw === '') return 0;
  if (/%[0-9A-F]{2}/i.test(raw)) {
    try {
      raw = decodeURIComponent(raw);
    } catch {
      /* keep */
    }
  }
  try {
    const [offset, scope] = Buffer.from(raw, 'base64').toString('utf8').split(',');
    const n = Number(offset);
    if (scope === scopeOf(key) && Number.isInteger(n) && n >= 0) return n;
  } catch {
    /* fall through */
  }
  throw fabricError(400, 'InvalidContinuationToken', 'The continuation token is invalid');
}

/**
 * One page of a list. The token is opaque and URL-encoded in the body (as the service sends it); both
 * continuation fields are absent on the last page. `key` ties a token to the list and filter it came from.
 */
export function page<T>(ctx: RequestContext, all: T[], pageSize: number, listUrl: string, key: string): Page<T> {
  const offset = readToken(ctx, key);
  const value = all.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  if (next >= all.length) return { value };
  const token = encodeURIComponent(Buffer.from(`${next},${scopeOf(key)}`).toString('base64'));
  const sep = listUrl.includes('?') ? '&' : '?';
  return { value, continuationToken: token, continuationUri: `${listUrl}${sep}continuationToken=${token}` };
}
