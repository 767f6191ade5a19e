import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
// tedious is the service's client (hoisted from @svc/server): the endpoint is tested against the real driver.
import { Connection, Request } from 'tedious';
import { startTdsServer, type SqlTable, type TdsServer } from '../src/sql/index.js';

const keys = await generateKeyPair('RS256');
const AUD = 'https://database.windows.net/';
const token = (claims: Record<string, unknown>) =>
  new SignJWT({ aud: AUD, oid: 'oid-1', appid: 'app-1', name: 'svc-mi', ...claims })
    .setProtectedHeader({ alg: 'RS256' })
    .setExpirationTime('1h')
    .sign(keys.privateKey);

type Message = { number: number; state: number; class: number; message: string };

/** Logs in with tedious (FEDAUTH access token, no TLS on loopback); resolves the connection or the server's login error. */
async function login(server: TdsServer, claims: Record<string, unknown> = {}, database = 'pool'): Promise<Connection> {
  const conn = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'azure-active-directory-access-token', options: { token: await token(claims) } },
    options: {
      port: server.port,
      database,
      encrypt: false,
      trustServerCertificate: false,
      maxRetriesOnTransientErrors: 0,
      connectTimeout: 5000,
    },
  });
  const messages: Message[] = [];
  conn.on('errorMessage', (m: Message) => messages.push(m));
  return new Promise((resolve, reject) => conn.connect((err) => (err ? reject(Object.assign(err, { messages })) : resolve(conn))));
}

/** Runs a batch; resolves rows and the row count, or the server's errors. */
function run(conn: Connection, sql: string): Promise<{ rows: unknown[][]; rowCount: number; error?: Message & { errors?: Message[] } }> {
  return new Promise((resolve) => {
    const rows: unknown[][] = [];
    const request = new Request(sql, (err, rowCount) => {
      const error = err as any;
      resolve({ rows, rowCount: rowCount ?? 0, error: error && (error.errors ? { ...error.errors[0], errors: error.errors } : error) });
    });
    request.on('row', (cols: Array<{ value: unknown }>) => rows.push(cols.map((c) => c.value)));
    conn.execSqlBatch(request);
  });
}

