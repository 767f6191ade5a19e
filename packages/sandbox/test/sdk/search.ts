// Run by sdk-search.test.ts in its own process (NODE_EXTRA_CA_CERTS names the sandbox's test CA).
import { ClientSecretCredential } from '@azure/identity';
import { SearchClient, SearchIndexClient } from '@azure/search-documents';
import { ids, report, urls } from './outcome.js';

const sp = ids.servicePrincipals[0];
const credential = new ClientSecretCredential(ids.tenantId, sp.appId, sp.secret, {
  authorityHost: urls.identity,
  disableInstanceDiscovery: true,
});
const indexes = new SearchIndexClient(urls.search, credential);
const docs = new SearchClient<Record<string, unknown>>(urls.search, 'wards', credential);

const fields = [
  { name: 'id', type: 'Edm.String', key: true, filterable: true },
  { name: 'name', type: 'Edm.String', searchable: true },
  { name: 'unit', type: 'Edm.String', filterable: true, facetable: true },
  { name: 'beds', type: 'Edm.Int32', filterable: true, sortable: true },
] as const;

await report({
  createIndex: async () => {
    const created = await indexes.createIndex({ name: 'wards', fields: [...fields] });
    // 13.0.0 declares `etag` but hands back the deserialised `eTag` (from @odata.etag).
    return { name: created.name, fields: created.fields.map((f) => f.name), eTag: (created as { eTag?: string }).eTag };
  },
  createAgain: () => indexes.createIndex({ name: 'wards', fields: [...fields] }),
  badIndex: () =>
    indexes.createIndex({
      name: 'two-keys',
      fields: [
        { name: 'a', type: 'Edm.String', key: true },
        { name: 'b', type: 'Edm.String', key: true },
      ],
    }),
  upload: async () => {
    const r = await docs.uploadDocuments([
      { id: 'w1', name: 'North cardiology ward', unit: 'cardio', beds: 24 },
      { id: 'w2', name: 'South cardiology annex', unit: 'cardio', beds: 8 },
      { id: 'w3', name: 'East oncology ward', unit: 'onco', beds: 30 },
    ]);
    return r.results.map((x) => [x.key, x.succeeded, x.statusCode]);
  },
  search: async () => {
    const r = await docs.search('cardiology', { filter: 'beds gt 10', includeTotalCount: true, select: ['id', 'name'] });
    const hits: unknown[] = [];
    for await (const hit of r.results) hits.push({ score: hit.score, id: hit.document.id, name: hit.document.name });
    return { count: r.count, hits };
  },
  count: () => docs.getDocumentsCount(),
  lookup: () => docs.getDocument('w3'),
  missingIndex: () => indexes.getIndex('nope'),
});
