// The lake (storage accounts served path-style, the DFS code OneLake's emulator shares) and the Synapse workspace's
// serverless SQL pool, whose external tables read the lake's CSV files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Connection, Request } from 'tedious';
import type { Sandbox } from '../src/index.js';
import { validate } from '../src/conformance/validate.js';
import { call, DFS_VERSION, sandbox } from './helpers.js';

type Message = { number: number; message: string };

async function login(sb: Sandbox, token: string, database: string): Promise<Connection> {
  const [host, port] = sb.urls.sqlServerless.split(':');
  const conn = new Connection({
    server: host!,
    authentication: { type: 'azure-active-directory-access-token', options: { token } },
    options: { port: Number(port), database, encrypt: false, maxRetriesOnTransientErrors: 0, connectTimeout: 5000 },
  });
  conn.on('error', () => undefined);
  return new Promise((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve(conn))));
}

function run(conn: Connection, sql: string): Promise<{ rows: unknown[][]; error?: Message }> {
  return new Promise((resolve) => {
    const rows: unknown[][] = [];
    const request = new Request(sql, (err) => {
      const e = err as any;
      resolve({ rows, error: e && (e.errors ? e.errors[0] : e) });
    });
    request.on('row', (cols: Array<{ value: unknown }>) => rows.push(cols.map((c) => c.value)));
    conn.execSqlBatch(request);
  });
}

/** The seeded container's URL and a storage token of the service identity. */
async function lake(sb: Sandbox) {
  const token = await sb.admin.token({ audience: 'storage' });
  const fs = `${sb.env.SVC_LAKE_DFS_URL}/${sb.env.SVC_LAKE_ACCOUNT}/${sb.env.SVC_LAKE_CONTAINER}`;
  const dfs = (url: string, method = 'GET', body?: string) =>
    fetch(url, { method, headers: { authorization: `Bearer ${token}`, ...DFS_VERSION }, ...(body !== undefined ? { body } : {}) });
  return { token, fs, dfs };
}

