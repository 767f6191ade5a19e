import { Type, type TSchema } from '@sinclair/typebox';
import { BackingError } from '../backends/http-pipeline.js';
import { SEARCH_API_VERSION } from '../backends/search.js';
import { validateSearchIndex } from '../catalog/validate-stores.js';
import { raiseGate } from '../backends/failures.js';
import { StepRefused, type StepContext } from '../provisioning/context.js';
import { indexParts, liveIndexParts } from '../provisioning/search-read.js';
import { Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';

const SearchFieldSchema: TSchema = Type.Object(
  { name: Name, type: Name, key: Type.Optional(Type.Boolean()) },
  { additionalProperties: true },
);
/** Search index content: the index body and its documents. */
export const SearchIndexContent = Type.Object({
  index: Type.Object(
    { name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,127}$' }), fields: Type.Array(SearchFieldSchema, { minItems: 1 }) },
    { additionalProperties: true },
  ),
  documents: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});
// The schema leaves a field's other attributes open; these types name the ones the catalog's checks read.
/** A search index field (other attributes pass through). */
export type SearchField = {
  name: string;
  type: string;
  key?: boolean;
  dimensions?: number;
  vectorSearchProfile?: string;
  [k: string]: unknown;
};
export type SearchIndexContent = {
  index: { name: string; fields: SearchField[]; [k: string]: unknown };
  documents: Record<string, unknown>[];
};

const NO_SERVICE = 'No search service is configured: set SVC_SEARCH_SERVICE, or targetOverrides.searchService in dedicated mode';

/** The search service of the install, or the refusal to provision without one. */
function serviceOf(ctx: StepContext): string {
  if (!ctx.target.searchService) throw new StepRefused('search_not_configured', NO_SERVICE);
  return ctx.target.searchService;
}

/** search-index: PUT /indexes/{name} (an upsert), then POST /indexes/{name}/docs/index with mergeOrUpload. */
export const searchIndex: LiveItemType<'search-index', typeof SearchIndexContent> = {
  id: 'search-index',
  displayName: 'Search index',
  description: 'an index and its documents on the search service',
  icon: 'Search',
  editor: 'json',
  backing: 'search',
  content: SearchIndexContent,
  validate: validateSearchIndex,
  edges: { from: ['feeds', 'reads-from'], to: ['feeds', 'reads-from', 'visualizes', 'triggers-on'] },
  calls: (c) => [
    { service: 'search', method: 'PUT', path: `/indexes/${c.index.name}?api-version=${SEARCH_API_VERSION}` },
    ...(c.documents.length
      ? [
          {
            service: 'search',
            method: 'POST',
            path: `/indexes/${c.index.name}/docs/index?api-version=${SEARCH_API_VERSION}`,
            command: `mergeOrUpload of ${c.documents.length} documents`,
          } as const,
        ]
      : []),
  ],
  desired: async (ctx) => indexParts(ctx.content.index as SearchIndexContent['index']),
  async readLive(ctx) {
    const service = serviceOf(ctx);
    const name = ctx.content.index.name;
    try {
      const live = await ctx.backends.search.getIndex(service, name);
      if (!live) return undefined;
      const parts = liveIndexParts(live as SearchIndexContent['index'], ctx.content.index as SearchIndexContent['index']);
      return { resourceId: `${service}/indexes/${name}`, secondaryIds: { searchService: service, index: name }, parts };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { auth: 'search-auth' } });
    }
  },
  readCalls: (c) => [{ service: 'search', method: 'GET', path: `/indexes/${c.index.name}?api-version=${SEARCH_API_VERSION}` }],
  holdsData: true,
  /** DELETE of the index (its documents go with it): 204, or 404 when it is already gone. */
  async remove(ctx) {
    const service = serviceOf(ctx);
    const name = ctx.content.index.name;
    try {
      const removed = await ctx.backends.search.deleteIndex(service, name);
      ctx.log(removed ? `index ${name} deleted` : `index ${name} was already gone (404)`);
      return { removed };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { auth: 'search-auth' } });
    }
  },
  removeCalls: (c) => [{ service: 'search', method: 'DELETE', path: `/indexes/${c.index.name}?api-version=${SEARCH_API_VERSION}` }],
  async provision(ctx) {
    const service = ctx.target.searchService;
    if (!service)
      return {
        status: 'failed',
        error: NO_SERVICE,
      };
    const index = ctx.content.index;
    try {
      let { created } = await ctx.backends.search.putIndex(service, index);
      ctx.log(`index ${index.name}: ${created ? 'created' : 'updated'}`);
      const docs = ctx.content.documents;
      const load = async () => {
        const batch = await ctx.backends.search.indexDocuments(service, index.name, docs);
        const failed = batch.results.filter((r) => !r.status);
        if (failed.length) throw new BackingError('search', batch.status, batch.text, 'PartialFailure');
        ctx.log(`documents: ${docs.length} indexed (mergeOrUpload)`);
      };
      if (docs.length) {
        try {
          await load();
        } catch (err) {
          // An index is named alike in every workspace of the service: another workspace's uninstall may delete it between
          // the PUT and the upload (404). It is made again, once, and loaded.
          if (!(err instanceof BackingError) || err.status !== 404) throw err;
          ctx.log(`index ${index.name} was deleted meanwhile (another workspace's uninstall): created again`);
          ({ created } = await ctx.backends.search.putIndex(service, index));
          created = true;
          await load();
        }
      }
      return {
        status: created ? 'created' : 'exists',
        resourceId: `${service}/indexes/${index.name}`,
        secondaryIds: { searchService: service, index: index.name },
      };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { auth: 'search-auth' } });
    }
  },
};
