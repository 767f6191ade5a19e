/** Names (lowercase, letters and digits only) whose values are secrets wherever they appear in a query. */
const SECRET_NAMES = new Set([
  'code',
  'state',
  'sig',
  'key',
  'secret',
  'password',
  'nonce',
  'assertion',
  'credential',
  'credentials',
  'otp',
]);
/** Endings of such names: access_token, id_token, refresh_token, client_secret, api-key, X-Amz-Signature, code_verifier, … */
const SECRET_ENDINGS =
  /(?:token|secret|password|passwd|pwd|passphrase|signature|sig|apikey|accesskey|privatekey|subscriptionkey|assertion|verifier|sessionstate|session|sessionid|cookie|authorization|auth)$/;

/** Whether a query parameter's name (as sent: any case, any separator, percent-encoded or not) says its value is a secret. */
export function isSecretName(raw: string): boolean {
  let name = raw.replaceAll('+', ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    /* not percent-encoded: judged as sent */
  }
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAMES.has(folded) || SECRET_ENDINGS.test(folded);
}

/** Values that are credentials whatever they are called: the service's API tokens and JWTs (an id or access token). */
const SECRET_VALUES = /svc_pat_[A-Za-z0-9_]+|eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/**
 * A request URL as it may be logged: the value of every query parameter named like a secret (a token sent as
 * ?access_token=, the sign-in callback's code and state, a signature), and any API token or JWT anywhere in it, become
 * [redacted]; the path and the other parameters stay as sent. The one place a URL is made fit for the logs.
 */
export function loggableUrl(raw: string): string {
  const url = raw.replace(SECRET_VALUES, '[redacted]');
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && isSecretName(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${query.join('&')}`;
}
