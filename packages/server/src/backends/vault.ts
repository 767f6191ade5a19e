import { backingPath, type BackingPipeline } from './http-pipeline.js';

/** The secret vault's secret calls (Key Vault-shaped): set a new version, read a version. */
export class VaultClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly vaultUrl: string,
    private readonly audience: string,
  ) {}

  private url(name: string, version = '') {
    return `${this.vaultUrl}${version ? backingPath`/secrets/${name}/${version}` : backingPath`/secrets/${name}`}?api-version=7.4`;
  }

  /** Stores a new version; answers the version id (the value passes through and is not kept). */
  async set(name: string, value: string, tags: Record<string, string> = {}): Promise<{ version: string }> {
    const res = await this.pipeline.send({
      service: 'identity',
      method: 'PUT',
      url: this.url(name),
      audience: this.audience,
      json: { value, contentType: 'client-secret', tags },
    });
    return { version: String(res.json<{ id: string }>().id).split('/').pop()! };
  }

  /** The current version (or one version) of a secret, with its value, or undefined when there is none. */
  async get(name: string, version?: string): Promise<{ value: string; version: string } | undefined> {
    const res = await this.pipeline.send({
      service: 'identity',
      method: 'GET',
      url: this.url(name, version),
      audience: this.audience,
      accept: [404],
    });
    if (res.status === 404) return undefined;
    const body = res.json<{ value: string; id: string }>();
    return { value: body.value, version: String(body.id).split('/').pop()! };
  }
}
