import { address, flag, int, oneOf, type Section, text, url, type Values, WEB } from './setting.js';

/** The level of the service's log. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const satisfies readonly LogLevel[];

/** How log lines are written: pino's JSON lines, or formatted for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';
const LOG_FORMATS = ['json', 'pretty'] as const satisfies readonly LogFormat[];

/** The HTTP server: where it listens, its log, request limits. */
export const SERVER = {
  port: int('PORT', 8080, 0, 65535, 'listening port'),
  host: text('HOST', { fallback: '0.0.0.0', meaning: 'listening address' }),
  publicUrl: url('SVC_PUBLIC_URL', WEB, {
    meaning: "the deployment's own address (OpenAPI `servers[0]`, Secure cookies, cloud selection)",
  }),
  logLevel: oneOf('SVC_LOG_LEVEL', LOG_LEVELS, { fallback: 'info', meaning: 'pino level: fatal, error, warn, info, debug, trace, silent' }),
  logFormat: oneOf('SVC_LOG_FORMAT', LOG_FORMATS, {
    fallback: 'json',
    meaning:
      '`json` (one JSON object a line, for collectors) or `pretty` (coloured, readable lines); `npm start` on a terminal sets `pretty` unless this is set',
  }),
  trustProxy: flag('SVC_TRUST_PROXY', '`true` behind a reverse proxy that sets `X-Forwarded-*`'),
  bodyLimitBytes: int(
    'SVC_BODY_LIMIT_BYTES',
    1_048_576,
    1024,
    64 * 1_048_576,
    "largest accepted request body (413 beyond); a paginated report's publish and definition PUT take up to 24,065,536 bytes, the JSON of an RDL at its 4,000,000-character maximum",
  ),
  rateLimitPerMinute: int(
    'SVC_RATE_LIMIT_PER_MINUTE',
    1200,
    1,
    10_000_000,
    'requests per minute per token or session (429 with Retry-After beyond)',
  ),
  signInRateLimitPerMinute: int(
    'SVC_SIGNIN_RATE_LIMIT_PER_MINUTE',
    30,
    1,
    10_000_000,
    "requests per minute per client address to the sign-in routes (`POST /api/session`, `GET /api/auth/login`, `GET /api/auth/callback`, together; an IPv6 client counts by its /64); 429 with Retry-After beyond. The address is the socket's, or with `SVC_TRUST_PROXY=true` the one `X-Forwarded-For` names",
  ),
} satisfies Section;

export type ServerConfig = Values<typeof SERVER>;
