import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
// tedious is the service's client (hoisted from @svc/server): the mounted endpoint is tested against the real driver.
import { Connection, Request } from 'tedious';
import type { Sandbox } from '../src/index.js';
import { call, DFS_VERSION, sandbox } from './helpers.js';

const SQL = 'https://database.windows.net/';
type Message = { number: number; state: number; class: number; message: string };

/** Logs in to the sandbox's TDS endpoint with an access token; resolves the connection or rejects with the server's messages. */
async function login(sb: Sandbox, token: string, database = sb.ids.warehousePool): Promise<Connection> {
  const [host, port] = sb.urls.sql.split(':');
  const conn = new Connection({
    server: host!,
    authentication: { type: 'azure-active-directory-access-token', options: { token } },
    options: {
      port: Number(port),
      database,
      encrypt: false,
      trustServerCertificate: false,
      maxRetriesOnTransientErrors: 0,
      connectTimeout: 5000,
    },
  });
  const messages: Message[] = [];
  conn.on('errorMessage', (m: Message) => messages.push(m));
  // A connection the server drops (a reset fault) fails its pending request; the event itself needs a listener.
  conn.on('error', () => undefined);
  return new Promise((resolve, reject) => conn.connect((err) => (err ? reject(Object.assign(err, { messages })) : resolve(conn))));
}

