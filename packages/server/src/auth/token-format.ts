import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN = /^svc_pat_([a-z0-9]{8,32})_([A-Za-z0-9]{32,64})$/;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Splits `svc_pat_<id>_<secret>` into its parts, or null when it does not have the format. */
export function parseToken(value: string): { id: string; secret: string } | null {
  const m = TOKEN.exec(value);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

/** Uniformly random characters from an alphabet (rejection sampling, no modulo bias). */
function randomString(length: number, alphabet = ALNUM): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out.push(alphabet[byte % alphabet.length]!);
    }
  }
  return out.join('');
}

/** A new token: a 16-character id and a 48-character secret (about 285 bits). */
export function newToken(): { id: string; secret: string; value: string } {
  const id = randomString(16, LOWER);
  const secret = randomString(48);
  return { id, secret, value: `svc_pat_${id}_${secret}` };
}

/** The stored form of a secret. Secrets are high-entropy, so one SHA-256 is enough. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Compares a presented secret with a stored hash (hex, or its bytes) in constant time. */
export function secretMatches(secret: string, storedHash: string | Buffer): boolean {
  const a = hash('sha256', secret, 'buffer');
  const b = typeof storedHash === 'string' ? Buffer.from(storedHash, 'hex') : storedHash;
  return a.length === b.length && timingSafeEqual(a, b);
}
