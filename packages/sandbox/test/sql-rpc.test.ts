import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import sql from 'mssql';
import { Connection, Request, TYPES } from 'tedious';
import { startTdsServer, type TdsServer } from '../src/sql/index.js';

// Real drivers against the sandbox's SQL endpoint: tedious execSql / prepare (RPC requests) and an mssql pool.
const keys = await generateKeyPair('RS256');
const token = () =>
  new SignJWT({ aud: 'https://database.windows.net/', oid: 'oid-1', appid: 'app-1', name: 'svc-mi' })
    .setProtectedHeader({ alg: 'RS256' })
    .setExpirationTime('1h')
    .sign(keys.privateKey);
const verifyToken = async (jwt: string) => (await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'] })).payload as any;

async function login(server: TdsServer): Promise<Connection> {
  const conn = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'azure-active-directory-access-token', options: { token: await token() } },
    options: { port: server.port, database: 'pool', encrypt: false, maxRetriesOnTransientErrors: 0, connectTimeout: 5000 },
  });
  return new Promise((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve(conn))));
}

type Outcome = { rows: unknown[][]; rowCount: number; error?: any };
const collect = (run: (r: Request) => void, sqlText: string, params: Array<[string, any, unknown]> = []): Promise<Outcome> =>
  new Promise((resolve) => {
    const rows: unknown[][] = [];
    const request = new Request(sqlText, (err, rowCount) => resolve({ rows, rowCount: rowCount ?? 0, error: err ?? undefined }));
    for (const [name, type, value] of params) request.addParameter(name, type, value);
    request.on('row', (cols: Array<{ value: unknown }>) => rows.push(cols.map((c) => c.value)));
    run(request);
  });

describe('TDS endpoint: RPC requests', () => {
  let server: TdsServer;
  let conn: Connection;
  before(async () => {
    server = await startTdsServer({ databases: ['pool'], grants: ['svc-mi'], verifyToken });
    server.exec(
      'pool',
      "CREATE TABLE dbo.items (id int NOT NULL, name nvarchar(40) NULL, price decimal(9,2) NULL, added date NULL); INSERT INTO dbo.items VALUES (1, N'bolt', 0.25, N'2024-01-02'), (2, N'nut', 0.10, N'2024-02-03'), (3, N'gear', 12.50, NULL)",
    );
    conn = await login(server);
  });
  after(async () => {
    conn.close();
    await server.stop();
  });

  test('tedious execSql (sp_executesql) binds typed parameters', async () => {
    const r = await collect((q) => conn.execSql(q), 'SELECT name FROM dbo.items WHERE id >= @min AND name <> @skip ORDER BY id', [
      ['min', TYPES.Int, 2],
      ['skip', TYPES.NVarChar, 'gear'],
    ]);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.rows, [['nut']]);
    const ins = await collect(
      (q) => conn.execSql(q),
      'INSERT INTO dbo.items (id, name, price, added) VALUES (@id, @name, @price, @added)',
      [
        ['id', TYPES.Int, 4],
        ['name', TYPES.NVarChar, "o'ring"],
        ['price', TYPES.Float, 1.5],
        ['added', TYPES.Date, new Date(Date.UTC(2024, 4, 6))],
      ],
    );
    assert.equal(ins.error, undefined);
    assert.equal(ins.rowCount, 1);
    assert.deepEqual(
      (await collect((q) => conn.execSql(q), 'SELECT name, price, added FROM dbo.items WHERE id = @id', [['id', TYPES.Int, 4]])).rows,
      [["o'ring", 1.5, '2024-05-06']],
    );
  });

  test('an undeclared variable is 137; an error inside the RPC reaches the caller with its number', async () => {
    const r = await collect((q) => conn.execSql(q), 'SELECT name FROM dbo.items WHERE id = @nope', [['id', TYPES.Int, 1]]);
    assert.equal(r.error.number, 137);
    assert.equal(r.error.message, 'Must declare the scalar variable "@nope".');
    const missing = await collect((q) => conn.execSql(q), 'SELECT x FROM dbo.nothing WHERE 1 = @one', [['one', TYPES.Int, 1]]);
    assert.equal(missing.error.number, 208);
  });

  test('tedious prepare / execute / unprepare (sp_prepare, sp_execute)', async () => {
    const request = new Request('SELECT name FROM dbo.items WHERE id = @id', () => undefined);
    request.addParameter('id', TYPES.Int);
    const rows: unknown[][] = [];
    request.on('row', (cols: Array<{ value: unknown }>) => rows.push(cols.map((c) => c.value)));
    await new Promise<void>((resolve) => {
      request.on('prepared', () => resolve());
      conn.prepare(request);
    });
    assert.equal(typeof request.handle, 'number');
    for (const id of [1, 3]) {
      await new Promise<void>((resolve, reject) => {
        request.once('requestCompleted', () => resolve());
        request.once('error', reject);
        conn.execute(request, { id });
      });
    }
    assert.deepEqual(rows, [['bolt'], ['gear']]);
    await new Promise<void>((resolve) => {
      request.once('requestCompleted', () => resolve());
      conn.unprepare(request);
    });
  });
});

describe('TDS endpoint: an mssql pool', () => {
  let server: TdsServer;
  let pool: sql.ConnectionPool;
  before(async () => {
    server = await startTdsServer({ databases: ['pool'], grants: ['svc-mi'], verifyToken });
    server.exec('pool', "CREATE TABLE dbo.t (k int NOT NULL, v nvarchar(20) NULL); INSERT INTO dbo.t VALUES (1, N'one'), (2, N'two')");
    pool = new sql.ConnectionPool({
      server: '127.0.0.1',
      port: server.port,
      database: 'pool',
      authentication: { type: 'azure-active-directory-access-token', options: { token: await token() } },
      options: { encrypt: false, trustServerCertificate: false },
      pool: { max: 3, min: 0, idleTimeoutMillis: 30_000 },
    });
    await pool.connect();
  });
  after(async () => {
    await pool.close();
    await server.stop();
  });

  test('parameterised queries and a prepared statement run through the pool', async () => {
    const one = await pool.request().input('k', sql.Int, 2).query('SELECT v FROM dbo.t WHERE k = @k');
    assert.deepEqual(one.recordset, [{ v: 'two' }]);
    const ins = await pool
      .request()
      .input('k', sql.Int, 3)
      .input('v', sql.NVarChar(20), 'three')
      .query('INSERT INTO dbo.t (k, v) VALUES (@k, @v)');
    assert.deepEqual(ins.rowsAffected, [1]);
    const ps = new sql.PreparedStatement(pool);
    ps.input('k', sql.Int);
    await ps.prepare('SELECT v FROM dbo.t WHERE k = @k');
    assert.deepEqual((await ps.execute({ k: 3 })).recordset, [{ v: 'three' }]);
    await ps.unprepare();
  });

  test('many queries over a few seconds reuse the pooled connections: a handful of logins, not a login loop', async () => {
    const before = server.logins.length;
    const until = Date.now() + 2500;
    let queries = 0;
    while (Date.now() < until) {
      await Promise.all(
        [1, 2, 3, 4].map((k) => pool.request().input('k', sql.Int, k).query('SELECT COUNT(*) AS n FROM dbo.t WHERE k <= @k')),
      );
      queries += 4;
      await new Promise((r) => setTimeout(r, 20));
    }
    const logins = server.logins.length - before;
    assert.ok(queries > 100, `${queries} queries`);
    assert.ok(logins <= 3, `${logins} logins for ${queries} queries`);
  });
});
