import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeConflicts, jsonEqual, merge3 } from '../src/lifecycle/merge3.js';

// Shapes as the catalog holds them: a lakehouse's tables and columns, a KQL database's tables and functions.
const col = (name: string, type = 'string') => ({ name, type });
const lakehouse = (columns: unknown[], extra: Record<string, unknown> = {}) => ({
  tables: [
    { name: 'table_inventory', folder: 'Tables/table_inventory', columns, seedRows: [['a', 1]] },
    { name: 'delta_history', folder: 'Tables/delta_history', columns: [col('table_name'), col('version', 'bigint')] },
  ],
  ...extra,
});

test('equal sides, or one side unchanged from base, take the changed side', () => {
  assert.deepEqual(merge3(1, 2, 2), { merged: 2, conflicts: [] }, 'ours and theirs equal');
  assert.deepEqual(merge3(1, 1, 3), { merged: 3, conflicts: [] }, 'ours == base: theirs');
  assert.deepEqual(merge3(1, 4, 1), { merged: 4, conflicts: [] }, 'theirs == base: ours');
  assert.deepEqual(merge3({ a: [1, 2] }, { a: [1, 2] }, { a: [1, 2, 3] }).merged, { a: [1, 2, 3] });
  assert.deepEqual(merge3('x', 'x', 'x'), { merged: 'x', conflicts: [] });
});

test('scalars changed differently on both sides are a conflict that keeps ours; the whole value has the empty pointer', () => {
  const r = merge3('python', 'sql', 'scala');
  assert.equal(r.merged, 'sql');
  assert.deepEqual(r.conflicts, [{ path: '', base: 'python', ours: 'sql', theirs: 'scala' }]);
  const t = merge3(1, 'one', null);
  assert.equal(t.merged, 'one');
  assert.equal(t.conflicts.length, 1, 'a change of type on both sides conflicts too');
});

test('objects merge key by key: each side keeps its own change, key order and unchanged keys are kept', () => {
  const r = merge3({ a: 1, b: 2, c: 3 }, { a: 10, b: 2, c: 3, mine: true }, { c: 3, b: 20, a: 1, theirs: 'x' });
  assert.deepEqual(r.conflicts, []);
  assert.deepEqual(r.merged, { a: 10, b: 20, c: 3, mine: true, theirs: 'x' });
  assert.deepEqual(Object.keys(r.merged as object), ['a', 'b', 'c', 'mine', 'theirs'], "ours' keys first, then theirs' additions");
  assert.deepEqual(
    merge3({ n: { x: 1, y: 1 } }, { n: { x: 2, y: 1 } }, { n: { x: 1, y: 3 } }).merged,
    { n: { x: 2, y: 3 } },
    'nested objects recurse',
  );
});

test('a key deleted on one side and unchanged on the other is deleted; deleted and changed is a conflict keeping ours', () => {
  assert.deepEqual(merge3({ a: 1, b: 2 }, { a: 1 }, { a: 5, b: 2 }), { merged: { a: 5 }, conflicts: [] }, 'ours deleted b');
  assert.deepEqual(merge3({ a: 1, b: 2 }, { a: 7, b: 2 }, { a: 1 }), { merged: { a: 7 }, conflicts: [] }, 'theirs deleted b');
  const oursDeleted = merge3({ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 3 });
  assert.deepEqual(oursDeleted.merged, { a: 1 }, 'ours (deleted) is kept');
  assert.deepEqual(oursDeleted.conflicts, [{ path: '/b', base: 2, ours: undefined, theirs: 3 }]);
  const theirsDeleted = merge3({ a: 1, b: 2 }, { a: 1, b: 4 }, { a: 1 });
  assert.deepEqual(theirsDeleted.merged, { a: 1, b: 4 }, 'ours (changed) is kept');
  assert.deepEqual(theirsDeleted.conflicts, [{ path: '/b', base: 2, ours: 4, theirs: undefined }]);
  assert.deepEqual(
    merge3({ a: 1 }, { a: 1, b: 1 }, { a: 1, b: 2 }).conflicts,
    [{ path: '/b', base: undefined, ours: 1, theirs: 2 }],
    'added on both sides differently',
  );
  assert.deepEqual(merge3({ a: 1, b: 2 }, { a: 1 }, { a: 1 }), { merged: { a: 1 }, conflicts: [] }, 'deleted on both sides');
});

