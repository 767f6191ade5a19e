import type { CloudProfile } from '../cloud/profiles.js';
import type { BackingPipeline, BackingResponse } from './http-pipeline.js';
import { BackingError, backingPath } from './http-pipeline.js';

/** The artifacts API version (the only stable one, synapse-artifacts/.../stable/2020-12-01). */
export const SYNAPSE_API_VERSION = '2020-12-01';
const V = `api-version=${SYNAPSE_API_VERSION}`;

/** The artifact collections the service writes, by their path segment. */
export type SynapseCollection = 'notebooks' | 'pipelines' | 'linkedservices' | 'datasets';

/** An artifact as the development endpoint answers it (NotebookResource, PipelineResource, …). */
export interface SynapseArtifact {
  id?: string;
  name: string;
  type?: string;
  etag?: string;
  properties: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a write waits out another operation on its artifact (409 Conflict) before the 409 is its answer. */
const CONFLICT_WAIT_MS = 60_000;

const retryAfterMs = (res: BackingResponse) => {
  const v = Number(res.headers.get('retry-after'));
  return Number.isFinite(v) && v >= 0 ? Math.min(Math.max(v * 1000, 50), 10_000) : 1000;
};

/**
 * A Synapse workspace's development endpoint (artifacts API 2020-12-01): notebooks, pipelines, linked services and
 * datasets, each written by a long-running PUT or DELETE whose operation is followed at its Location.
 */
export class SynapseClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly profile: Pick<CloudProfile, 'synapseDevUrl' | 'synapseDevSuffix' | 'synapseAudience'>,
    private readonly deadlineMs = 600_000,
  ) {}

  /** The workspace's development endpoint: the explicit one (the sandbox's), else `https://<workspace><suffix>`. */
  endpoint(workspace: string): string {
    if (this.profile.synapseDevUrl) return this.profile.synapseDevUrl.replace(/\/+$/, '');
    if (!/^[a-z0-9][a-z0-9-]{0,49}$/i.test(workspace)) throw new Error(`'${workspace}' is not a Synapse workspace name`);
    return `https://${workspace.toLowerCase()}${this.profile.synapseDevSuffix}`;
  }

  private send(method: string, url: string, extra: { json?: unknown; accept?: number[] } = {}) {
    return this.pipeline.send({ service: 'synapse', method, url, audience: this.profile.synapseAudience, ...extra });
  }

  /**
   * A write, waiting out another operation on the same artifact: the service answers 409 Conflict while one runs (two
   * installs of the tenant writing the same artifact at once), so the write is sent again once it may have finished,
   * for at most CONFLICT_WAIT_MS; then the 409, with its text, is the answer.
   */
  private async write(method: 'PUT' | 'DELETE', url: string, extra: { json?: unknown; accept?: number[] }): Promise<BackingResponse> {
    const deadline = Date.now() + CONFLICT_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      const res = await this.send(method, url, { ...extra, accept: [...(extra.accept ?? []), 409] });
      if (res.status !== 409) return res;
      const code = res.text ? res.json<{ error?: { code?: string } }>().error?.code : undefined;
      if (code !== 'Conflict' || Date.now() > deadline) throw new BackingError('synapse', 409, res.text, code ?? 'Conflict');
      await sleep(Math.max(retryAfterMs(res), Math.min(250 * 2 ** attempt, 4000)));
    }
  }

  private url(workspace: string, kind: SynapseCollection, name?: string): string {
    const path = name === undefined ? `/${kind}` : `/${kind}${backingPath`/${name}`}`;
    return `${this.endpoint(workspace)}${path}?${V}`;
  }

  /** One artifact; undefined when the workspace has none of that name (404). */
  async get(workspace: string, kind: SynapseCollection, name: string): Promise<SynapseArtifact | undefined> {
    const res = await this.send('GET', this.url(workspace, kind, name), { accept: [404] });
    return res.status === 404 ? undefined : res.json<SynapseArtifact>();
  }

  /** Every artifact of a collection, following nextLink. */
  async list(workspace: string, kind: SynapseCollection): Promise<SynapseArtifact[]> {
    const out: SynapseArtifact[] = [];
    let url: string | undefined = this.url(workspace, kind);
    for (let page = 0; url && page < 1000; page++) {
      const body: { value?: SynapseArtifact[]; nextLink?: string } = (await this.send('GET', url)).json();
      out.push(...(body.value ?? []));
      url = body.nextLink;
    }
    return out;
  }

  /** Creates or updates an artifact and waits for its operation (its success is the write's: the artifact is not read again). */
  async put(workspace: string, kind: SynapseCollection, name: string, properties: Record<string, unknown>): Promise<void> {
    const res = await this.write('PUT', this.url(workspace, kind, name), { json: { name, properties } });
    if (res.status === 202) await this.follow(res);
  }

  /** Deletes an artifact and waits for its operation; false when it was already gone (204 No Content). */
  async delete(workspace: string, kind: SynapseCollection, name: string): Promise<boolean> {
    const res = await this.write('DELETE', this.url(workspace, kind, name), { accept: [404] });
    if (res.status === 204 || res.status === 404) return false;
    if (res.status === 202) await this.follow(res);
    return true;
  }

  /** Polls an operation's Location (honouring Retry-After) until it is no longer 202; a Failed status throws its error. */
  private async follow(accepted: BackingResponse): Promise<void> {
    let location = accepted.headers.get('location');
    if (!location) throw new BackingError('synapse', 202, accepted.text, 'MissingLocation', 'a 202 without a Location header');
    let wait = retryAfterMs(accepted);
    const deadline = Date.now() + this.deadlineMs;
    for (;;) {
      if (Date.now() > deadline)
        throw new BackingError('synapse', 0, '', 'OperationTimedOut', `the operation did not finish within ${this.deadlineMs} ms`);
      await sleep(wait);
      const poll = await this.send('GET', location, { accept: [202] });
      const state = poll.text ? poll.json<{ status?: string; error?: { code?: string } }>() : {};
      if (state.status === 'Failed' || state.status === 'Cancelled')
        throw new BackingError('synapse', poll.status, JSON.stringify(state.error ?? state), state.error?.code ?? 'OperationFailed');
      if (poll.status !== 202) return;
      location = poll.headers.get('location') ?? location;
      wait = retryAfterMs(poll);
    }
  }
}