/** Runs a batch: rows, or the first server error. */
function run(conn: Connection, sql: string): Promise<{ rows: unknown[][]; error?: Message & { code?: string } }> {
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

const miToken = (sb: Sandbox, audience = SQL) => sb.admin.token({ audience });

test('startSandbox mounts the TDS endpoint: the env points the warehouse at it; the service identity is a db_owner user', async (t) => {
  const sb = await sandbox(t);
  assert.match(sb.urls.sql, /^127\.0\.0\.1:\d+$/);
  assert.equal(sb.env.SVC_WAREHOUSE_SERVER, sb.urls.sql);
  assert.equal(sb.env.SVC_WAREHOUSE_WORKSPACE, sb.ids.warehouseWorkspace);
  assert.equal(sb.env.SVC_WAREHOUSE_DEDICATED_POOL, sb.ids.warehousePool);
  // The managed-identity endpoint's token, as the service gets it.
  const mi = await call(`${sb.env.IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=${encodeURIComponent(SQL)}`, {
    headers: { 'x-identity-header': sb.env.IDENTITY_HEADER! },
  });
  assert.equal(mi.status, 200, mi.text);
  const conn = await login(sb, mi.body.access_token);
  const { rows } = await run(conn, "SELECT DB_NAME() AS db, USER_NAME() AS u, IS_ROLEMEMBER(N'db_owner') AS owner");
  assert.deepEqual(rows, [[sb.ids.warehousePool, sb.ids.serviceIdentity.name, 1]]);
  assert.equal((await run(conn, 'CREATE SCHEMA probe')).error, undefined);
  conn.close();
  const log = await sb.admin.requests({ service: 'sql' });
  // tedious opens every session with a batch of SET options, then the two batches above.
  const oid = sb.ids.serviceIdentity.objectId;
  assert.deepEqual(
    log.map((r) => [r.method, r.status, r.identity]),
    [
      ['LOGIN', 200, oid],
      ['BATCH', 200, oid],
      ['BATCH', 200, oid],
      ['BATCH', 200, oid],
    ],
  );
  assert.equal(log[0]!.path, `/${sb.ids.warehousePool}`);
  assert.match(log[1]!.path, new RegExp(`^/${sb.ids.warehousePool}/batch/set `));
  assert.equal(log[3]!.path, `/${sb.ids.warehousePool}/batch/CREATE SCHEMA probe`);
  const db = (await sb.admin.state()).sql.databases.find((d) => d.name === sb.ids.warehousePool)!;
  assert.ok(db.schemas.includes('probe'));
  assert.deepEqual(
    db.users.find((u) => u.name === sb.ids.serviceIdentity.name),
    { name: sb.ids.serviceIdentity.name, type: 'E', objectId: sb.ids.serviceIdentity.objectId, roles: ['db_owner'] },
  );

  // reset: the seeded state again (no probe schema, the identity still db_owner).
  await sb.admin.reset();
  const after = (await sb.admin.state()).sql.databases.find((d) => d.name === sb.ids.warehousePool)!;
  assert.deepEqual(after.schemas, ['dbo']);
  assert.deepEqual(after.users.find((u) => u.name === sb.ids.serviceIdentity.name)?.roles, ['db_owner']);
});

test('tokens are verified against the sandbox identity provider: wrong audience, expired, foreign key → 18456, logged', async (t) => {
  const sb = await sandbox(t);
  const refused = async (token: string) => {
    const err = await login(sb, token).then(
      (c) => (c.close(), undefined),
      (e) => e,
    );
    assert.ok(err, 'the login was refused');
    return err.messages.map((m: Message) => [m.number, m.state, m.class, m.message]);
  };
  const loginFailed = [[18456, 1, 14, "Login failed for user '<token-identified principal>'."]];
  assert.deepEqual(await refused(await miToken(sb, 'https://management.azure.com/')), loginFailed);
  const other = await generateKeyPair('RS256');
  const forged = await new SignJWT({
    aud: SQL,
    oid: sb.ids.serviceIdentity.objectId,
    appid: sb.ids.serviceIdentity.appId,
    tid: sb.ids.tenantId,
  })
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(`https://sts.windows.net/${sb.ids.tenantId}/`)
    .setExpirationTime('1h')
    .sign(other.privateKey);
  assert.deepEqual(await refused(forged), loginFailed);
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', -60);
  assert.deepEqual(await refused(await miToken(sb)), loginFailed);
  const log = await sb.admin.requests({ service: 'sql' });
  assert.deepEqual(
    log.map((r) => [r.method, r.status, r.sqlError]),
    [
      ['LOGIN', 400, 18456],
      ['LOGIN', 400, 18456],
      ['LOGIN', 400, 18456],
    ],
  );
  assert.equal(log[0]!.identity, sb.ids.serviceIdentity.objectId, 'a verified token of the wrong audience still names who tried');
});

test('grant and revoke decide whether the identity is a database user, and in which role', async (t) => {
  const sb = await sandbox(t);
  assert.deepEqual(await sb.admin.revoke({ service: 'sql', role: 'user' }), { changed: true });
  assert.deepEqual(await sb.admin.revoke({ service: 'sql', role: 'user' }), { changed: false });
  const err = await login(sb, await miToken(sb)).catch((e) => e);
  assert.deepEqual(
    err.messages.map((m: Message) => m.number),
    [18456],
  );
  assert.equal(
    (await sb.admin.state()).sql.databases[0]!.users.some((u) => u.name === sb.ids.serviceIdentity.name),
    false,
  );

  assert.deepEqual(await sb.admin.grant({ service: 'sql', role: 'db_datareader' }), { changed: true });
  let conn = await login(sb, await miToken(sb));
  assert.deepEqual((await run(conn, 'CREATE SCHEMA nope')).error?.number, 262);
  conn.close();
  assert.deepEqual(await sb.admin.grant({ service: 'sql', role: 'db_owner' }), { changed: true });
  conn = await login(sb, await miToken(sb));
  assert.equal((await run(conn, 'CREATE SCHEMA yes')).error, undefined);
  conn.close();
  assert.deepEqual(await sb.admin.revoke({ service: 'sql', role: 'db_owner' }), { changed: true });
  assert.deepEqual((await sb.admin.state()).sql.databases[0]!.users.find((u) => u.name === sb.ids.serviceIdentity.name)?.roles, [
    'db_datareader',
  ]);
  await assert.rejects(sb.admin.grant({ service: 'sql', role: 'sysadmin' }), /sql roles are user, db_owner/);
  await assert.rejects(sb.admin.grant({ service: 'sql', role: 'db_owner', database: 'nope' }), /unknown SQL database 'nope'/);
  // The HTTP admin API takes the same grant and lists SQL users with the other grants.
  const admin = `${sb.urls.admin}/_sandbox`;
  assert.equal((await call(`${admin}/grant`, { json: { service: 'sql', role: 'db_owner', principal: 'ci-deployer' } })).body.changed, true);
  const grants = (await call(`${admin}/grants`)).body.sql;
  assert.deepEqual(grants[0].users.find((u: any) => u.name === 'ci-deployer').roles, ['db_owner']);

  // The server's Entra admin (Ada) runs the remediation T-SQL over TDS; the identity is then a db_owner user again.
  await sb.admin.revoke({ service: 'sql', role: 'user' });
  const ada = await login(sb, await sb.admin.token({ principal: 'ada@sandbox.onmicrosoft.com', audience: SQL }));
  const name = sb.ids.serviceIdentity.name;
  assert.equal(
    (await run(ada, `CREATE USER [${name}] FROM EXTERNAL PROVIDER;\nEXEC sp_addrolemember 'db_owner', '${name}';`)).error,
    undefined,
  );
  assert.equal((await run(ada, 'CREATE USER [nobody-in-the-directory] FROM EXTERNAL PROVIDER')).error?.number, 33130);
  ada.close();
  conn = await login(sb, await miToken(sb));
  assert.deepEqual((await run(conn, "SELECT IS_ROLEMEMBER(N'db_owner')")).rows, [[1]]);
  conn.close();
});

test('fault rules with service sql: a batch fails with the rule’s number and text, a login answers 40613, a reset drops the connection', async (t) => {
  const sb = await sandbox(t);
  await assert.rejects(sb.admin.addFault({ service: 'sql', method: 'BATCH' }), /a sql fault needs errorCode/);
  await assert.rejects(sb.admin.addFault({ service: 'sql', method: 'GET', errorCode: '229' }), /LOGIN or BATCH/);
  const message = "The transaction log for database 'sandboxpool' is full due to 'ACTIVE_TRANSACTION'.";
  const { id } = await sb.admin.addFault({ service: 'sql', method: 'BATCH', path: 'INSERT INTO', errorCode: '9002', message, count: 1 });
  let conn = await login(sb, await miToken(sb));
  assert.equal((await run(conn, 'CREATE TABLE dbo.t (a int)')).error, undefined);
  const failed = await run(conn, 'INSERT INTO dbo.t VALUES (1)');
  assert.deepEqual([failed.error?.number, failed.error?.message], [9002, message]);
  assert.equal((await run(conn, 'INSERT INTO dbo.t VALUES (2)')).error, undefined, 'count 1: the next insert runs');
  conn.close();
  const batches = (await sb.admin.requests({ service: 'sql' })).filter((r) => r.method === 'BATCH' && / dbo\.t /.test(r.path));
  assert.deepEqual(
    batches.map((r) => [r.status, r.sqlError, r.fault]),
    [
      [200, undefined, undefined],
      [400, 9002, id],
      [200, undefined, undefined],
    ],
  );
  assert.equal((await sb.admin.state()).sql.databases[0]!.tables.find((x) => x.name === 't')!.rowCount, 1);

  await sb.admin.addFault({ service: 'sql', method: 'LOGIN', errorCode: '40613', count: 1 });
  const paused = await login(sb, await miToken(sb)).catch((e) => e);
  assert.equal(paused.messages[0].number, 40613);
  assert.match(paused.messages[0].message, /^Database 'sandboxpool' on server 'sandbox' is not currently available/);
  conn = await login(sb, await miToken(sb));

  await sb.admin.addFault({ service: 'sql', method: 'BATCH', reset: true, count: 1 });
  const reset = await run(conn, 'SELECT 1');
  assert.ok(reset.error, 'the batch got no answer');
  const last = (await sb.admin.requests({ service: 'sql' })).at(-1)!;
  assert.deepEqual([last.method, last.status], ['BATCH', 0]);
});

test('lakehouse SQL endpoints: each lakehouse is a database of the endpoint, its Tables/ folders its tables, a Delta log its columns', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('dataPlatform.sqlEndpointDelayMs', 0);
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const fabric = await sb.admin.token({ audience: 'https://api.fabric.microsoft.com' });
  const lh = (await call(`${ws}/lakehouses`, { token: fabric, json: { displayName: 'ClinicLake' } })).body;
  const storage = await sb.admin.token({ audience: 'storage' });
  const tables = `${sb.env.SVC_ONELAKE_URL}/${sb.ids.platformWorkspaceId}/${lh.id}/Tables`;
  assert.equal((await call(`${tables}/visits?resource=directory`, { method: 'PUT', token: storage, headers: DFS_VERSION })).status, 201);
  // A Delta commit with the table's schema (what a writer puts in _delta_log before any data file).
  const commit = `${tables}/patients/_delta_log/00000000000000000000.json`;
  const schema = {
    type: 'struct',
    fields: [
      { name: 'patient_id', type: 'string', nullable: false, metadata: {} },
      { name: 'birth_year', type: 'integer', nullable: true, metadata: {} },
      { name: 'score', type: 'decimal(6,3)', nullable: true, metadata: {} },
    ],
  };
  const lines = [
    JSON.stringify({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } }),
    JSON.stringify({
      metaData: {
        id: 'm1',
        format: { provider: 'parquet', options: {} },
        schemaString: JSON.stringify(schema),
        partitionColumns: [],
        configuration: {},
      },
    }),
  ].join('\n');
  assert.equal((await call(`${commit}?resource=file`, { method: 'PUT', token: storage, headers: DFS_VERSION })).status, 201);
  const append = await fetch(`${commit}?action=append&position=0`, {
    method: 'PATCH',
    headers: { ...DFS_VERSION, authorization: `Bearer ${storage}`, 'content-type': 'application/octet-stream' },
    body: lines,
  });
  assert.equal(append.status, 202);
  assert.equal(
    (await call(`${commit}?action=flush&position=${Buffer.byteLength(lines)}`, { method: 'PATCH', token: storage, headers: DFS_VERSION }))
      .status,
    200,
  );

  const db = (await sb.admin.state()).sql.databases.find((d) => d.name === 'ClinicLake')!;
  assert.ok(db, 'the lakehouse is a database');
  assert.equal(db.attached, true);
  assert.deepEqual(
    db.tables.map((x) => [x.schema, x.name, x.columns, x.rowCount]),
    [
      ['dbo', 'patients', ['patient_id', 'birth_year', 'score'], 0],
      ['dbo', 'visits', [], 0],
    ],
  );
  // The warehouse is a dedicated SQL pool: it cannot read the lakehouse across databases (external tables read the lake).
  const conn = await login(sb, await miToken(sb));
  const across = await run(conn, 'CREATE VIEW dbo.lake_patients AS SELECT p.patient_id FROM [ClinicLake].[dbo].[patients] AS p');
  assert.deepEqual(
    [across.error?.number, across.error?.message],
    [40515, "Reference to database and/or server name in 'ClinicLake.dbo.patients' is not supported in this version of SQL Server."],
  );
  conn.close();
  // A grant without a database names the warehouse's databases, not the lakehouse endpoints.
  await sb.admin.grant({ service: 'sql', role: 'db_owner', principal: 'ci-deployer' });
  assert.equal(
    (await sb.admin.state()).sql.databases.find((d) => d.name === 'ClinicLake')!.users.some((u) => u.name === 'ci-deployer'),
    false,
  );
});
