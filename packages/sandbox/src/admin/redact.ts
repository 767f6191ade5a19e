// What the request log keeps of a request: its headers, query and body with every secret taken out. The log is read
// through the admin API and replayed by the conformance gate, so no bearer token, key, client secret, assertion or
// vault secret value may stay in it.

const REDACTED = '[redacted]';

/** Names (lowercase, letters and digits only) whose values are secrets wherever they appear. */
const SECRET_NAMES = new Set([
  'code',
  'state',
  'sig',
  'key',
  'secret',
  'password',
  'assertion',
  'credential',
  'credentials',
  'cookie',
  'setcookie',
  'xidentityheader',
  'xmssecretvalue',
]);
/** Endings of such names: authorization, client_secret, api-key, x-ms-account-key, access_token, refresh_token, … */
const SECRET_ENDINGS =
  /(?:authorization|token|secret|password|passwd|pwd|signature|sig|apikey|key|accesskey|assertion|verifier|cookie|credential)$/;

/** Values that are credentials whatever they are called: JWTs (access, id and client-assertion tokens) and the service's API tokens. */
const SECRET_VALUES = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*|svc_pat_[A-Za-z0-9_]+/g;

/** Whether a header, query parameter or body field name says its value is a secret (any case, any separator). */
export function isSecretName(raw: string): boolean {
  const folded = raw.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAMES.has(folded) || SECRET_ENDINGS.test(folded);
}

/** Takes credential-looking values (JWTs, API tokens) out of any text. */
export const scrub = (text: string) => text.replace(SECRET_VALUES, REDACTED);

/**
 * The headers as logged: names lowercased; a secret's value becomes [redacted], keeping an authorization scheme
 * (`Bearer [redacted]`) so a reader can still see how the caller authenticated.
 */
export function redactHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const v = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    if (!isSecretName(lower)) out[lower] = scrub(v);
    else if (/authorization$/.test(lower)) out[lower] = /^\s*(\S+)\s+\S/.test(v) ? `${v.trim().split(/\s+/)[0]} ${REDACTED}` : REDACTED;
    else out[lower] = REDACTED;
  }
  return out;
}

/** A path with its query string as logged: secret-named parameters' values become [redacted]. */
export function redactPath(pathWithQuery: string): string {
  const text = scrub(pathWithQuery);
  const q = text.indexOf('?');
  if (q < 0) return text;
  const query = text
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        /* judged as sent */
      }
      return isSecretName(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${text.slice(0, q)}?${query.join('&')}`;
}

/** JSON field names whose string values are secrets (narrower than for headers: `key: true` and `state` are ordinary fields). */
const SECRET_FIELDS =
  /(?:secret|password|passwd|pwd|apikey|accesskey|accountkey|primarykey|secondarykey|assertion|credential|credentials|token|connectionstring)$/;

/** A parsed JSON value with secret-named string fields (and `extra` field names the service declares secret) redacted. */
export function redactJson(value: unknown, extra: readonly string[] = []): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, extra));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const secret = (k: string) => SECRET_FIELDS.test(k.toLowerCase().replace(/[^a-z0-9]/g, '')) || extra.includes(k);
    for (const [k, v] of Object.entries(value)) out[k] = secret(k) && typeof v === 'string' ? REDACTED : redactJson(v, extra);
    return out;
  }
  return value;
}

/** A form-encoded body (the token endpoint) with secret-named fields redacted. */
export function redactForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = isSecretName(k) ? REDACTED : scrub(v);
  return out;
}
