import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';

const V = 'api-version=2024-07-01';
const key = { name: 'id', type: 'Edm.String', key: true };
const def = (fields: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'strict', fields: [key, ...fields], ...extra });
const vectorSearch = { profiles: [{ name: 'p1', algorithm: 'h1' }], algorithms: [{ name: 'h1', kind: 'hnsw' }] };

test('index attribute rules: each definition the real service refuses is a 400 in its error body, and the fields it allows pass', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  const put = (json: unknown) => call(`${sb.urls.search}/indexes/strict?${V}`, { method: 'PUT', token, json });
  const refused: Array<[unknown, RegExp]> = [
    [
      def([{ name: 'tags', type: 'Collection(Edm.String)', sortable: true }]),
      /'tags' of type 'Collection\(Edm\.String\)' cannot be sortable/,
    ],
    [
      def([{ name: 'lines', type: 'Collection(Edm.ComplexType)', fields: [{ name: 'qty', type: 'Edm.Int32', sortable: true }] }]),
      /'qty' .*cannot be sortable; sub-fields of a complex collection/,
    ],
    [def([{ name: 'where', type: 'Edm.GeographyPoint', facetable: true }]), /cannot be facetable/],
    [def([{ name: 'count', type: 'Edm.Int32', searchable: true }]), /'count' of type 'Edm\.Int32' cannot be searchable/],
    [def([{ name: 'count', type: 'Edm.Int32', analyzer: 'en.lucene' }]), /cannot set 'analyzer'; analyzers apply to searchable/],
    [
      def([{ name: 'code', type: 'Edm.String', searchable: false, analyzer: 'keyword' }]),
      /'code' of type 'Edm\.String' is not searchable and cannot set 'analyzer'/,
    ],
    [
      def([
        { name: 'body', type: 'Edm.String', analyzer: 'en.lucene', searchAnalyzer: 'standard.lucene', indexAnalyzer: 'standard.lucene' },
      ]),
      /cannot set 'analyzer' together with/,
    ],
    [
      def([{ name: 'body', type: 'Edm.String', searchAnalyzer: 'standard.lucene' }]),
      /must set 'searchAnalyzer' and 'indexAnalyzer' together/,
    ],
    [
      def([{ name: 'body', type: 'Edm.String', searchAnalyzer: 'en.lucene', indexAnalyzer: 'en.lucene' }]),
      /cannot set 'searchAnalyzer' to the language analyzer 'en\.lucene'/,
    ],
    [def([{ name: 'body', type: 'Edm.String', analyzer: 'nope.analyzer' }]), /neither a predefined analyzer nor defined in 'analyzers'/],
    [def([{ name: 'v', type: 'Collection(Edm.Single)', vectorSearchProfile: 'p1' }], { vectorSearch }), /must set 'dimensions'/],
    [def([{ name: 'v', type: 'Collection(Edm.Single)', dimensions: 3 }], { vectorSearch }), /vector search profile 'undefined'/],
    [
      def([{ name: 'v', type: 'Collection(Edm.Single)', dimensions: 3, vectorSearchProfile: 'p1', filterable: true }], { vectorSearch }),
      /vector field and cannot be filterable/,
    ],
    [
      def([{ name: 'title', type: 'Edm.String', vectorSearchProfile: 'p1' }], { vectorSearch }),
      /not a vector field and cannot set 'vectorSearchProfile'/,
    ],
    [def([{ name: 'title', type: 'Edm.String', stored: false, retrievable: false }]), /'stored' can be false only for vector fields/],
    [
      def([{ name: 'v', type: 'Collection(Edm.Single)', dimensions: 3, vectorSearchProfile: 'p1', stored: false }], { vectorSearch }),
      /'retrievable' must be false too/,
    ],
    [
      def([{ name: 'addr', type: 'Edm.ComplexType', filterable: true, fields: [{ name: 'city', type: 'Edm.String' }] }]),
      /complex field; 'filterable' must be null/,
    ],
    [
      def([{ name: 'title', type: 'Edm.String', fields: [{ name: 'x', type: 'Edm.String' }] }]),
      /is a simple field; only fields of type Edm\.ComplexType/,
    ],
    [def([{ name: 'azureSearchScore', type: 'Edm.Double' }]), /field name 'azureSearchScore' is invalid/],
    [def([{ name: '_hidden', type: 'Edm.String' }]), /field name '_hidden' is invalid/],
    [{ name: 'strict', fields: [{ ...key, retrievable: false }] }, /is the key field and must be retrievable/],
    [
      { name: 'strict', fields: [{ name: 'a', type: 'Edm.String' }] },
      /^The request is invalid\. Details: index : Found 0 key fields in index 'strict'\. Each index must have exactly one key field\.$/,
    ],
  ];
  for (const [json, message] of refused) {
    const r = await put(json);
    assert.equal(r.status, 400, JSON.stringify(json));
    assert.equal(r.body.error.code, '');
    assert.match(r.body.error.message, /^The request is invalid\. Details: /);
    assert.match(r.body.error.message, message, JSON.stringify(json));
  }
  const allowed = def(
    [
      { name: 'tags', type: 'Collection(Edm.String)', filterable: true, facetable: true, searchable: true, analyzer: 'en.microsoft' },
      { name: 'places', type: 'Collection(Edm.GeographyPoint)', filterable: true },
      { name: 'code', type: 'Edm.String', searchable: false, filterable: true, sortable: true },
      { name: 'body', type: 'Edm.String', searchAnalyzer: 'standard.lucene', indexAnalyzer: 'standard.lucene' },
      { name: 'addr', type: 'Edm.ComplexType', fields: [{ name: 'city', type: 'Edm.String', sortable: true }] },
      { name: 'lines', type: 'Collection(Edm.ComplexType)', fields: [{ name: 'qty', type: 'Edm.Int32', filterable: true }] },
      { name: 'v', type: 'Collection(Edm.Single)', dimensions: 3, vectorSearchProfile: 'p1', retrievable: false, stored: false },
    ],
    { vectorSearch },
  );
  const ok = await put(allowed);
  assert.equal(ok.status, 201, ok.text);
  const lines = ok.body.fields.find((f: any) => f.name === 'lines');
  assert.deepEqual(
    [lines.sortable, lines.fields[0].sortable, ok.body.fields.find((f: any) => f.name === 'tags').sortable],
    [null, false, false],
    'multi-valued fields default to not sortable',
  );
});

