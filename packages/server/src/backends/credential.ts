import type { TokenCredential } from '@azure/identity';
import type { ServiceIdentity } from '../config/identity.js';
import type { CloudProfile } from '../cloud/profiles.js';

/** Gives the service identity's bearer token for an audience, cached and refreshed before expiry. */
export interface TokenSource {
  getToken(audience: string): Promise<string>;
  /** Who the service is, for logs and identity signals (never a secret). */
  readonly principal: string;
}

const REFRESH_BEFORE_MS = 5 * 60_000;

/**
 * The @azure/identity credential of the configured service identity (SVC_IDENTITY), with the cloud's authority host.
 * The library (a tenth of the service's memory at start) is loaded with the first token asked for.
 */
export function serviceCredential(identity: ServiceIdentity, profile: CloudProfile): TokenSource {
  const authorityHost = profile.authUrl;
  let credential: Promise<TokenCredential> | undefined;
  const load = async (): Promise<TokenCredential> => {
    const lib = await import('@azure/identity');
    switch (identity.kind) {
      case 'managed':
        return identity.clientId ? new lib.ManagedIdentityCredential({ clientId: identity.clientId }) : new lib.ManagedIdentityCredential();
      case 'workload':
        return new lib.WorkloadIdentityCredential({ authorityHost, tenantId: identity.tenantId, clientId: identity.clientId });
      case 'client-secret':
        return new lib.ClientSecretCredential(identity.tenantId, identity.clientId, identity.clientSecret, { authorityHost });
      case 'client-certificate':
        return new lib.ClientCertificateCredential(
          identity.tenantId,
          identity.clientId,
          { certificatePath: identity.certificatePath },
          { authorityHost },
        );
    }
  };
  const lazy: TokenCredential = { getToken: async (scopes, options) => (await (credential ??= load())).getToken(scopes, options) };
  return cachedTokens(lazy, `${identity.kind}${identity.clientId ? `:${identity.clientId}` : ''}`);
}

/** Wraps a credential with a per-audience cache; concurrent callers share one fetch. */
export function cachedTokens(credential: TokenCredential, principal: string): TokenSource {
  const cache = new Map<string, { token: string; expiresAt: number }>();
  const inflight = new Map<string, Promise<string>>();
  return {
    principal,
    async getToken(audience: string) {
      const hit = cache.get(audience);
      if (hit && hit.expiresAt - Date.now() > REFRESH_BEFORE_MS) return hit.token;
      const pending = inflight.get(audience);
      if (pending) return pending;
      const scope = `${audience.replace(/\/+$/, '')}/.default`;
      const p = credential
        .getToken(scope)
        .then((t) => {
          if (!t) throw new Error(`The service identity returned no token for ${scope}`);
          cache.set(audience, { token: t.token, expiresAt: t.expiresOnTimestamp });
          return t.token;
        })
        .finally(() => inflight.delete(audience));
      inflight.set(audience, p);
      return p;
    },
  };
}
