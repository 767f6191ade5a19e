import { randomBytes } from 'node:crypto';

export interface AuthorizationCode {
  clientId: string;
  redirectUri: string;
  scope: string;
  userId: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  expiresAt: number;
  redeemed: boolean;
}

export interface RefreshToken {
  clientId: string;
  userId: string;
  scope: string;
  expiresAt: number;
}

/** The identity provider's short-lived state: authorization codes and refresh tokens. */
export class IdentityState {
  readonly codes = new Map<string, AuthorizationCode>();
  readonly refreshTokens = new Map<string, RefreshToken>();

  issueCode(code: Omit<AuthorizationCode, 'expiresAt' | 'redeemed'>): string {
    const value = `1.${randomBytes(48).toString('base64url')}`;
    this.codes.set(value, { ...code, expiresAt: Date.now() + 10 * 60_000, redeemed: false });
    return value;
  }

  issueRefreshToken(t: Omit<RefreshToken, 'expiresAt'>): string {
    const value = `0.${randomBytes(64).toString('base64url')}`;
    this.refreshTokens.set(value, { ...t, expiresAt: Date.now() + 90 * 86_400_000 });
    return value;
  }
}
