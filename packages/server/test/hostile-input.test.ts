// Hostile input: malformed and oversized requests, deep nesting, ids with path characters, unicode and control
// characters in names, targetOverrides aimed at other hosts, and a backing service redirecting elsewhere. Each is
// refused with a 4xx naming what is wrong (or accepted and answered back byte for byte), and changes nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { build } from './helpers.js';
import { buildWithSandbox, OPERATOR, stepOf, workspace } from './install-helpers.js';
import { randomUUID } from 'node:crypto';

/** Sends raw bytes to a listening server and resolves with the status line's code (the server may close early). */
function rawStatus(port: number, request: string | Buffer): Promise<number> {
  return rawAnswer(port, request).then((a) => a.status);
}

/** Sends raw bytes and resolves with the answer's status and body. */
function rawAnswer(port: number, request: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) =>
      answer ? undefined : e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e),
    );
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (m) resolve({ status: Number(m[1]), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
      else reject(new Error(`no HTTP answer: ${JSON.stringify(answer.slice(0, 200))}`));
    });
    socket.write(request);
  });
}

test('malformed, mistyped, oversized and deeply nested requests are 4xx with a code; nothing is stored', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const ws = await workspace(h, a, 'hostile');
  const send = (
    method: string,
    url: string,
    payload: string | Buffer,
    contentType = 'application/json',
    headers: Record<string, string> = {},
  ) => h.app.inject({ method: method as 'POST', url, payload, headers: { ...a.auth, 'content-type': contentType, ...headers } });
  const expectError = (r: { statusCode: number; json(): any; body: string }, status: number, code: string, label: string) => {
    assert.equal(r.statusCode, status, `${label}: ${r.body}`);
    assert.equal(r.json().ok, false, label);
    assert.equal(r.json().error.code, code, `${label}: ${r.body}`);
    assert.ok(r.json().error.message.length > 0, label);
  };

  await t.test('malformed JSON → 400 invalid_request', async () => {
    for (const body of ['{"name": ', '{name: "x"}', '{"name": "x",}', '\u0000', 'null null', '{"name":"x"}garbage']) {
      expectError(await send('POST', '/api/workspaces', body), 400, 'invalid_request', `body ${JSON.stringify(body)}`);
    }
    expectError(await send('POST', '/api/workspaces', ''), 400, 'invalid_request', 'empty JSON body');
  });

  await t.test('invalid UTF-8 in a JSON body → 400 naming the body, never stored as U+FFFD', async () => {
    const count = async () =>
      (await h.app.inject({ method: 'GET', url: '/api/workspaces?limit=200', headers: a.auth })).json().workspaces.length;
    const before = await count();
    // A stray byte, an overlong '/', a UTF-8-encoded surrogate (CESU), a truncated sequence, a lone continuation byte.
    for (const bytes of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80]]) {
      const bad = Buffer.from(bytes);
      for (const [url, head, tail] of [
        ['/api/workspaces', '{"name":"bad ', '"}'],
        ['/api/workspaces', '{"name":"fine","description":"bad ', '"}'],
        [`/api/workspaces/${ws}/items`, '{"itemType":"notebook","displayName":"bad ', '"}'],
        ['/api/tokens', '{"scopes":["read"],"name":"bad ', '"}'],
      ] as const) {
        const r = await send('POST', url, Buffer.concat([Buffer.from(head), bad, Buffer.from(tail)]));
        expectError(r, 400, 'invalid_request', `${url} with ${bad.toString('hex')}`);
        assert.equal(r.json().error.field, 'body', r.body);
        assert.match(r.json().error.message, /UTF-8/, r.body);
      }
    }
    assert.equal(await count(), before, 'nothing was stored');
    const fine = await send('POST', '/api/workspaces', Buffer.from('{"name":"caf\u00e9 \u{1F9EA}"}', 'utf8'));
    assert.equal(fine.statusCode, 201, fine.body);
  });

  await t.test("'__proto__' and 'constructor.prototype' keys → 400 saying so, naming the field; no prototype changes", async () => {
    for (const [url, body, field] of [
      ['/api/workspaces', '{"name":"p","__proto__":{"polluted":true}}', '__proto__'],
      ['/api/workspaces', '{"name":"p","\\u005f_proto__":{"polluted":true}}', '__proto__'],
      ['/api/workspaces', '{"name":"p","constructor":{"prototype":{"polluted":true}}}', 'constructor.prototype'],
      [
        `/api/workspaces/${ws}/items`,
        '{"itemType":"notebook","displayName":"p","content":{"cells":[{"__proto__":{"polluted":true}}]}}',
        'content.cells.0.__proto__',
      ],
    ] as const) {
      const r = await send('POST', url, body);
      expectError(r, 400, 'invalid_request', body);
      assert.equal(r.json().error.field, field, r.body);
      assert.match(
        r.json().error.message,
        field.endsWith('__proto__') ? /'__proto__'.*not accepted/ : /'constructor\.prototype'.*not accepted/,
        r.body,
      );
      assert.doesNotMatch(r.json().error.message, /not valid JSON/, r.body);
    }
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });

  await t.test('names made only of whitespace or invisible characters → 400 naming the field', async () => {
    const item = (await send('POST', `/api/workspaces/${ws}/items`, JSON.stringify({ itemType: 'notebook', displayName: 'named' }))).json()
      .item;
    const blank = [
      '\u200B',
      '\u200B\u200C\u200D',
      '\u2060',
      '\uFEFF',
      '\u00A0',
      '\u3000',
      ' \u200B\t',
      '\u00AD',
      '\u180E',
      '\u3164',
      '\u2028',
      '\u202E\u2066',
      '\uFE0F',
      '\u200E\u200F',
    ];
    for (const name of blank) {
      for (const [method, url, payload, field] of [
        ['POST', '/api/workspaces', { name }, 'name'],
        ['PATCH', `/api/workspaces/${ws}`, { name }, 'name'],
        ['POST', `/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: name }, 'displayName'],
        ['PATCH', `/api/workspaces/${ws}/items/${item.id}`, { displayName: name }, 'displayName'],
        ['POST', '/api/tokens', { name, scopes: ['read'] }, 'name'],
        ['POST', `/api/items/paginated-report?workspaceId=${ws}`, { name, definition: '<Report/>' }, 'name'],
        ['POST', `/api/items/paginated-report/r1/clone?workspaceId=${ws}`, { name }, 'name'],
        [
          'POST',
          '/api/admin/identity/credentials',
          { displayName: name, clientId: '00000000-0000-4000-8000-0000000000c1', keyId: 'k1', expiresAt: '2030-01-01T00:00:00Z' },
          'displayName',
        ],
        [
          'POST',
          `/api/admin/identity/workspaces/${ws}/firewall-rules`,
          { name, startIpAddress: '10.0.0.1', endIpAddress: '10.0.0.2' },
          'name',
        ],
      ] as const) {
        const r = await send(method, url, JSON.stringify(payload));
        expectError(r, 400, 'invalid_request', `${method} ${url} ${JSON.stringify(name)}`);
        assert.equal(r.json().error.field, field, r.body);
        assert.match(r.json().error.message, /must contain a visible character/, r.body);
      }
    }
    // A zero-width joiner inside an emoji sequence, or around visible text, is still a name.
    for (const name of ['\u{1F469}\u200D\u{1F4BB}', '\u200Bvisible\u200B']) {
      const r = await send('POST', '/api/workspaces', JSON.stringify({ name }));
      assert.equal(r.statusCode, 201, r.body);
    }
  });

  await t.test('a content type other than JSON → 415 unsupported_media_type', async () => {
    for (const [type, body] of [
      ['text/plain', 'name=x'],
      ['application/xml', '<name>x</name>'],
      ['application/x-www-form-urlencoded', 'name=x'],
      ['multipart/form-data; boundary=x', '--x--'],
      ['application/json-patch+json', '[]'],
    ]) {
      expectError(await send('POST', '/api/workspaces', body!, type), 415, 'unsupported_media_type', type!);
    }
  });

  await t.test('a body over the limit → 413 body_too_large', async () => {
    const huge = JSON.stringify({ name: 'x', description: 'd'.repeat(2 * 1024 * 1024) });
    expectError(await send('POST', '/api/workspaces', huge), 413, 'body_too_large', '2 MiB body');
    expectError(
      await send('PUT', `/api/workspaces/${ws}/items/none/content`, huge, 'application/json', { 'if-match': '*' }),
      413,
      'body_too_large',
      '2 MiB content',
    );
  });

  await t.test('deeply nested JSON → 400 naming the field, never a crash', async () => {
    for (const depth of [65, 1_000, 100_000, 400_000]) {
      const arrays = `{"itemType":"notebook","displayName":"deep ${depth}","content":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const r = await send('POST', `/api/workspaces/${ws}/items`, arrays);
      expectError(r, 400, 'invalid_request', `arrays ${depth} deep`);
      assert.equal(r.json().error.field, 'content');
      const levels = Math.min(depth, 150_000); // 5 bytes a level: more would be over the body limit (413)
      const objects = `{"name":"n","description":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
      expectError(await send('POST', '/api/workspaces', objects), 400, 'invalid_request', `objects ${depth} deep`);
    }
    // 64 levels is still accepted, and stored as given.
    const ok = { itemType: 'notebook', displayName: 'nested 63', content: JSON.parse(`${'['.repeat(63)}${']'.repeat(63)}`) };
    const r = await h.app.inject({ method: 'POST', url: `/api/workspaces/${ws}/items`, headers: a.auth, payload: ok });
    assert.equal(r.statusCode, 201, r.body);
    const content = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items/${r.json().item.id}/content`, headers: a.auth });
    assert.equal(JSON.stringify(content.json().content), JSON.stringify(ok.content));
    // The service still answers afterwards.
    assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: a.auth })).statusCode, 200);
  });

  await t.test('ids with path characters → 400 or 404, and no other resource is touched', async () => {
    const other = await workspace(h, a, 'bystander');
    const item = (
      await h.app.inject({
        method: 'POST',
        url: `/api/workspaces/${other}/items`,
        headers: a.auth,
        payload: { itemType: 'notebook', displayName: 'bystander item' },
      })
    ).json().item;
    const ids = [
      '..%2F..%2Fapi%2Ftokens',
      '..%2F' + other,
      '%00',
      `${other}%00`,
      '%2e%2e',
      '..',
      'a%2Fb',
      '%252e%252e%252f',
      `${other}%2F..`,
      '%E2%80%AE',
      `${other}%20`,
      '*',
    ];
    for (const id of ids) {
      for (const [method, url] of [
        ['GET', `/api/workspaces/${id}`],
        ['DELETE', `/api/workspaces/${id}`],
        ['PATCH', `/api/workspaces/${id}`],
        ['GET', `/api/workspaces/${other}/items/${id}`],
        ['DELETE', `/api/workspaces/${other}/items/${id}`],
        ['DELETE', `/api/tokens/${id}`],
      ] as const) {
        const r = await h.app.inject({ method, url, headers: a.auth, ...(method === 'PATCH' ? { payload: { name: 'renamed' } } : {}) });
        assert.ok([400, 404].includes(r.statusCode), `${method} ${url}: ${r.statusCode} ${r.body}`);
        assert.equal(r.json().ok, false);
      }
    }
    // An over-long id is a 400 naming the parameter (its schema), not the router's own 414 without the envelope.
    for (const long of ['a'.repeat(65), 'a'.repeat(5000), encodeURIComponent('\u0345'.repeat(400))]) {
      const r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${long}`, headers: a.auth });
      expectError(r, 400, 'invalid_request', `id of ${long.length} characters`);
      assert.equal(r.json().error.field, 'workspaceId');
    }
    assert.equal(
      (await h.app.inject({ method: 'GET', url: `/api/workspaces/${other}`, headers: a.auth })).json().workspace.name,
      'bystander',
    );
    assert.equal(
      (await h.app.inject({ method: 'GET', url: `/api/workspaces/${other}/items/${item.id}`, headers: a.auth })).statusCode,
      200,
    );
    assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: a.auth })).statusCode, 200);
  });

  await t.test('unicode and control characters in names: stored byte for byte, or 400 naming the field', async () => {
    const accepted = [
      'emoji 🧪🚀',
      'e\u0301 combining',
      'right-to-left \u202Eevil.exe',
      'zero\u200Bwidth',
      '中文 العربية עברית',
      'tab\there',
      'line\r\nbreak',
      'bell\u0007',
      'c1\u0085',
      '<b>tags</b> & "quotes"',
      'inner\uFEFFbom',
      'max \u{10FFFF}',
    ];
    const refused = ['nul\u0000byte', 'lone \uD800 high', 'lone \uDC00 low', 'reversed \uDC00\uD800'];
    for (const name of accepted) {
      const w = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name } });
      assert.equal(w.statusCode, 201, `${JSON.stringify(name)}: ${w.body}`);
      const read = await h.app.inject({ method: 'GET', url: `/api/workspaces/${w.json().workspace.id}`, headers: a.auth });
      assert.equal(Buffer.compare(Buffer.from(read.json().workspace.name, 'utf8'), Buffer.from(name, 'utf8')), 0, JSON.stringify(name));
      const i = await h.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws}/items`,
        headers: a.auth,
        payload: { itemType: 'notebook', displayName: name, description: name },
      });
      assert.equal(i.statusCode, 201, `${JSON.stringify(name)}: ${i.body}`);
      const got = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items/${i.json().item.id}`, headers: a.auth })).json()
        .item;
      assert.equal(got.displayName, name);
      assert.equal(got.description, name);
    }
    // The one normalization: surrounding whitespace of a name is trimmed (so 'x' and 'x ' are the same name).
    const padded = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: ' \tpadded\u00A0 ' } });
    assert.equal(padded.json().workspace.name, 'padded');
    const before = (await h.app.inject({ method: 'GET', url: '/api/workspaces?limit=200', headers: a.auth })).json().workspaces.length;
    for (const name of refused) {
      // JSON.stringify writes a lone surrogate as a \u escape, so the service sees exactly this string.
      for (const [url, payload, field] of [
        ['/api/workspaces', { name }, 'name'],
        ['/api/workspaces', { name: 'fine', description: name }, 'description'],
        [`/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: name }, 'displayName'],
        [`/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: 'fine', content: { cell: [name] } }, 'content.cell.0'],
        ['/api/tokens', { name, scopes: ['read'] }, 'name'],
      ] as const) {
        const r = await h.app.inject({
          method: 'POST',
          url,
          headers: { ...a.auth, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expectError(r, 400, 'invalid_request', `${url} ${JSON.stringify(name)}`);
        assert.equal(r.json().error.field, field, r.body);
      }
    }
    assert.equal(
      (await h.app.inject({ method: 'GET', url: '/api/workspaces?limit=200', headers: a.auth })).json().workspaces.length,
      before,
    );
    assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: a.auth })).statusCode, 200);
  });

  await t.test('through a real socket: a huge header → 431, a huge declared body → 413', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const bigHeader = `GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.token}\r\nX-Filler: ${'a'.repeat(64 * 1024)}\r\nConnection: close\r\n\r\n`;
    const tooBig = await rawAnswer(port, bigHeader);
    assert.equal(tooBig.status, 431);
    assert.deepEqual(JSON.parse(tooBig.body).error.code, 'headers_too_large', 'the 431 carries the error envelope');
    const longUrl = await rawAnswer(
      port,
      `GET /api/workspaces?cursor=${'c'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(longUrl.status, 431);
    assert.equal(JSON.parse(longUrl.body).ok, false);
    const manyHeaders = `GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\n${Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${'v'.repeat(16)}\r\n`).join('')}Connection: close\r\n\r\n`;
    assert.equal(await rawStatus(port, manyHeaders), 431);
    const bigBody = `POST /api/workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.token}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\nConnection: close\r\n\r\n{"name":"`;
    assert.equal(await rawStatus(port, bigBody), 413);
    // The server still serves afterwards.
    const r = await fetch(`http://127.0.0.1:${port}/api/whoami`, { headers: a.auth });
    assert.equal(r.status, 200);
  });
});