test('a property the 2024-07-01 description does not declare is refused as OData refuses it; other api-versions and unknown ones', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  const put = (json: unknown, q = V) => call(`${sb.urls.search}/indexes/strict?${q}`, { method: 'PUT', token, json });
  const onField = await put(def([{ name: 'title', type: 'Edm.String', normalizer: 'lowercase' }]));
  assert.equal(onField.status, 400);
  assert.equal(
    onField.body.error.message,
    "The request is invalid. Details: definition : The property 'normalizer' does not exist on type 'Microsoft.Azure.Search.V2024_07_01.Field'. Make sure to only use property names that are defined by the type.",
  );
  const onIndex = await put(def([], { description: 'not in this version' }));
  assert.match(
    onIndex.body.error.message,
    /The property 'description' does not exist on type 'Microsoft\.Azure\.Search\.V2024_07_01\.Index'/,
  );
  const nested = await put(
    def([], { vectorSearch: { ...vectorSearch, algorithms: [{ name: 'h1', kind: 'hnsw', hnswParameters: { m: 4, layers: 2 } }] } }),
  );
  assert.match(
    nested.body.error.message,
    /The property 'layers' does not exist on type 'Microsoft\.Azure\.Search\.V2024_07_01\.HnswParameters'/,
  );
  const bad = await put(def([], { suggesters: [{ name: 'sg', searchMode: 'prefix', sourceFields: ['id'] }] }));
  assert.equal(bad.status, 400);
  for (const q of ['api-version=2024-07-02', 'api-version=2019-01-01', 'api-version=latest']) {
    const r = await put(def([]), q);
    assert.equal(r.status, 400, q);
    assert.deepEqual(r.body, {
      error: { code: '', message: 'The version indicated by the api-version query string parameter does not exist.' },
    });
  }
  const missing = await put(def([]), '');
  assert.equal(missing.body.error.message, 'Invalid or missing api-version query string parameter.');
  assert.equal((await put(def([]), 'api-version=2023-07-01-Preview')).status, 201, 'a listed preview version, whatever its case');
  assert.equal((await put(def([]), 'api-version=2025-09-01')).status, 204, 'another listed version (an update)');
});

test('suggesters: one per index, analyzingInfixMatching, over searchable string fields with the default or a language analyzer; never over existing fields', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  const put = (json: unknown) => call(`${sb.urls.search}/indexes/strict?${V}`, { method: 'PUT', token, json });
  const fields = [
    { name: 'title', type: 'Edm.String', analyzer: 'en.microsoft' },
    { name: 'code', type: 'Edm.String', analyzer: 'keyword' },
    { name: 'hidden', type: 'Edm.String', searchable: false },
    { name: 'rank', type: 'Edm.Int32' },
    { name: 'pair', type: 'Edm.String', searchAnalyzer: 'standard.lucene', indexAnalyzer: 'standard.lucene' },
  ];
  const sg = (sourceFields: string[], extra = {}) =>
    def(fields, { suggesters: [{ name: 'sg', searchMode: 'analyzingInfixMatching', sourceFields, ...extra }] });
  const refused: Array<[unknown, RegExp]> = [
    [sg(['code']), /'code': the field uses the analyzer 'keyword'; a suggester needs the default/],
    [sg(['hidden']), /'hidden': the field is not searchable/],
    [sg(['rank']), /'rank': suggesters work on Edm\.String/],
    [sg(['pair']), /'pair': fields with 'indexAnalyzer' and 'searchAnalyzer'/],
    [sg(['nope']), /'nope': the index has no such field/],
    [
      def(fields, {
        suggesters: [
          { name: 'a', searchMode: 'analyzingInfixMatching', sourceFields: ['title'] },
          { name: 'b', searchMode: 'analyzingInfixMatching', sourceFields: ['title'] },
        ],
      }),
      /only one suggester/,
    ],
  ];
  for (const [json, message] of refused) {
    const r = await put(json);
    assert.equal(r.status, 400, JSON.stringify(json));
    assert.match(r.body.error.message, message);
  }
  assert.equal((await put(def(fields))).status, 201);
  const later = await put(sg(['title']));
  assert.equal(later.status, 400, 'a suggester cannot take a field the index already has');
  assert.match(later.body.error.message, /existing field 'title'/);
  const added = await put(
    def([...fields, { name: 'name', type: 'Edm.String' }], {
      suggesters: [{ name: 'sg', searchMode: 'analyzingInfixMatching', sourceFields: ['name'] }],
    }),
  );
  assert.equal(added.status, 204, added.text);
  const again = await put(
    def([...fields, { name: 'name', type: 'Edm.String' }], {
      suggesters: [{ name: 'sg', searchMode: 'analyzingInfixMatching', sourceFields: ['name'] }],
    }),
  );
  assert.equal(again.status, 204, 'the same definition again is no change');
});
