import { sql } from 'kysely';
import { InputError } from '../errors.js';

/** A page request: an opaque cursor from the previous page and a size. */
export interface PageRequest {
  cursor?: string;
  limit: number;
}

export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/**
 * The page a list's query asks for. `limit` was already validated by the route's schema (PageQuery: an integer from 1
 * to MAX_LIMIT); the cursor is decoded here, 400 naming `cursor` when the service did not issue it.
 */
export function pageRequest(query: { cursor?: string; limit?: number }): PageRequest {
  if (query.cursor !== undefined) decodeCursor(query.cursor);
  return { cursor: query.cursor, limit: query.limit ?? DEFAULT_LIMIT };
}

/** Encodes the last row of a page as the cursor of the next: a position, good for any list. */
export function encodeCursor(pos: CursorPosition): string {
  return Buffer.from(JSON.stringify([pos.createdAt.toISOString(), pos.id])).toString('base64url');
}

/** Decodes a cursor; 400 naming `cursor` when it was not made by encodeCursor. */
export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(createdAt);
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad');
    return { createdAt: date, id };
  } catch {
    throw new InputError('querystring/cursor is not a cursor this service issued', 'cursor');
  }
}

/** Cuts a fetched page of limit + 1 rows into the page and the next cursor (created_at a Date, or its ISO text). */
export function toPage<T extends { created_at: Date | string; id: string }>(rows: T[], limit: number) {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { rows: page, nextCursor: more && last ? encodeCursor({ createdAt: new Date(last.created_at), id: last.id }) : undefined };
}

/** The keyset condition "after this cursor" on (created_at, id), for a where() clause. */
export function afterCursor(cursor: string, table?: string) {
  const pos = decodeCursor(cursor);
  return afterPosition(pos.createdAt.toISOString(), pos.id, table);
}

/** The keyset condition "after this position" (an ISO instant and an id, or precompiled slots for them). */
export function afterPosition(createdAt: string, id: string, table?: string) {
  const col = (c: string) => sql.ref(table ? `${table}.${c}` : c);
  return sql<boolean>`(${col('created_at')}, ${col('id')}) > (${createdAt}::timestamptz, ${id})`;
}
