import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { authorizeSearch } from './auth.js';
import { indexBatch, searchDocuments } from './documents.js';
import { apiVersionOf } from './api-version.js';
import { autocomplete, type AutocompleteQuery } from './autocomplete.js';
import { checkUpdate, invalid, normalizeIndex } from './index-schema.js';
import { checkAgainstDescription } from './index-spec.js';
import { checkSuggesters, checkSuggesterUpdate } from './index-suggesters.js';
import type { SearchIndex } from './store.js';

const ODATA = 'application/json; odata.metadata=minimal; charset=utf-8';

const notFound = (core: SandboxCore, name: string) =>
  new ServiceError(404, '', `No index with the name '${name}' was found in a service named '${core.ids.searchServiceName}'.`);

/** Both path forms: /indexes/{name}… and /indexes('{name}')… */
const forms = (suffix: string, odataSuffix = suffix) => [
  new RegExp(`^/indexes/(?<name>[^/()]+)${suffix.replace(/[.$()]/g, '\\$&')}/?$`, 'i'),
  new RegExp(`^/indexes\\('(?<name>[^']*)'\\)${odataSuffix.replace(/[.$()]/g, '\\$&')}/?$`, 'i'),
];

const checkApiVersion = (ctx: RequestContext) => apiVersionOf(ctx);

function indexOf(core: SandboxCore, name: string): SearchIndex {
  const idx = core.search.indexes.get(name.toLowerCase());
  if (!idx) throw notFound(core, name);
  return idx;
}

const indexBody = (core: SandboxCore, idx: SearchIndex) => ({
  '@odata.context': `${core.urls.search}/$metadata#indexes/$entity`,
  '@odata.etag': idx.etag,
  ...idx.definition,
});

/** PUT (upsert, If-Match / If-None-Match, Prefer) or POST (create only) of an index. */
async function upsert(core: SandboxCore, ctx: RequestContext, name: string | undefined): Promise<Reply> {
  const apiVersion = apiVersionOf(ctx);
  await authorizeSearch(core, ctx, 'manage');
  const body = await ctx.json((d) => invalid(`The request body is not valid JSON: ${d}`));
  if (name !== undefined && body?.name !== undefined && body.name !== name)
    throw invalid(`name : The index name '${body.name}' in the body does not match '${name}' in the URL.`);
  const named = { ...body, name: body?.name ?? name };
  checkAgainstDescription(named, apiVersion);
  const { definition, keyField } = normalizeIndex(named);
  checkSuggesters(definition.suggesters, definition.fields);
  const existing = core.search.indexes.get(definition.name);
  if (name === undefined && existing)
    throw new ServiceError(409, 'ResourceNameAlreadyInUse', `Cannot create index '${definition.name}' because it already exists.`);
  const ifMatch = ctx.header('if-match');
  const ifNoneMatch = ctx.header('if-none-match');
  if ((ifNoneMatch === '*' && existing) || (ifMatch && (!existing || (ifMatch !== '*' && ifMatch !== existing.etag)))) {
    throw new ServiceError(
      412,
      '',
      'The precondition given in one of the request headers evaluated to false. No change was made to the resource from this request.',
    );
  }
  if (existing) {
    checkUpdate(existing.definition.fields, definition.fields);
    checkSuggesterUpdate(existing.definition, definition);
  }
  const idx: SearchIndex = existing ?? { name: definition.name, definition, keyField, etag: '', docs: new Map() };
  idx.definition = definition;
  idx.etag = core.search.nextEtag();
  core.search.indexes.set(idx.name, idx);
  const wantsBody = !existing || name === undefined || /return=representation/i.test(ctx.header('prefer') ?? '');
  const headers: Record<string, string> = {
    etag: idx.etag,
    ...(wantsBody && existing ? { 'preference-applied': 'return=representation' } : {}),
  };
  if (!existing) headers.location = `${core.urls.search}/indexes('${idx.name}')?api-version=${ctx.queryCi('api-version')}`;
  if (!wantsBody) return { status: 204, headers };
  return { status: existing ? 200 : 201, headers, body: indexBody(core, idx), contentType: ODATA };
}

