import { InputError } from '../errors.js';

/** What the selected cloud and the identity expect of a token; absent fields are not checked. */
export interface ClaimExpectations {
  /** Accepted audiences: the data platform API resource and the reporting API resource of the cloud. */
  audiences: string[];
  appId?: string;
  objectId?: string;
  tenantId?: string;
  roles?: string[];
  wids?: string[];
}

export interface ClaimCheck {
  claim: 'aud' | 'appid' | 'oid' | 'tid' | 'roles' | 'wids' | 'exp';
  status: 'ok' | 'wrong' | 'missing' | 'unchecked';
  actual?: unknown;
  expected?: unknown;
}

type Claims = Record<string, unknown>;

/** Decodes a JWT's payload without verifying it (the token is never stored or logged). */
export function decodeToken(token: string): { header: Claims; claims: Claims } {
  const parts = token
    .trim()
    .replace(/^Bearer\s+/i, '')
    .split('.');
  if (parts.length !== 3) throw new InputError('The token is not a JWT (three dot-separated parts)', 'token', 'malformed_token');
  try {
    const json = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Claims;
    const header = json(parts[0]!);
    const claims = json(parts[1]!);
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw new Error('payload is not an object');
    return { header, claims };
  } catch {
    throw new InputError('The token’s header or payload is not base64url JSON', 'token', 'malformed_token');
  }
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
const trim = (s: string) => s.replace(/\/+$/, '').toLowerCase();

function listCheck(claim: 'roles' | 'wids', actual: unknown, expected: string[] | undefined): ClaimCheck {
  if (!expected?.length) return { claim, status: 'unchecked', actual };
  if (!Array.isArray(actual)) return { claim, status: 'missing', expected };
  const missing = expected.filter((e) => !actual.some((a) => same(a, e)));
  return missing.length ? { claim, status: 'wrong', actual, expected } : { claim, status: 'ok', actual };
}

function idCheck(claim: 'appid' | 'oid' | 'tid', actual: unknown, expected: string | undefined): ClaimCheck {
  if (actual === undefined) return { claim, status: expected ? 'missing' : 'unchecked', ...(expected ? { expected } : {}) };
  if (!expected) return { claim, status: 'unchecked', actual };
  return same(actual, expected) ? { claim, status: 'ok', actual } : { claim, status: 'wrong', actual, expected };
}

/** Checks aud, appid, oid, tid, roles, wids and exp: each ok, or wrong/missing with the expected value. */
export function checkClaims(claims: Claims, expect: ClaimExpectations, now: Date): { ok: boolean; checks: ClaimCheck[] } {
  const auds = (Array.isArray(claims.aud) ? claims.aud : [claims.aud]).filter((a): a is string => typeof a === 'string');
  const audOk = auds.some((a) => expect.audiences.some((e) => trim(a) === trim(e)));
  const exp = typeof claims.exp === 'number' ? claims.exp : undefined;
  const checks: ClaimCheck[] = [
    !auds.length
      ? { claim: 'aud', status: 'missing', expected: expect.audiences }
      : audOk
        ? { claim: 'aud', status: 'ok', actual: claims.aud }
        : { claim: 'aud', status: 'wrong', actual: claims.aud, expected: expect.audiences },
    idCheck('appid', claims.appid ?? claims.azp, expect.appId),
    idCheck('oid', claims.oid, expect.objectId),
    idCheck('tid', claims.tid, expect.tenantId),
    listCheck('roles', claims.roles, expect.roles),
    listCheck('wids', claims.wids, expect.wids),
    exp === undefined
      ? { claim: 'exp', status: 'missing', expected: `after ${now.toISOString()}` }
      : exp * 1000 > now.getTime()
        ? { claim: 'exp', status: 'ok', actual: new Date(exp * 1000).toISOString() }
        : { claim: 'exp', status: 'wrong', actual: new Date(exp * 1000).toISOString(), expected: `after ${now.toISOString()}` },
  ];
  return { ok: checks.every((c) => c.status === 'ok' || c.status === 'unchecked'), checks };
}
