import type { LoggedBody } from '../types.js';
import { redactForm, redactJson, scrub } from './redact.js';

/** The most of one body the request log keeps (a definition with a few parts fits; a large upload is cut). */
export const BODY_CAP = 256 * 1024;

const isJsonType = (type: string) => /^application\/([\w.+-]*\+)?json\b/i.test(type);
const isTextType = (type: string) => /^(text\/|application\/(xml|[\w.+-]*\+xml|x-ndjson|sql)\b|multipart\/)/i.test(type);

/** Whether bytes read as UTF-8 text (no NUL and no replacement characters from invalid sequences). */
function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return text.includes('\uFFFD') ? undefined : text;
}

/**
 * A request body as the log keeps it: JSON parsed, a form as its fields, text as text (secrets redacted in each),
 * other bytes as their size and type; over `cap` bytes only the first `cap`, as text, marked truncated.
 * `secretFields` are JSON field names the service itself holds secret (a vault's `value`).
 */
export function captureBody(
  bytes: Buffer,
  contentType: string | undefined,
  opts: { cap?: number; secretFields?: readonly string[] } = {},
): LoggedBody | undefined {
  if (!bytes.length) return undefined;
  const cap = opts.cap ?? BODY_CAP;
  const base: LoggedBody = { size: bytes.length, ...(contentType ? { type: contentType } : {}) };
  const type = contentType ?? '';
  if (bytes.length > cap) {
    const head = asText(bytes.subarray(0, cap));
    return head !== undefined && !/form-urlencoded/i.test(type)
      ? { ...base, text: scrub(head), truncated: true }
      : { ...base, binary: true, truncated: true };
  }
  const text = asText(bytes);
  if (text === undefined) return { ...base, binary: true };
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) return { ...base, form: redactForm(text) };
  if (isJsonType(type) || (!type && /^\s*[[{]/.test(text))) {
    try {
      return { ...base, json: redactJson(JSON.parse(text), opts.secretFields) };
    } catch {
      return { ...base, text: scrub(text) };
    }
  }
  if (isTextType(type) || !type || /^application\/octet-stream\b/i.test(type)) return { ...base, text: scrub(text) };
  return { ...base, binary: true };
}
