import { createHash } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, decodeJwt, type JWK, type JWTPayload } from 'jose';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

// One key per seed for the whole process: a token minted by an earlier sandbox of the same seed still verifies.
const keys = new Map<string, Promise<SigningKey>>();

/** The RS256 signing key of a seed (generated once per process). */
export function signingKeyFor(seed: string): Promise<SigningKey> {
  let k = keys.get(seed);
  if (!k) {
    k = (async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const kid = createHash('sha256').update(`kid:${seed}`).digest('base64url').slice(0, 27);
      const jwk = { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256', kty: 'RSA' };
      return { kid, privateKey, publicKey, jwk };
    })();
    keys.set(seed, k);
  }
  return k;
}

export type VerifyFailure = 'missing' | 'malformed' | 'signature' | 'expired' | 'notYetValid' | 'audience' | 'issuer';

export type VerifyResult =
  | { ok: true; claims: JWTPayload & Record<string, any>; audience: string }
  | { ok: false; reason: VerifyFailure; claims?: JWTPayload & Record<string, any>; detail: string };

const MAX_CACHE = 5_000;

/** Mints and verifies the sandbox's JWTs (v1 access tokens for resources, v2 id tokens). */
export class TokenIssuer {
  private readonly verified = new Map<string, JWTPayload & Record<string, any>>();

  /** `v2Issuers`: the issuer of v2 tokens under each address of the identity provider (the first is its own). */
  constructor(
    private readonly key: SigningKey,
    private readonly tenantId: string,
    private readonly v2Issuers: () => string[],
  ) {}

  /** The signing keys, naming the v2 issuer as the caller addressed the identity provider. */
  jwks(issuer = this.v2Issuers()[0]!): { keys: JWK[] } {
    return { keys: [{ ...this.key.jwk, x5t: this.key.kid, issuer } as JWK] };
  }

  get v1Issuer(): string {
    return `https://sts.windows.net/${this.tenantId}/`;
  }

  /** Signs claims valid for `lifetimeSeconds` from now (negative: already expired); a v2 token names `v2Issuer`. */
  async mint(
    claims: Record<string, unknown>,
    lifetimeSeconds: number,
    version: '1.0' | '2.0' = '1.0',
    v2Issuer = this.v2Issuers()[0]!,
  ): Promise<{ token: string; expiresOn: number }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + lifetimeSeconds;
    const nbf = Math.min(now - 300, exp - 1);
    const token = await new SignJWT({ ...claims, ver: version, tid: this.tenantId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.key.kid, x5t: this.key.kid })
      .setIssuer(version === '1.0' ? this.v1Issuer : v2Issuer)
      .setIssuedAt(nbf)
      .setNotBefore(nbf)
      .setExpirationTime(exp)
      .setJti(createHash('sha256').update(`${now}:${Math.random()}`).digest('base64url').slice(0, 22))
      .sign(this.key.privateKey);
    return { token, expiresOn: exp };
  }

  /** Verifies an Authorization header's bearer token against the accepted audiences (exact strings). */
  async verifyBearer(authorization: string | undefined, audiences: string[]): Promise<VerifyResult> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!m) return { ok: false, reason: 'missing', detail: 'No bearer token was presented.' };
    return this.verify(m[1]!, audiences);
  }

  async verify(token: string, audiences: string[]): Promise<VerifyResult> {
    let claims = this.verified.get(token);
    if (!claims) {
      try {
        claims = (await jwtVerify(token, this.key.publicKey, { algorithms: ['RS256'], clockTolerance: 0 })).payload as JWTPayload &
          Record<string, any>;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ERR_JWT_EXPIRED') {
          return { ok: false, reason: 'expired', claims: (err as { payload?: any }).payload, detail: 'The token is expired.' };
        }
        if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return { ok: false, reason: 'notYetValid', detail: 'The token is not valid yet.' };
        if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' || code === 'ERR_JOSE_NOT_SUPPORTED' || code === 'ERR_JWKS_NO_MATCHING_KEY') {
          return { ok: false, reason: 'signature', claims: safeDecode(token), detail: 'The token signature is invalid.' };
        }
        return { ok: false, reason: 'malformed', detail: `The token is malformed: ${(err as Error).message}` };
      }
      if (this.verified.size >= MAX_CACHE) this.verified.clear();
      this.verified.set(token, claims);
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now())
      return { ok: false, reason: 'expired', claims, detail: 'The token is expired.' };
    if (claims.tid !== this.tenantId || (claims.iss !== this.v1Issuer && !this.v2Issuers().includes(String(claims.iss)))) {
      return { ok: false, reason: 'issuer', claims, detail: `The token issuer '${claims.iss}' is not valid.` };
    }
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud ?? ''];
    const match = aud.find((a) => audiences.includes(String(a)));
    if (!match) return { ok: false, reason: 'audience', claims, detail: `The audience '${aud.join(',')}' is invalid.` };
    return { ok: true, claims, audience: String(match) };
  }
}

function safeDecode(token: string) {
  try {
    return decodeJwt(token) as JWTPayload & Record<string, any>;
  } catch {
    return undefined;
  }
}
