import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';

test("another tenant's workspace, item and token answer 404 exactly as an unknown id does", async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const b = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'A' } })).json().workspace;
  const item = (
    await h.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws.id}/items`,
      headers: a.auth,
      payload: { itemType: 'notebook', displayName: 'N' },
    })
  ).json().item;
  const tokenA = await a.token2(['read']);

  const unknownWs = '00000000-0000-0000-0000-000000000000';
  const probes: Array<[string, string, string, unknown?]> = [
    ['GET', `/api/workspaces/${ws.id}`, `/api/workspaces/${unknownWs}`],
    ['PATCH', `/api/workspaces/${ws.id}`, `/api/workspaces/${unknownWs}`, { name: 'x' }],
    ['DELETE', `/api/workspaces/${ws.id}`, `/api/workspaces/${unknownWs}`],
    ['GET', `/api/workspaces/${ws.id}/items`, `/api/workspaces/${unknownWs}/items`],
    ['POST', `/api/workspaces/${ws.id}/items`, `/api/workspaces/${unknownWs}/items`, { itemType: 'notebook', displayName: 'M' }],
    ['GET', `/api/workspaces/${ws.id}/items/${item.id}`, `/api/workspaces/${ws.id}/items/${unknownWs}`],
    ['GET', `/api/workspaces/${ws.id}/items/${item.id}/content`, `/api/workspaces/${ws.id}/items/${unknownWs}/content`],
    ['DELETE', `/api/tokens/${tokenA.id}`, '/api/tokens/nosuchtoken1'],
  ];
  for (const [method, theirs, unknown, payload] of probes) {
    const r1 = await h.app.inject({
      method: method as 'GET',
      url: theirs,
      headers: b.auth,
      ...(payload ? { payload: payload as object } : {}),
    });
    const r2 = await h.app.inject({
      method: method as 'GET',
      url: unknown,
      headers: b.auth,
      ...(payload ? { payload: payload as object } : {}),
    });
    assert.equal(r1.statusCode, 404, `${method} ${theirs}`);
    assert.equal(r2.statusCode, 404, `${method} ${unknown}`);
    assert.equal(r1.json().error.code, r2.json().error.code);
  }
  const listB = await h.app.inject({ method: 'GET', url: '/api/workspaces', headers: b.auth });
  assert.deepEqual(listB.json().workspaces, []);
  const tokensB = await h.app.inject({ method: 'GET', url: '/api/tokens', headers: b.auth });
  assert.ok(!tokensB.json().tokens.some((x: { id: string }) => x.id === tokenA.id));
  // A's things are intact.
  assert.equal((await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/items/${item.id}`, headers: a.auth })).statusCode, 200);
  assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: tokenA.auth })).statusCode, 200);
});