test('the lake serves storage accounts path-style: directories, files (create, append, flush), listing, delete; each request is described', async (t) => {
  const sb = await sandbox(t, { dataPlatform: false });
  assert.equal(sb.env.SVC_LAKE_ACCOUNT, 'sandboxlake');
  assert.equal(sb.env.SVC_SYNAPSE_SERVERLESS_SERVER, sb.urls.sqlServerless);
  const { fs, dfs, token } = await lake(sb);
  assert.equal((await dfs(`${fs}/lh/Tables/orders?resource=directory`, 'PUT')).status, 201);
  assert.equal((await dfs(`${fs}/lh/Tables/orders/part-0.csv?resource=file`, 'PUT')).status, 201);
  assert.equal((await dfs(`${fs}/lh/Tables/orders/part-0.csv?action=append&position=0`, 'PATCH', 'id\n1\n')).status, 202);
  assert.equal((await dfs(`${fs}/lh/Tables/orders/part-0.csv?action=flush&position=5`, 'PATCH')).status, 200);
  assert.equal(await (await dfs(`${fs}/lh/Tables/orders/part-0.csv`)).text(), 'id\n1\n');
  const listing = await (await dfs(`${fs}?resource=filesystem&recursive=true&directory=lh`)).json();
  assert.deepEqual(
    listing.paths.map((p: any) => [p.name, p.isDirectory ?? 'false']),
    [
      ['lh/Tables', 'true'],
      ['lh/Tables/orders', 'true'],
      ['lh/Tables/orders/part-0.csv', 'false'],
    ],
  );
  // Paged: two paths a page, the next page named by x-ms-continuation, until a page names none.
  await sb.admin.setSwitch('lake.pageSize', 2);
  const pages: string[][] = [];
  for (let next: string | null = ''; next !== null; ) {
    const r = await dfs(`${fs}?resource=filesystem&recursive=true&directory=lh${next ? `&continuation=${encodeURIComponent(next)}` : ''}`);
    pages.push((await r.json()).paths.map((p: any) => p.name));
    next = r.headers.get('x-ms-continuation');
  }
  assert.deepEqual(pages, [['lh/Tables', 'lh/Tables/orders'], ['lh/Tables/orders/part-0.csv']]);
  assert.equal((await dfs(`${fs}?resource=filesystem&recursive=true&continuation=bogus`)).status, 400);
  // The storage errors: an existing path with If-None-Match, a missing one, a missing filesystem, no version.
  const again = await fetch(`${fs}/lh/Tables/orders?resource=directory`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, ...DFS_VERSION, 'if-none-match': '*' },
  });
  assert.equal(again.status, 409);
  assert.equal(again.headers.get('x-ms-error-code'), 'PathAlreadyExists');
  assert.equal((await dfs(`${fs}?resource=filesystem&recursive=false&directory=nope`)).headers.get('x-ms-error-code'), 'PathNotFound');
  const other = `${sb.env.SVC_LAKE_DFS_URL}/${sb.env.SVC_LAKE_ACCOUNT}/other`;
  assert.equal((await dfs(`${other}/x?resource=directory`, 'PUT')).headers.get('x-ms-error-code'), 'FilesystemNotFound');
  assert.equal((await dfs(`${other}?resource=filesystem`, 'PUT')).status, 201);
  assert.equal((await dfs(`${other}?resource=filesystem`, 'PUT')).headers.get('x-ms-error-code'), 'FilesystemAlreadyExists');
  const bare = await fetch(`${fs}/lh?resource=directory`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
  assert.equal(bare.headers.get('x-ms-error-code'), 'MissingRequiredHeader');
  assert.equal((await dfs(`${fs}/lh`, 'DELETE')).headers.get('x-ms-error-code'), 'DirectoryNotEmpty');
  assert.equal((await dfs(`${fs}/lh?recursive=true`, 'DELETE')).status, 200);
  assert.equal((await dfs(`${fs}/lh/Tables`)).status, 404);
  const state = (await sb.admin.state()).lake;
  assert.deepEqual(state[0]!.filesystems.find((f) => f.name === 'lakehouses')!.paths, []);
  // Every request the lake answered matches an operation of the storage-dfs description.
  for (const r of await sb.admin.requests({ service: 'lake' })) {
    const v = validate(r);
    assert.equal(v.kind, 'described', `${r.method} ${r.path}: ${v.problems.join('; ')}`);
    if (r.headers?.['x-ms-version']) assert.deepEqual(v.problems, [], `${r.method} ${r.path}`);
  }
});

test('without Storage Blob Data Contributor on the account the service identity is refused 403 AuthorizationPermissionMismatch', async (t) => {
  const sb = await sandbox(t, { dataPlatform: false });
  const { fs, dfs } = await lake(sb);
  assert.deepEqual(await sb.admin.revoke({ service: 'lake', role: 'Storage Blob Data Contributor' }), { changed: true });
  const r = await dfs(`${fs}/lh?resource=directory`, 'PUT');
  assert.equal(r.status, 403);
  assert.equal(r.headers.get('x-ms-error-code'), 'AuthorizationPermissionMismatch');
  await sb.admin.grant({ service: 'lake', role: 'Storage Blob Data Reader' });
  assert.equal((await dfs(`${fs}?resource=filesystem&recursive=false`)).status, 200);
  assert.equal((await dfs(`${fs}/lh?resource=directory`, 'PUT')).status, 403);
});