test('targetOverrides aimed at other hosts → 400 naming the field, and no backing request is made', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const hostile = [
    'https://attacker.example.com',
    'attacker.example.com',
    'http://169.254.169.254/metadata/identity/oauth2/token',
    'https://kusto.windows.net@attacker.example.com',
    'https://attacker.example.com/.kusto.windows.net',
    'https://attacker.example.com#.kusto.windows.net',
    'http://127.0.0.2:80',
    'http://0.0.0.0:80',
    'file:///etc/passwd',
    'https://[::ffff:a9fe:a9fe]/',
    'gopher://attacker.example.com:70/',
  ];
  const before = (await sandbox.admin.requests()).length;
  const jobsBefore = (await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs?workspaceId=${ws}`, headers: tenant.auth })).json()
    .jobs.length;
  for (const field of ['kqlClusterUri', 'searchService', 'warehouseServer', 'lakeAccount']) {
    for (const value of hostile) {
      const r = await h.app.inject({
        method: 'POST',
        url: '/api/apps/app-casino-analytics/install',
        headers: tenant.auth,
        payload: { workspaceId: ws, mode: 'dedicated', targetOverrides: { [field]: value } },
      });
      assert.equal(r.statusCode, 400, `${field}=${value}: ${r.body}`);
      assert.equal(r.json().error.field, `targetOverrides.${field}`, r.body);
    }
  }
  assert.equal((await sandbox.admin.requests()).length, before, 'a refused override made a backing request');
  assert.equal(
    (await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs?workspaceId=${ws}`, headers: tenant.auth })).json().jobs.length,
    jobsBefore,
  );
});

