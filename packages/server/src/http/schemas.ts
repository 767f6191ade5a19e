import { Type, type TSchema } from '@sinclair/typebox';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../store/paging.js';
import { GUID_PATTERN } from '../values.js';

// `ok` is declared a plain boolean, not a one-value enum: generated clients (openapi-generator's python among them)
// refuse every answer when a boolean carries an enum. The server's own type still says `true` / `false`, and so do
// the generated TypeScript types (scripts/gen-clients.ts: ok at the root of a 2xx body is true, ErrorEnvelope's false).
/** `ok` of every success answer. */
export const Ok = Type.Unsafe<true>(Type.Boolean({ description: 'always true: every success answers ok true' }));
/** `ok` of every failure answer. */
const NotOk = Type.Unsafe<false>(Type.Boolean({ description: 'always false: every failure answers ok false' }));

/** The shared error envelope, registered once and referenced by every route's error responses. */
export const ErrorEnvelope = Type.Object(
  {
    ok: NotOk,
    error: Type.Object({
      code: Type.String({ description: 'stable machine-readable code' }),
      message: Type.String({ description: 'what went wrong, for people' }),
      hint: Type.Optional(Type.String({ description: 'what to do about it' })),
      field: Type.Optional(Type.String({ description: 'the input field or header at fault' })),
      gate: Type.Optional(
        Type.Object(
          { reason: Type.String(), remediation: Type.String(), link: Type.String() },
          { description: 'a deployment gate: the setting an admin must fix' },
        ),
      ),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every failure: ok false and an error with a code and a message' },
);

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; the error names the field',
  401: 'No credentials, or credentials that are not valid',
  403: 'The caller lacks the scope the operation needs, or a CSRF token',
  404: 'Unknown id, or one of another tenant',
  409: 'Conflicts with existing state',
  412: 'The If-Match ETag is stale',
  413: 'The body is too large',
  415: 'The content type is not supported',
  424: 'A deployment gate: a setting of the deployment is missing',
  428: 'The request needs an If-Match header',
  429: 'Rate limited; see Retry-After',
  431: 'The request line and headers are over the size limit',
  500: 'An unexpected error',
};

/** Response schemas for the given error statuses, plus those every authenticated route can answer. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  const all = new Set([400, 401, 403, 413, 415, 429, 431, 500, ...statuses]);
  const out: Record<number, TSchema> = {};
  for (const status of all) out[status] = Type.Ref(ErrorEnvelope, { description: ERROR_TEXT[status] ?? 'Error' });
  return out;
}

/** Response schemas of a public route (no authentication). */
export function publicErrors(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of new Set([429, 431, 500, ...statuses]))
    out[status] = Type.Ref(ErrorEnvelope, { description: ERROR_TEXT[status] ?? 'Error' });
  return out;
}

/**
 * The paging query string shared by every list. `limit` is an integer (query integers are read from their decimal
 * text, see http/query-integers.ts); `cursor` is only ever one the service issued, so an empty one is refused.
 */
export const PageQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, description: 'nextCursor of the previous page; omit it for the first page' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
        description: `page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** The headers of a conditional write: If-Match is required; without it the answer is 428 (http/error-handler.ts), with a stale one 412. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.String({
    minLength: 1,
    description: 'the ETag read, or * for any version; without it the answer is 428, with a stale one 412',
  }),
});

const PATTERN_TEXT = new Map<string, string>();

/** A schema pattern, with the words its refusal uses instead of the expression itself. */
export function describedPattern(pattern: string, text: string): string {
  PATTERN_TEXT.set(pattern, text);
  return pattern;
}

/** What a value failing `pattern` must be, when the pattern was described. */
export const patternText = (pattern: string): string | undefined => PATTERN_TEXT.get(pattern);

// What shows nothing: whitespace (\s: U+00A0, U+2000–U+200A, U+2028, U+3000, U+FEFF, …) and the invisible format and
// filler characters (soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul and Khmer fillers, Mongolian
// selectors, zero-width space/joiners and direction marks, bidi embeddings and isolates, word joiner and invisible
// operators, variation selectors). Code points are written as \u escapes so that other regex dialects read the same class.
const INVISIBLE =
  '\\s\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0';

/** One visible character (anything but INVISIBLE). */
export const VISIBLE_CHARACTER = `[^${INVISIBLE}]`;

/**
 * A name people read (workspace, item, token, report, credential, rule): 1 to `maxLength` characters with at least one
 * visible, so a name made only of spaces or zero-width characters is 400 naming the field.
 */
export const Name = (maxLength: number, description: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: describedPattern(VISIBLE_CHARACTER, 'must contain a visible character, not only spaces or invisible (zero-width) characters'),
    description,
  });

/** An id in a path: letters, digits, '-' and '_' only. */
export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description });

/** A platform workspace id (its reporting group id too): a GUID, checked before it travels into any backing path. */
export const PlatformWorkspaceId = (description = 'platform workspace id (a GUID)') => Type.String({ pattern: GUID_PATTERN, description });

/** The Last-Event-ID header of an event stream's request (a replay starts after it). */
export const LastEventIdHeaders = Type.Object({ 'last-event-id': Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })) });

/** The 200 answer of a job's server-sent event stream, `events` naming the kinds it sends. */
export const eventStreamResponse = (events: string) => ({
  description: `text/event-stream: events ${events}, each with an id (for Last-Event-ID)`,
  // The schema of each event's data (what SSE-aware tools validate): a JSON object.
  content: {
    'text/event-stream': {
      schema: Type.Object({}, { additionalProperties: true, description: 'the data of one event, a JSON object' }),
    },
  },
});