test('arrays of elements known by name merge element-wise: theirs order, then ours additions', () => {
  const base = [col('a'), col('b'), col('c')];
  const ours = [col('a'), col('b', 'int'), col('c'), col('mine')];
  const theirs = [col('c'), col('a', 'bigint'), col('b'), col('new')];
  const r = merge3(base, ours, theirs);
  assert.deepEqual(r.conflicts, []);
  assert.deepEqual(r.merged, [col('c'), col('a', 'bigint'), col('b', 'int'), col('new'), col('mine')]);
  assert.deepEqual(
    merge3(base, [col('a'), col('c')], [col('a'), col('b'), col('c', 'int')]).merged,
    [col('a'), col('c', 'int')],
    'an element ours deleted and theirs kept is deleted',
  );
  assert.deepEqual(
    merge3(base, [col('a', 'x'), col('b'), col('c')], [col('a'), col('c')]).merged,
    [col('a', 'x'), col('c')],
    'an element theirs deleted and ours kept is deleted',
  );
});

test('an element deleted on one side and changed on the other is a conflict keeping ours, its pointer its index in ours', () => {
  const base = [col('a'), col('b'), col('c')];
  const r = merge3(base, [col('a'), col('b'), col('c', 'int')], [col('a'), col('b')]);
  assert.deepEqual(r.merged, [col('a'), col('b'), col('c', 'int')], 'the element ours changed stays');
  assert.deepEqual(r.conflicts, [{ path: '/2', base: col('c'), ours: col('c', 'int'), theirs: undefined }]);
  const d = merge3(base, [col('a'), col('c')], [col('a'), col('b', 'int'), col('c')]);
  assert.deepEqual(d.merged, [col('a'), col('c')], 'the element ours deleted stays deleted');
  assert.deepEqual(
    d.conflicts,
    [{ path: '/1', base: col('b'), ours: undefined, theirs: col('b', 'int') }],
    'indexed in theirs when ours lacks it',
  );
});

test('elements are known by key or id when they have no name; name wins when all have it', () => {
  const items = (...v: Array<[string, number]>) => v.map(([key, n]) => ({ key, n }));
  assert.deepEqual(
    merge3(items(['x', 1], ['y', 1]), items(['x', 2], ['y', 1]), items(['y', 3], ['x', 1], ['z', 1])).merged,
    items(['y', 3], ['x', 2], ['z', 1]),
  );
  const part = (id: string, payload = '') => ({ id, payload });
  assert.deepEqual(merge3([part('p')], [part('p', 'mine'), part('q')], [part('p'), part('r')]).merged, [
    part('p', 'mine'),
    part('r'),
    part('q'),
  ]);
  const both = (name: string, id: string, v: number) => ({ name, id, v });
  const r = merge3([both('a', '1', 0)], [both('a', '2', 1)], [both('a', '1', 0), both('b', '3', 0)]);
  assert.deepEqual(r.merged, [both('a', '2', 1), both('b', '3', 0)], 'matched by name although the id changed');
});

test('arrays without an identity for every element are atomic: both changed differently is a conflict keeping ours', () => {
  const cells = (...s: string[]) => s.map((source) => ({ kind: 'code', source }));
  const r = merge3({ cells: cells('a', 'b') }, { cells: cells('a', 'B') }, { cells: cells('a', 'b', 'c') });
  assert.deepEqual(r.merged, { cells: cells('a', 'B') });
  assert.deepEqual(r.conflicts, [{ path: '/cells', base: cells('a', 'b'), ours: cells('a', 'B'), theirs: cells('a', 'b', 'c') }]);
  assert.deepEqual(merge3([1, 2], [1, 2, 3], [0, 1, 2]).conflicts.length, 1, 'scalar arrays are atomic');
  const mixed = merge3([col('a')], [col('a'), { type: 'x' }], [col('a'), col('b')]);
  assert.equal(mixed.conflicts.length, 1, 'one element without a name makes the array atomic');
  const dup = merge3([col('a')], [col('a'), col('a', 'int')], [col('a'), col('b')]);
  assert.equal(dup.conflicts.length, 1, 'a name used twice is no identity');
});

test('a lakehouse: a column added by the new version merges with a column the user added to another table', () => {
  const base = lakehouse([col('lakehouse_name'), col('table_name')]);
  const theirs = lakehouse([col('lakehouse_name'), col('table_name'), col('scan_id')]);
  const ours = structuredClone(base);
  ours.tables[1]!.columns.push(col('user_note'));
  const r = merge3(base, ours, theirs);
  assert.deepEqual(r.conflicts, []);
  const merged = r.merged as typeof base;
  assert.deepEqual(
    merged.tables[0]!.columns.map((c) => (c as { name: string }).name),
    ['lakehouse_name', 'table_name', 'scan_id'],
  );
  assert.deepEqual(
    merged.tables[1]!.columns.map((c) => (c as { name: string }).name),
    ['table_name', 'version', 'user_note'],
  );
  assert.deepEqual(merged.tables[0]!.seedRows, [['a', 1]]);
});