test('the serverless SQL pool: CREATE DATABASE, an external table over the lake reads its CSV files; no CREATE TABLE or INSERT', async (t) => {
  const sb = await sandbox(t, { dataPlatform: false });
  const { fs, dfs } = await lake(sb);
  await dfs(`${fs}/sales/Tables/orders/part-0.csv?resource=file`, 'PUT');
  await dfs(`${fs}/sales/Tables/orders/part-0.csv?action=append&position=0`, 'PATCH', 'id,name\n1,"a, b"\n2,c\n');
  await dfs(`${fs}/sales/Tables/orders/part-0.csv?action=flush&position=22`, 'PATCH');
  const token = await sb.admin.token({ audience: 'https://database.windows.net/' });
  const master = await login(sb, token, 'master');
  assert.equal((await run(master, 'CREATE DATABASE [sales]')).error, undefined);
  assert.equal((await run(master, 'CREATE DATABASE [sales]')).error?.number, 1801);
  master.close();
  const db = await login(sb, token, 'sales');
  const location = `abfss://${sb.env.SVC_LAKE_CONTAINER}@${sb.env.SVC_LAKE_ACCOUNT}.dfs.core.windows.net/sales`;
  for (const sql of [
    `CREATE EXTERNAL DATA SOURCE [lake] WITH (LOCATION = '${location}')`,
    "CREATE EXTERNAL FILE FORMAT [csv] WITH (FORMAT_TYPE = DELIMITEDTEXT, FORMAT_OPTIONS (FIELD_TERMINATOR = ',', STRING_DELIMITER = '\"', FIRST_ROW = 2))",
    "CREATE EXTERNAL TABLE [dbo].[orders] ([id] int NULL, [name] nvarchar(4000) NULL) WITH (LOCATION = 'Tables/orders/', DATA_SOURCE = [lake], FILE_FORMAT = [csv])",
    "CREATE EXTERNAL TABLE [dbo].[missing] ([id] int NULL) WITH (LOCATION = 'Tables/missing/', DATA_SOURCE = [lake], FILE_FORMAT = [csv])",
  ])
    assert.equal((await run(db, sql)).error, undefined, sql);
  assert.deepEqual((await run(db, 'SELECT id, name FROM dbo.orders')).rows, [
    [1, 'a, b'],
    [2, 'c'],
  ]);
  assert.equal((await run(db, 'SELECT id FROM dbo.missing')).error?.number, 16562);
  // Views: over an external table, and over OPENROWSET (a table function: nothing to bind at create).
  for (const sql of [
    'CREATE VIEW dbo.v_orders AS SELECT id, name FROM dbo.orders',
    "CREATE VIEW dbo.v_files AS SELECT r.id FROM OPENROWSET(BULK 'Tables/orders/', DATA_SOURCE = 'lake', FORMAT = 'CSV', PARSER_VERSION = '2.0', HEADER_ROW = TRUE) AS r",
    'DROP VIEW dbo.v_files',
  ])
    assert.equal((await run(db, sql)).error, undefined, sql);
  assert.equal((await run(db, 'CREATE VIEW dbo.v_bad AS SELECT id FROM dbo.nothing')).error?.number, 208);
  assert.equal((await run(db, 'CREATE TABLE t (id int)')).error?.number, 40514);
  assert.equal((await run(db, "INSERT INTO dbo.orders VALUES (3, N'x')")).error?.number, 40514);
  assert.match(
    (await run(db, "CREATE EXTERNAL DATA SOURCE [h] WITH (TYPE = HADOOP, LOCATION = 'abfss://a@b.dfs.core.windows.net')")).error?.message ??
      '',
    /HADOOP/,
  );
  db.close();
  const logged = await sb.admin.requests({ service: 'sqlServerless' });
  assert.ok(logged.some((r) => r.method === 'LOGIN' && r.path === '/sales'));
  assert.ok(logged.filter((r) => /CREATE TABLE/.test(r.text ?? '')).every((r) => validate(r).problems.length > 0));
  // Without the Synapse SQL Administrator role the service identity has no login.
  await sb.admin.revoke({ service: 'sqlServerless', role: 'Synapse SQL Administrator' });
  await assert.rejects(login(sb, token, 'sales'), /Login failed/);
  const view = (await sb.admin.state()).sqlServerless.databases.find((d) => d.name === 'sales')!;
  assert.deepEqual(view.tables.map((x) => x.name).sort(), ['missing', 'orders']);
});
