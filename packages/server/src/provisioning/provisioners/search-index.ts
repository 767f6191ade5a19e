import { BackingError } from '../../backends/http-pipeline.js';
import { gateOnAuth } from '../gates.js';
import type { Provisioner } from '../context.js';

/** search-index: PUT /indexes/{name} (an upsert), then POST /indexes/{name}/docs/index with mergeOrUpload. */
export const provisionSearchIndex: Provisioner = async (ctx) => {
  const service = ctx.target.searchService;
  if (!service) return { status: 'failed', error: 'No search service is configured: set SVC_SEARCH_SERVICE, or targetOverrides.searchService in dedicated mode' };
  const index = ctx.content.index as { name: string };
  try {
    const { created } = await ctx.backends.search.putIndex(service, index);
    ctx.log(`index ${index.name}: ${created ? 'created' : 'updated'}`);
    const docs = ctx.content.documents as Array<Record<string, unknown>>;
    if (docs.length) {
      const batch = await ctx.backends.search.indexDocuments(service, index.name, docs);
      const failed = batch.results.filter((r) => !r.status);
      if (failed.length) throw new BackingError('search', batch.status, batch.text, 'PartialFailure');
      ctx.log(`documents: ${docs.length} indexed (mergeOrUpload)`);
    }
    return { status: created ? 'created' : 'exists', resourceId: `${service}/indexes/${index.name}`, secondaryIds: { searchService: service, index: index.name } };
  } catch (err) {
    gateOnAuth(err, 'search-auth', ctx.profile);
  }
};