test('a lakehouse: both sides changing the same column differently conflict at that column; the rest merges', () => {
  const base = lakehouse([col('a'), col('b')]);
  const ours = lakehouse([col('a', 'int'), col('b')], { files: ['Files/raw'] });
  const theirs = lakehouse([col('a', 'bigint'), col('b'), col('c')]);
  const r = merge3(base, ours, theirs);
  assert.deepEqual(r.conflicts, [{ path: '/tables/0/columns/0/type', base: 'string', ours: 'int', theirs: 'bigint' }]);
  assert.deepEqual(r.merged, lakehouse([col('a', 'int'), col('b'), col('c')], { files: ['Files/raw'] }));
  assert.deepEqual(
    merge3(base, lakehouse([col('a'), col('b')], {}), theirs).merged,
    theirs,
    'an unedited item takes the new version whole',
  );
});

test('a KQL database: tables and functions by name, seed rows atomic', () => {
  const fn = (name: string, body: string) => ({ name, parameters: '()', docstring: name, body });
  const table = (name: string, seedRows: unknown[][], ...cols: string[]) => ({ name, columns: cols.map((c) => col(c)), seedRows });
  const base = { database: 'CloudCost', tables: [table('CostUsage', [['x']], 'Timestamp')], functions: [fn('Daily', 'CostUsage')] };
  const ours = {
    database: 'CloudCost',
    tables: [table('CostUsage', [['mine']], 'Timestamp')],
    functions: [fn('Daily', 'CostUsage | take 10'), fn('Mine', 'print 1')],
  };
  const theirs = {
    database: 'CloudCost',
    tables: [table('CostUsage', [['theirs']], 'Timestamp', 'Region'), table('Budgets', [], 'Team')],
    functions: [fn('Daily', 'CostUsage'), fn('Weekly', 'CostUsage | summarize by bin(Timestamp, 7d)')],
  };
  const r = merge3(base, ours, theirs);
  assert.deepEqual(
    r.conflicts.map((c) => c.path),
    ['/tables/0/seedRows'],
  );
  assert.deepEqual(r.merged, {
    database: 'CloudCost',
    tables: [table('CostUsage', [['mine']], 'Timestamp', 'Region'), table('Budgets', [], 'Team')],
    functions: [fn('Daily', 'CostUsage | take 10'), fn('Weekly', 'CostUsage | summarize by bin(Timestamp, 7d)'), fn('Mine', 'print 1')],
  });
});

test('pointers escape ~ and / (RFC 6901); inputs are not changed', () => {
  const base = { 'a/b': { '~x': 1 } };
  const ours = { 'a/b': { '~x': 2 } };
  const theirs = { 'a/b': { '~x': 3 } };
  const frozen = [base, ours, theirs].map((v) => JSON.stringify(v));
  assert.deepEqual(
    merge3(base, ours, theirs).conflicts.map((c) => c.path),
    ['/a~1b/~0x'],
  );
  assert.deepEqual(
    [base, ours, theirs].map((v) => JSON.stringify(v)),
    frozen,
  );
});

test('jsonEqual ignores key order and absent keys, not array order', () => {
  assert.ok(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
  assert.ok(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
  assert.ok(!jsonEqual([1, 2], [2, 1]));
  assert.ok(!jsonEqual({ a: null }, {}));
  assert.ok(!jsonEqual([], {}));
});

test('describeConflicts: one readable line per conflict, long values cut', () => {
  const text = describeConflicts([
    { path: '/cells', base: 1, ours: 2, theirs: 3 },
    { path: '/tables/2', base: col('c'), ours: undefined, theirs: col('c', 'int') },
    { path: '/files', base: ['a'], ours: ['b'], theirs: undefined },
    { path: '', base: 'x'.repeat(200), ours: 'o', theirs: 't' },
  ]);
  const lines = text.split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[0], '/cells: you changed it to 2, the new version to 3 (was 1)');
  assert.equal(lines[1], '/tables/2: you removed it, the new version changed it to {"name":"c","type":"int"}');
  assert.equal(lines[2], '/files: the new version removes it, you changed it to ["b"]');
  assert.match(lines[3]!, /^\(whole content\): you changed it to "o", the new version to "t" \(was "x{78}…\)$/);
  assert.equal(describeConflicts([]), '');
});
