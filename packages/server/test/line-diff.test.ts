import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unifiedDiff } from '../src/provisioning/line-diff.js';
import { compareParts } from '../src/install/plan-compare.js';

const names = { from: 'live/a', to: 'install/a' };

test('the unified diff: hunks with three lines of context, removals before additions, nothing for equal text', () => {
  const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n');
  const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10', '11'].join('\n');
  assert.equal(
    unifiedDiff(before, after, names),
    ['--- live/a', '+++ install/a', '@@ -2,9 +2,10 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ' 9', ' 10', '+11'].join('\n'),
  );
  assert.equal(unifiedDiff('a\nb\n', 'a\r\nb', names), undefined, 'line endings and a final newline do not count');
  assert.equal(unifiedDiff('', 'x', names), ['--- live/a', '+++ install/a', '@@ -0,0 +1,1 @@', '+x'].join('\n'));
  const far = unifiedDiff(['x', ...Array(20).fill('='), 'y'].join('\n'), ['X', ...Array(20).fill('='), 'Y'].join('\n'), names)!;
  assert.equal(far.match(/^@@/gm)?.length, 2, 'changes far apart are separate hunks');
});

test('parts compare with JSON re-indented on both sides; a part one side lacks is diffed against nothing', () => {
  assert.equal(compareParts({ 'a.json': '{"x":1,"y":[1,2]}' }, { 'a.json': '{\n  "x": 1,\n  "y": [\n    1,\n    2\n  ]\n}\n' }), undefined);
  const diff = compareParts({ 'a.json': '{"x":1}', extra: 'kept' }, { 'a.json': '{"x":2}' })!;
  assert.match(diff, /^--- live\/a\.json\n\+\+\+ install\/a\.json\n@@ -1,3 \+1,3 @@\n \{\n- {2}"x": 1\n\+ {2}"x": 2\n \}/);
  assert.match(diff, /\n--- live\/extra\n\+\+\+ \/dev\/null\n@@ -1,1 \+0,0 @@\n-kept$/);
});