/** The search service: indexes (both URL forms), document batches, lookups, counts, simple search and autocomplete. */
export function searchService(core: SandboxCore): ServiceModule {
  const router = new Router();
  router.get('/indexes', async (ctx) => {
    checkApiVersion(ctx);
    await authorizeSearch(core, ctx, 'manage');
    const all = [...core.search.indexes.values()];
    const names = ctx.query('$select')?.trim() === 'name';
    return {
      status: 200,
      contentType: ODATA,
      body: {
        '@odata.context': `${core.urls.search}/$metadata#indexes${names ? '(name)' : ''}`,
        value: all.map((i) => (names ? { name: i.name } : { '@odata.etag': i.etag, ...i.definition })),
      },
    };
  });
  router.post('/indexes', (ctx) => upsert(core, ctx, undefined));
  for (const p of forms('')) {
    router.put(p, (ctx) => upsert(core, ctx, ctx.params.name));
    router.get(p, async (ctx) => {
      checkApiVersion(ctx);
      await authorizeSearch(core, ctx, 'manage');
      const idx = indexOf(core, ctx.params.name!);
      return { status: 200, headers: { etag: idx.etag }, contentType: ODATA, body: indexBody(core, idx) };
    });
    router.delete(p, async (ctx) => {
      checkApiVersion(ctx);
      await authorizeSearch(core, ctx, 'manage');
      if (!core.search.indexes.delete(ctx.params.name!.toLowerCase())) throw notFound(core, ctx.params.name!);
      return { status: 204 };
    });
  }
  for (const p of forms('/stats', '/search.stats')) {
    router.get(p, async (ctx) => {
      checkApiVersion(ctx);
      await authorizeSearch(core, ctx, 'manage');
      const idx = indexOf(core, ctx.params.name!);
      const size = [...idx.docs.values()].reduce((n, d) => n + JSON.stringify(d).length, 0);
      return {
        status: 200,
        contentType: ODATA,
        body: {
          '@odata.context': `${core.urls.search}/$metadata#Microsoft.Azure.Search.V2024_07_01.IndexStatistics`,
          documentCount: idx.docs.size,
          storageSize: size,
          vectorIndexSize: 0,
        },
      };
    });
  }
  for (const p of forms('/docs/index', '/docs/search.index')) {
    router.post(p, async (ctx) => {
      checkApiVersion(ctx);
      await authorizeSearch(core, ctx, 'write');
      const idx = indexOf(core, ctx.params.name!);
      const result = indexBatch(idx, await ctx.json((d) => invalid(`The request body is not valid JSON: ${d}`)));
      return { status: result.status, contentType: ODATA, body: { value: result.value } };
    });
  }
  for (const p of forms('/docs/$count')) {
    router.get(p, async (ctx) => {
      checkApiVersion(ctx);
      await authorizeSearch(core, ctx, 'read');
      return { status: 200, raw: String(indexOf(core, ctx.params.name!).docs.size), contentType: 'text/plain; charset=utf-8' };
    });
  }
  const search = async (ctx: RequestContext, q: Parameters<typeof searchDocuments>[1]): Promise<Reply> => {
    checkApiVersion(ctx);
    await authorizeSearch(core, ctx, 'read');
    const idx = indexOf(core, ctx.params.name!);
    return {
      status: 200,
      contentType: ODATA,
      body: { '@odata.context': `${core.urls.search}/indexes('${idx.name}')/$metadata#docs(*)`, ...searchDocuments(idx, q) },
    };
  };
  for (const p of forms('/docs')) {
    router.get(p, (ctx) =>
      search(ctx, {
        search: ctx.query('search'),
        filter: ctx.query('$filter'),
        top: ctx.query('$top') ? Number(ctx.query('$top')) : undefined,
        skip: ctx.query('$skip') ? Number(ctx.query('$skip')) : undefined,
        select: ctx.query('$select'),
        count: ctx.query('$count') === 'true',
      }),
    );
  }
  for (const p of forms('/docs/search', '/docs/search.post.search')) {
    router.post(p, async (ctx) => {
      const b = await ctx.json((d) => invalid(`The request body is not valid JSON: ${d}`));
      return search(ctx, { search: b.search, filter: b.filter, top: b.top, skip: b.skip, select: b.select, count: b.count });
    });
  }
  const lookup = async (ctx: RequestContext) => {
    checkApiVersion(ctx);
    await authorizeSearch(core, ctx, 'read');
    const idx = indexOf(core, ctx.params.name!);
    const doc = idx.docs.get(ctx.params.key!);
    if (!doc) throw new ServiceError(404, '', `Document with key '${ctx.params.key}' was not found.`);
    return { status: 200, contentType: ODATA, body: doc };
  };
  const complete = async (ctx: RequestContext, q: AutocompleteQuery): Promise<Reply> => {
    checkApiVersion(ctx);
    await authorizeSearch(core, ctx, 'read');
    return { status: 200, contentType: ODATA, body: autocomplete(indexOf(core, ctx.params.name!), q) };
  };
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  for (const p of forms('/docs/autocomplete', '/docs/search.autocomplete')) {
    router.get(p, (ctx) =>
      complete(ctx, {
        search: ctx.query('search'),
        suggesterName: ctx.query('suggesterName'),
        autocompleteMode: ctx.query('autocompleteMode'),
        filter: ctx.query('$filter'),
        fuzzy: ctx.query('fuzzy') === 'true',
        highlightPreTag: ctx.query('highlightPreTag'),
        highlightPostTag: ctx.query('highlightPostTag'),
        minimumCoverage: num(ctx.query('minimumCoverage')),
        searchFields: ctx.query('searchFields'),
        top: num(ctx.query('$top')),
      }),
    );
  }
  for (const p of forms('/docs/autocomplete', '/docs/search.post.autocomplete')) {
    router.post(p, async (ctx) => complete(ctx, (await ctx.json((d) => invalid(`The request body is not valid JSON: ${d}`))) ?? {}));
  }
  router.get(/^\/indexes\/(?<name>[^/()]+)\/docs\/(?<key>[^/$]+)\/?$/i, lookup);
  router.get(/^\/indexes\('(?<name>[^']*)'\)\/docs\('(?<key>[^']*)'\)\/?$/i, lookup);
  router.get('/servicestats', async (ctx) => {
    checkApiVersion(ctx);
    await authorizeSearch(core, ctx, 'manage');
    const docs = [...core.search.indexes.values()].reduce((n, i) => n + i.docs.size, 0);
    return {
      status: 200,
      contentType: ODATA,
      body: {
        counters: { documentCount: { usage: docs, quota: null }, indexesCount: { usage: core.search.indexes.size, quota: 15 } },
        limits: { maxFieldsPerIndex: 1000 },
      },
    };
  });
  return {
    name: 'search',
    router,
    errorReply: (err) => ({
      status: err.status,
      contentType: ODATA,
      body: { error: { code: err.code, message: err.message, ...err.extra } },
      headers: { ...err.headers },
    }),
    faultCode: () => '',
    commonHeaders: (ctx) => ({
      'request-id': ctx.requestId,
      'client-request-id': ctx.header('client-request-id') ?? ctx.header('x-ms-client-request-id') ?? ctx.requestId,
      'elapsed-time': '1',
      'odata-version': '4.0',
    }),
    notFound: (ctx) => new ServiceError(404, '', `The resource '${ctx.path}' was not found.`),
  };
}
