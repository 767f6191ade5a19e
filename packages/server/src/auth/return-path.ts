import { InputError } from '../errors.js';

/** The longest `returnTo` a sign-in takes. */
export const RETURN_TO_MAX_LENGTH = 500;

// Resolved against a placeholder origin: only a path that stays on it is this site's.
const ORIGIN = 'http://svc.invalid';
// C0 and C1 controls, DEL and every kind of whitespace: browsers drop some of them from a Location (a tab turns
// "/\t/evil.example" into "//evil.example"), and Node refuses others in a header.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\s]/u;

const isLocalPath = (p: string) => p.startsWith('/') && !p.startsWith('//') && !p.startsWith('/\\');

/**
 * The same-origin path a browser may be sent back to after sign-in, as the service resolves it (dot segments removed,
 * anything unusual percent-encoded), or null when `value` is not one: not a single leading `/`, a control character or
 * whitespace, too long, or a path that resolves elsewhere ("/..//evil.example").
 */
export function sameOriginPath(value: string): string | null {
  if (value.length > RETURN_TO_MAX_LENGTH || UNSAFE.test(value) || !isLocalPath(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === ORIGIN && isLocalPath(path) ? path : null;
}

/** Reads a sign-in's `returnTo` (default `/`); 400 naming the field when it is not a same-origin path. */
export function returnPath(value: string | undefined): string {
  if (value === undefined) return '/';
  const path = sameOriginPath(value);
  if (path === null) {
    throw new InputError(
      `returnTo must be a path on this site: one leading '/', no control characters or whitespace, at most ${RETURN_TO_MAX_LENGTH} characters`,
      'returnTo',
    );
  }
  return path;
}