const verifyToken = async (jwt: string) => (await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'] })).payload as any;

describe('TDS endpoint: login', () => {
  let server: TdsServer;
  before(async () => {
    server = await startTdsServer({ databases: ['pool'], grants: ['svc-mi'], verifyToken });
  });
  after(() => server.stop());

  test('an access token for the SQL audience logs in to a hosted database as its database user', async () => {
    const conn = await login(server);
    const { rows } = await run(conn, "SELECT DB_NAME() AS db, USER_NAME() AS u, IS_ROLEMEMBER(N'db_owner') AS owner");
    assert.deepEqual(rows, [['pool', 'svc-mi', 1]]);
    conn.close();
  });

  test('wrong audience, unknown principal, unknown database: 18456 class 14 (4060 first for the database)', async () => {
    const wrongAudience = await login(server, { aud: 'https://management.azure.com/' }).catch((e) => e);
    assert.deepEqual(
      wrongAudience.messages.map((m: Message) => [m.number, m.state, m.class]),
      [[18456, 1, 14]],
    );
    assert.equal(wrongAudience.message, "Login failed for user '<token-identified principal>'.");
    const stranger = await login(server, { name: 'someone-else', appid: 'x', oid: 'y' }).catch((e) => e);
    assert.deepEqual(
      stranger.messages.map((m: Message) => m.number),
      [18456],
    );
    const noDb = await login(server, {}, 'nope').catch((e) => e);
    assert.deepEqual(
      noDb.messages.map((m: Message) => m.number),
      [4060, 18456],
    );
  });

  test('a paused pool answers 40613 until it has resumed', async () => {
    server.setPaused(300);
    const paused = await login(server).catch((e) => e);
    assert.deepEqual(
      paused.messages.map((m: Message) => [m.number, m.class]),
      [[40613, 17]],
    );
    await new Promise((r) => setTimeout(r, 350));
    (await login(server)).close();
  });
});

describe('TDS endpoint: T-SQL', () => {
  let server: TdsServer;
  let conn: Connection;
  before(async () => {
    server = await startTdsServer({ databases: ['pool'], grants: ['svc-mi'], admins: ['sql-admin'], verifyToken });
    conn = await login(server);
  });
  after(async () => {
    conn.close();
    await server.stop();
  });

  test('schemas, tables, inserts and counts; the state keeps them', async () => {
    assert.equal((await run(conn, "IF SCHEMA_ID(N'mart') IS NULL EXEC(N'CREATE SCHEMA [mart]')")).error, undefined);
    assert.equal((await run(conn, 'CREATE TABLE mart.gaps (gap_id varchar(8) NOT NULL, n int NULL, opened date NULL)')).error, undefined);
    const ins = await run(
      conn,
      "INSERT INTO mart.gaps (gap_id, n, opened) VALUES (N'G1', 1, N'2024-05-01'), (N'G2', 2, NULL);\nIF NOT EXISTS (SELECT 1 FROM mart.gaps WHERE gap_id = N'G1') INSERT INTO mart.gaps VALUES (N'G1', 9, NULL)",
    );
    assert.equal(ins.rowCount, 2);
    assert.deepEqual((await run(conn, 'SELECT COUNT(*) FROM mart.gaps')).rows, [[2]]);
    assert.deepEqual((await run(conn, 'SELECT gap_id, n FROM mart.gaps WHERE n > 1')).rows, [['G2', 2]]);
    assert.deepEqual((server.object('pool', 'mart.gaps') as SqlTable).rows, [
      ['G1', 1, '2024-05-01'],
      ['G2', 2, null],
    ]);
  });

  test('errors carry the real numbers, states and classes', async () => {
    const exists = (await run(conn, 'CREATE TABLE mart.gaps (x int)')).error!;
    assert.deepEqual(
      [exists.number, exists.state, exists.class, exists.message],
      [2714, 6, 16, "There is already an object named 'gaps' in the database."],
    );
    assert.equal((await run(conn, 'SELECT 1\nCREATE SCHEMA late')).error!.number, 111);
    const syntax = await run(conn, "INSERT INTO mart.gaps VALUES (N'G9', 1, NULL) garbage (");
    assert.deepEqual(
      [syntax.error!.number, syntax.error!.message],
      [103010, "Parse error at line: 1, column: 47: Incorrect syntax near 'garbage'."],
    );
    assert.deepEqual((await run(conn, 'SELECT COUNT(*) FROM mart.gaps')).rows, [[2]], 'a syntax error runs nothing');
    assert.equal((await run(conn, 'SELECT * FROM mart.missing')).error!.message, "Invalid object name 'mart.missing'.");
    assert.equal((await run(conn, "INSERT INTO mart.gaps VALUES (N'TOO-LONG-ID', 1, NULL)")).error!.number, 2628);
    assert.equal((await run(conn, "INSERT INTO mart.gaps VALUES (N'G3', N'x', NULL)")).error!.number, 245);
  });

  test('CREATE VIEW stores the definition; DROP VIEW then CREATE VIEW changes it; CREATE VIEW of an existing view is 2714; missing references are 208', async () => {
    assert.equal((await run(conn, 'CREATE VIEW mart.v AS select g.gap_id from mart.gaps as g')).error, undefined);
    assert.equal((await run(conn, 'DROP VIEW mart.v')).error, undefined);
    assert.equal((await run(conn, 'CREATE VIEW mart.v AS select g.gap_id, g.n from mart.gaps as g')).error, undefined);
    assert.equal((server.object('pool', 'mart.v') as any).definition, 'select g.gap_id, g.n from mart.gaps as g');
    assert.equal((await run(conn, 'CREATE VIEW mart.v AS select 1 as x')).error!.number, 2714);
    assert.equal(
      (await run(conn, 'CREATE VIEW mart.w AS with c as (select 1 as x) select * from c join mart.nothing as n on 1 = 1')).error!.message,
      "Invalid object name 'mart.nothing'.",
    );
  });

  test('users and roles: CREATE USER FROM EXTERNAL PROVIDER, 15023, ALTER ROLE and sp_addrolemember; 262 and 229 without rights', async () => {
    const admin = await login(server, { name: 'sql-admin', appid: 'admin-app', oid: 'admin-oid' });
    assert.equal((await run(admin, 'CREATE USER [reader-app] FROM EXTERNAL PROVIDER;')).error, undefined);
    const again = (await run(admin, 'CREATE USER [reader-app] FROM EXTERNAL PROVIDER')).error!;
    assert.deepEqual([again.number, again.state, again.class], [15023, 1, 16]);
    assert.equal((await run(admin, 'ALTER ROLE db_datareader ADD MEMBER [reader-app]')).error, undefined);
    assert.equal((await run(admin, "EXEC sp_addrolemember 'db_datareader', 'reader-app'")).error, undefined);
    admin.close();
    const reader = await login(server, { name: 'reader-app', appid: 'r', oid: 'r' });
    assert.deepEqual((await run(reader, 'SELECT COUNT(*) FROM mart.gaps')).rows, [[2]]);
    const create = (await run(reader, 'CREATE TABLE mart.t2 (x int)')).error!;
    assert.deepEqual(
      [create.number, create.state, create.class, create.message],
      [262, 1, 14, "CREATE TABLE permission denied in database 'pool'."],
    );
    const insert = (await run(reader, "INSERT INTO mart.gaps VALUES (N'G5', 1, NULL)")).error!;
    assert.deepEqual(
      [insert.number, insert.state, insert.class, insert.message],
      [229, 5, 14, "The INSERT permission was denied on the object 'gaps', database 'pool', schema 'mart'."],
    );
    reader.close();
  });

  test('catalog views list what exists', async () => {
    const { rows } = await run(
      conn,
      "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = N'mart' ORDER BY TABLE_NAME",
    );
    assert.deepEqual(rows, [
      ['mart', 'gaps', 'BASE TABLE'],
      ['mart', 'v', 'VIEW'],
    ]);
  });
});

test('fault rules: an injected error number on a batch, a reset at login', async () => {
  let resetNext = false;
  const faults = {
    match: (_s: string, method: string, path: string) => {
      if (method === 'LOGIN' && resetNext) {
        resetNext = false;
        return { id: 'f2', reset: true };
      }
      return method === 'BATCH' && path.includes('boom') ? { id: 'f1', errorCode: '40613' } : undefined;
    },
  };
  const server = await startTdsServer({ databases: ['pool'], grants: ['svc-mi'], verifyToken, faults });
  try {
    const conn = await login(server);
    assert.equal((await run(conn, "SELECT N'boom'")).error!.number, 40613);
    assert.deepEqual((await run(conn, 'SELECT 1 + 1')).rows, [[2]]);
    conn.close();
    resetNext = true;
    const err = await login(server).catch((e) => e);
    assert.equal(err.code, 'ESOCKET');
  } finally {
    await server.stop();
  }
});
