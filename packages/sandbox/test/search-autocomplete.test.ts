import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import type { Sandbox } from '../src/index.js';

const V = 'api-version=2024-07-01';
const index = {
  name: 'guidelines',
  fields: [
    { name: 'id', type: 'Edm.String', key: true },
    { name: 'title', type: 'Edm.String', analyzer: 'en.microsoft' },
    { name: 'category', type: 'Edm.String', filterable: true },
    { name: 'tags', type: 'Collection(Edm.String)' },
  ],
  suggesters: [{ name: 'sg', searchMode: 'analyzingInfixMatching', sourceFields: ['title', 'tags'] }],
};
const docs = [
  { id: '1', title: 'Medicare coverage for diabetes', category: 'payer', tags: ['medical'] },
  { id: '2', title: 'Medicaid enrolment in Washington', category: 'payer', tags: ['medical'] },
  { id: '3', title: 'Washington medicaid renewals', category: 'state', tags: [] },
  { id: '4', title: 'Diabetes screening', category: 'clinical', tags: ['screening'] },
];

async function seeded(sb: Sandbox) {
  const token = await sb.admin.token({ audience: 'search' });
  assert.equal((await call(`${sb.urls.search}/indexes/guidelines?${V}`, { method: 'PUT', token, json: index })).status, 201);
  assert.equal((await call(`${sb.urls.search}/indexes/guidelines/docs/index?${V}`, { token, json: { value: docs } })).status, 200);
  return token;
}

test('autocomplete (GET and POST, both URL forms): completes the last term from the suggester fields, most frequent first, in each mode', async (t) => {
  const sb = await sandbox(t);
  const token = await seeded(sb);
  const get = (q: string) => call(`${sb.urls.search}/indexes/guidelines/docs/autocomplete?${V}&${q}`, { token });
  const one = await get('search=medic&suggesterName=sg');
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.value, [
    { text: 'medicaid', queryPlusText: 'medicaid' },
    { text: 'medical', queryPlusText: 'medical' },
    { text: 'medicare', queryPlusText: 'medicare' },
  ]);
  const context = await get('search=washington%20medic&suggesterName=sg&$top=1');
  assert.deepEqual(context.body.value, [{ text: 'medicaid', queryPlusText: 'washington medicaid' }]);
  const withContext = await get('search=washington%20medic&suggesterName=sg&autocompleteMode=oneTermWithContext');
  assert.deepEqual(withContext.body.value, [{ text: 'washington medicaid', queryPlusText: 'washington medicaid' }]);
  const odata = await call(
    `${sb.urls.search}/indexes('guidelines')/docs/search.autocomplete?${V}&search=medic&suggesterName=sg&autocompleteMode=twoTerms&$filter=category%20eq%20'payer'`,
    { token },
  );
  assert.deepEqual(
    odata.body.value.map((v: any) => v.text),
    ['medicaid enrolment', 'medicare coverage'],
  );
  const post = await call(`${sb.urls.search}/indexes/guidelines/docs/autocomplete?${V}`, {
    token,
    json: {
      search: 'diab',
      suggesterName: 'sg',
      searchFields: 'title',
      highlightPreTag: '<b>',
      highlightPostTag: '</b>',
      minimumCoverage: 80,
    },
  });
  assert.equal(post.status, 200, post.text);
  assert.deepEqual(post.body, { '@search.coverage': 100, value: [{ text: 'diabetes', queryPlusText: '<b>diabetes</b>' }] });
  const fuzzy = await call(`${sb.urls.search}/indexes('guidelines')/docs/search.post.autocomplete?${V}`, {
    token,
    json: { search: 'scre', suggesterName: 'sg', fuzzy: true },
  });
  assert.deepEqual(
    fuzzy.body.value.map((v: any) => v.text),
    ['screening'],
  );
  assert.deepEqual((await get('search=zzz&suggesterName=sg')).body.value, []);
  const reader = await call(`${sb.urls.search}/indexes/guidelines/docs/autocomplete?${V}&search=med&suggesterName=sg`, {
    headers: { 'api-key': sb.ids.searchQueryKey },
  });
  assert.equal(reader.status, 200, 'a query key may autocomplete');
});

test('autocomplete refusals: an unknown or missing suggester, search text, mode, $top, a field outside the suggester, an unknown index', async (t) => {
  const sb = await sandbox(t);
  const token = await seeded(sb);
  const get = (q: string, name = 'guidelines') => call(`${sb.urls.search}/indexes/${name}/docs/autocomplete?${V}&${q}`, { token });
  const cases: Array<[string, RegExp]> = [
    ['search=med&suggesterName=nope', /The specified suggester name 'nope' does not exist in this index definition/],
    ['search=med', /suggesterName/],
    ['suggesterName=sg', /search : The search text is required/],
    ['search=med&suggesterName=sg&autocompleteMode=threeTerms', /autocompleteMode/],
    ['search=med&suggesterName=sg&$top=101', /between 1 and 100/],
    ['search=med&suggesterName=sg&searchFields=category', /'category' is not a source field of the suggester 'sg'/],
    ['search=med&suggesterName=sg&highlightPreTag=%3Cb%3E', /must be set together/],
  ];
  for (const [q, message] of cases) {
    const r = await get(q);
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error.code, '');
    assert.match(r.body.error.message, /^The request is invalid\. Details: /);
    assert.match(r.body.error.message, message, q);
  }
  assert.equal((await get('search=med&suggesterName=sg', 'missing')).status, 404);
  assert.equal(
    (await call(`${sb.urls.search}/indexes/guidelines/docs/autocomplete?search=med&suggesterName=sg`, { token })).status,
    400,
    'api-version required',
  );
});
