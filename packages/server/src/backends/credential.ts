import {
  ClientCertificateCredential, ClientSecretCredential, ManagedIdentityCredential, WorkloadIdentityCredential, type TokenCredential,
} from '@azure/identity';
import { ConfigError } from '../config.js';
import type { CloudProfile } from '../cloud/profiles.js';

/** Gives the service identity's bearer token for an audience, cached and refreshed before expiry. */
export interface TokenSource {
  getToken(audience: string): Promise<string>;
  /** Who the service is, for logs and identity signals (never a secret). */
  readonly principal: string;
}

const REFRESH_BEFORE_MS = 5 * 60_000;

/** Chooses the @azure/identity credential from SVC_IDENTITY (managed by default) with the cloud's authority host. */
export function serviceCredential(env: Readonly<Record<string, string | undefined>>, profile: CloudProfile): TokenSource {
  const kind = env.SVC_IDENTITY ?? 'managed';
  const authorityHost = profile.authUrl;
  const clientId = env.AZURE_CLIENT_ID;
  let credential: TokenCredential;
  switch (kind) {
    case 'managed':
      credential = clientId ? new ManagedIdentityCredential({ clientId }) : new ManagedIdentityCredential();
      break;
    case 'workload':
      credential = new WorkloadIdentityCredential({ authorityHost, tenantId: env.AZURE_TENANT_ID, clientId });
      break;
    case 'client-secret':
      if (!env.AZURE_TENANT_ID || !clientId || !env.AZURE_CLIENT_SECRET) {
        throw new ConfigError('SVC_IDENTITY', 'client-secret needs AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET');
      }
      credential = new ClientSecretCredential(env.AZURE_TENANT_ID, clientId, env.AZURE_CLIENT_SECRET, { authorityHost });
      break;
    case 'client-certificate':
      if (!env.AZURE_TENANT_ID || !clientId || !env.AZURE_CLIENT_CERTIFICATE_PATH) {
        throw new ConfigError('SVC_IDENTITY', 'client-certificate needs AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_CERTIFICATE_PATH');
      }
      credential = new ClientCertificateCredential(env.AZURE_TENANT_ID, clientId, { certificatePath: env.AZURE_CLIENT_CERTIFICATE_PATH }, { authorityHost });
      break;
    default:
      throw new ConfigError('SVC_IDENTITY', `must be managed, workload, client-secret or client-certificate, got "${kind}"`);
  }
  return cachedTokens(credential, `${kind}${clientId ? `:${clientId}` : ''}`);
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
