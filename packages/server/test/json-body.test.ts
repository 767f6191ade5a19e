import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';
import { checkJsonValue } from '../src/http/input-guard.js';

test('a JSON key that could set a prototype is refused with 400 naming it; other JSON errors answer as before', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const post = (payload: string) =>
    h.app.inject({ method: 'POST', url: '/api/workspaces', headers: { ...a.auth, 'content-type': 'application/json' }, payload });
  const cases: Array<[string, string]> = [
    ['{"name":"x","__proto__":{"admin":true}}', '__proto__'],
    ['{"name":"x","\\u005f_proto__":null}', '__proto__'],
    ['{"name":"x","description":{"constructor":{"prototype":{}}}}', 'description.constructor.prototype'],
  ];
  for (const [payload, field] of cases) {
    const r = await post(payload);
    assert.equal(r.statusCode, 400, r.body);
    assert.equal(r.json().ok, false);
    assert.equal(r.json().error.field, field, r.body);
  }
  const empty = await post('');
  assert.equal(empty.statusCode, 400);
  assert.match(empty.json().error.message, /empty/);
  assert.equal((await post('{bad')).statusCode, 400);
  const fine = await post('{"name":"proto \\\\u and __proto__ as text"}');
  assert.equal(fine.statusCode, 201, fine.body);
  assert.equal(fine.json().workspace.name, 'proto \\u and __proto__ as text');
  assert.equal(checkJsonValue(JSON.parse('{"a":[{"b":{"constructor":{"prototype":1}}}]}'))?.[0], 'a.0.b.constructor.prototype');
  assert.equal(checkJsonValue({ prototype: 1, constructor: 1 }), undefined);
});
