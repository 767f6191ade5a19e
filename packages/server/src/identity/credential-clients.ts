import { backingPath, type BackingPipeline } from '../backends/http-pipeline.js';

/** A password credential as the identity provider's application API answers it (secretText only on creation). */
export interface PasswordCredential {
  keyId: string;
  displayName?: string;
  hint?: string;
  startDateTime?: string;
  endDateTime: string;
  secretText?: string;
}

/** The identity provider's application-credential calls (Graph-shaped): read, addPassword, removePassword. */
export class ApplicationCredentialClient {
  constructor(private readonly pipeline: BackingPipeline, private readonly graphUrl: string, private readonly audience: string) {}

  private app(clientId: string) {
    return `${this.graphUrl}/v1.0/applications(appId='${encodeURIComponent(clientId)}')`;
  }

  async addPassword(clientId: string, displayName: string, endDateTime: Date): Promise<PasswordCredential> {
    const res = await this.pipeline.send({ service: 'identity', method: 'POST', url: `${this.app(clientId)}/addPassword`, audience: this.audience, json: { passwordCredential: { displayName, endDateTime: endDateTime.toISOString() } } });
    return res.json<PasswordCredential>();
  }

  async removePassword(clientId: string, keyId: string): Promise<void> {
    await this.pipeline.send({ service: 'identity', method: 'POST', url: `${this.app(clientId)}/removePassword`, audience: this.audience, json: { keyId } });
  }
}

/** The secret vault's secret calls (Key Vault-shaped): set a new version, read a version. */
export class VaultClient {
  constructor(private readonly pipeline: BackingPipeline, private readonly vaultUrl: string, private readonly audience: string) {}

  private url(name: string, version = '') {
    return `${this.vaultUrl}${version ? backingPath`/secrets/${name}/${version}` : backingPath`/secrets/${name}`}?api-version=7.4`;
  }

  /** Stores a new version; answers the version id (the value passes through and is not kept). */
  async set(name: string, value: string, tags: Record<string, string> = {}): Promise<{ version: string }> {
    const res = await this.pipeline.send({ service: 'identity', method: 'PUT', url: this.url(name), audience: this.audience, json: { value, contentType: 'client-secret', tags } });
    return { version: String(res.json<{ id: string }>().id).split('/').pop()! };
  }

  /** The current version (or one version) of a secret, with its value, or undefined when there is none. */
  async get(name: string, version?: string): Promise<{ value: string; version: string } | undefined> {
    const res = await this.pipeline.send({ service: 'identity', method: 'GET', url: this.url(name, version), audience: this.audience, accept: [404] });
    if (res.status === 404) return undefined;
    const body = res.json<{ value: string; id: string }>();
    return { value: body.value, version: String(body.id).split('/').pop()! };
  }
}
