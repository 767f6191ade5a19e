import type { BackingPipeline } from './http-pipeline.js';

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
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly graphUrl: string,
    private readonly audience: string,
  ) {}

  private app(clientId: string) {
    return `${this.graphUrl}/v1.0/applications(appId='${encodeURIComponent(clientId)}')`;
  }

  async addPassword(clientId: string, displayName: string, endDateTime: Date): Promise<PasswordCredential> {
    const res = await this.pipeline.send({
      service: 'identity',
      method: 'POST',
      url: `${this.app(clientId)}/addPassword`,
      audience: this.audience,
      json: { passwordCredential: { displayName, endDateTime: endDateTime.toISOString() } },
    });
    return res.json<PasswordCredential>();
  }

  async removePassword(clientId: string, keyId: string): Promise<void> {
    await this.pipeline.send({
      service: 'identity',
      method: 'POST',
      url: `${this.app(clientId)}/removePassword`,
      audience: this.audience,
      json: { keyId },
    });
  }
}