test('a backing service redirecting to another host is not followed: the token never reaches it', async (t) => {
  // The stand-in backing host (the dedicated KQL cluster of the override) redirects every call; the host it points to
  // records what reaches it.
  const reached: Array<{ url?: string; authorization?: string }> = [];
  const elsewhere = http.createServer((req, res) => {
    reached.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
  const elsewherePort = (elsewhere.address() as AddressInfo).port;
  const redirected: Array<{ url?: string; authorized: boolean }> = [];
  const redirecting = http.createServer((req, res) => {
    redirected.push({ url: req.url, authorized: Boolean(req.headers.authorization) });
    req.resume();
    const target =
      redirected.length % 2 ? `http://127.0.0.1:${elsewherePort}/collect${req.url}` : `http://localhost:${elsewherePort}/collect${req.url}`;
    res.writeHead(req.method === 'GET' ? 302 : 307, { location: target }).end();
  });
  await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
  t.after(() => {
    elsewhere.close();
    redirecting.close();
  });

  const { h, tenant, sandbox } = await buildWithSandbox(t, { SVC_BACKING_RETRY_DELAY_MS: '50' });
  const ws = await workspace(h, tenant);
  // The redirecting cluster is one the operator assigned to the tenant (a dedicated install takes no other); its
  // databases are created through the sandbox's resource manager, its data plane is the redirecting server.
  await h.services.tenancy.assignTarget(OPERATOR, tenant.tenantId, {
    kind: 'kql-cluster',
    address: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
    resourceId: sandbox.env.SVC_KQL_CLUSTER_NAME,
  });
  const start = await h.app.inject({
    method: 'POST',
    url: '/api/apps/app-casino-analytics/install',
    headers: tenant.auth,
    payload: {
      workspaceId: ws,
      mode: 'dedicated',
      targetOverrides: { kqlClusterUri: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`, kqlDatabase: 'redirected' },
    },
  });
  assert.equal(start.statusCode, 202, start.body);
  const { jobId } = start.json();
  let job: any;
  for (const deadline = Date.now() + 120_000; ; ) {
    job = (await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${jobId}`, headers: tenant.auth })).json().job;
    if (job.status !== 'running') break;
    assert.ok(Date.now() < deadline, 'the install did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(redirected.length > 0, 'the install never called the overridden KQL cluster');
  assert.deepEqual(reached, [], 'a redirect was followed to another host');
  const kql = stepOf(job, 'kql-database');
  assert.notEqual(kql.status, 'succeeded', JSON.stringify(kql));
  assert.match(JSON.stringify(kql), /redirect_refused|another host/, JSON.stringify(kql));
});

test('an identity operation naming a platform workspace the backing service does not know → 404 with its text, not a 5xx', async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  // Assigned to the tenant by the operator, unknown to the data platform: its 404 and text come back.
  const unknown = randomUUID();
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, tenant.tenantId, unknown);
  const calls = (ws: string) =>
    [
      ['GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`, undefined],
      ['GET', `/api/admin/identity/workspaces/${ws}/firewall-check?ip=10.0.0.1`, undefined],
      ['POST', `/api/admin/identity/workspaces/${ws}/firewall-rules`, { name: 'r', startIpAddress: '10.0.0.1', endIpAddress: '10.0.0.2' }],
      ['GET', `/api/admin/identity/workspaces/${ws}/role-assignments`, undefined],
    ] as const;
  for (const [method, url, payload] of calls(unknown)) {
    const r = await h.app.inject({ method, url, headers: tenant.auth, ...(payload ? { payload } : {}) });
    assert.equal(r.statusCode, 404, `${method} ${url}: ${r.body}`);
    assert.equal(r.json().error.code, 'backing_refused');
    assert.match(r.json().error.message, /WorkspaceNotFound/, 'the backing service’s text, unmodified');
  }
  // Not a GUID: 400 naming the parameter, before anything is sent. Not assigned to the tenant: 404, ours.
  for (const [method, url, payload] of calls('no-such-workspace')) {
    const r = await h.app.inject({ method, url, headers: tenant.auth, ...(payload ? { payload } : {}) });
    assert.equal(r.statusCode, 400, `${method} ${url}: ${r.body}`);
    assert.match(r.json().error.message, /workspaceId/);
  }
  for (const [method, url, payload] of calls(randomUUID())) {
    const r = await h.app.inject({ method, url, headers: tenant.auth, ...(payload ? { payload } : {}) });
    assert.equal(r.statusCode, 404, `${method} ${url}: ${r.body}`);
    assert.equal(r.json().error.code, 'not_found');
  }
});

test('an event stream asked to resume past the end of a finished job ends at once instead of waiting forever', async (t) => {
  const h = await build(t, { SVC_WORKER_POLL_MS: '100' });
  const a = await h.tenant();
  const ws = await workspace(h, a);
  const start = await h.app.inject({
    method: 'POST',
    url: '/api/apps/app-casino-analytics/install',
    headers: a.auth,
    payload: { workspaceId: ws, deploy: false },
  });
  assert.equal(start.statusCode, 202, start.body);
  const { jobId } = start.json();
  for (const deadline = Date.now() + 60_000; ; ) {
    const job = (await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${jobId}`, headers: a.auth })).json().job;
    if (job.status !== 'running') break;
    assert.ok(Date.now() < deadline, 'the install did not finish');
    await new Promise((r) => setTimeout(r, 100));
  }
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/api/apps/install-jobs/${jobId}/events`;
  const all = await (await fetch(url, { headers: a.auth, signal: AbortSignal.timeout(15_000) })).text();
  const ids = [...all.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  assert.match(all, /^event: done$/m);
  for (const lastEventId of [String(ids.at(-1)), '999999999']) {
    const started = Date.now();
    const r = await fetch(url, { headers: { ...a.auth, 'last-event-id': lastEventId }, signal: AbortSignal.timeout(15_000) });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '', `nothing after event ${lastEventId}`);
    assert.ok(Date.now() - started < 5_000, `the stream after ${lastEventId} took ${Date.now() - started} ms to end`);
  }
});

test('date-times JavaScript cannot read back (year 0000, past 9999 in UTC) are 400 naming the field; nothing is stored', async (t) => {
  const h = await build(t);
  const tenant = await h.tenant();
  const post = (url: string, payload: object) => h.app.inject({ method: 'POST', url, headers: tenant.auth, payload });
  for (const expiresAt of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '9999-12-31T23:59:59-23:59']) {
    const r = await post('/api/admin/identity/credentials', {
      displayName: 'odd',
      clientId: '00000000-0000-4000-8000-0000000000c1',
      keyId: `k-${expiresAt}`,
      expiresAt,
    });
    assert.equal(r.statusCode, 400, `${expiresAt}: ${r.body}`);
    assert.equal(r.json().error.field, 'expiresAt');
  }
  const incident = await post('/api/admin/identity/incidents', { title: 'odd', startedAt: '0000-06-01T00:00:00Z' });
  assert.equal(incident.statusCode, 400, incident.body);
  assert.equal(incident.json().error.field, 'startedAt');
  // The registry still reads: nothing unreadable was stored.
  const list = await h.app.inject({ method: 'GET', url: '/api/admin/identity/credentials', headers: tenant.auth });
  assert.equal(list.statusCode, 200, list.body);
  assert.deepEqual(list.json().credentials, []);
  const alerts = await h.app.inject({ method: 'GET', url: '/api/admin/identity/alerts', headers: tenant.auth });
  assert.equal(alerts.statusCode, 200, alerts.body);
});
