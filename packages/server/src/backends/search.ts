import { backingPath, type BackingPipeline } from './http-pipeline.js';

export const SEARCH_API_VERSION = '2024-07-01';

/** The search service: index upsert and document batches. */
export class SearchClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly audience: string,
  ) {}

  /** Creates or updates an index (PUT is an upsert); true when it was created. */
  async putIndex(service: string, index: { name: string } & Record<string, unknown>): Promise<{ created: boolean }> {
    const res = await this.pipeline.send({
      service: 'search',
      method: 'PUT',
      url: `${service}${backingPath`/indexes/${index.name}`}?api-version=${SEARCH_API_VERSION}`,
      audience: this.audience,
      json: index,
      headers: { prefer: 'return=representation' },
    });
    return { created: res.status === 201 };
  }

  /** The index as the service holds it (GET), or undefined when there is none (404). */
  async getIndex(service: string, name: string): Promise<Record<string, unknown> | undefined> {
    const res = await this.pipeline.send({
      service: 'search',
      method: 'GET',
      url: `${service}${backingPath`/indexes/${name}`}?api-version=${SEARCH_API_VERSION}`,
      audience: this.audience,
      accept: [404],
    });
    return res.status === 404 ? undefined : res.json<Record<string, unknown>>();
  }

  /** Deletes an index with its documents (DELETE: 204); false when there was none (404). */
  async deleteIndex(service: string, name: string): Promise<boolean> {
    const res = await this.pipeline.send({
      service: 'search',
      method: 'DELETE',
      url: `${service}${backingPath`/indexes/${name}`}?api-version=${SEARCH_API_VERSION}`,
      audience: this.audience,
      accept: [404],
    });
    return res.status !== 404;
  }

  /** Uploads documents with mergeOrUpload (idempotent by key); returns per-document results and whether any failed (207). */
  async indexDocuments(service: string, indexName: string, documents: Array<Record<string, unknown>>) {
    const res = await this.pipeline.send({
      service: 'search',
      method: 'POST',
      url: `${service}${backingPath`/indexes/${indexName}/docs/index`}?api-version=${SEARCH_API_VERSION}`,
      audience: this.audience,
      json: { value: documents.map((d) => ({ '@search.action': 'mergeOrUpload', ...d })) },
    });
    const body = res.json<{ value: Array<{ key: string; status: boolean; errorMessage: string | null; statusCode: number }> }>();
    return { status: res.status, results: body.value, text: res.text };
  }
}
