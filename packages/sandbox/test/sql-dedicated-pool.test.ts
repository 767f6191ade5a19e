import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'tedious';
import { startTdsServer, type TdsServer } from '../src/sql/index.js';
import { tdsBatch, tdsLogin, verifyToken } from './tds-helpers.js';

// The sandbox's SQL endpoint speaks a Synapse dedicated SQL pool's dialect by default: what the pool's grammar lacks is
// its parser's 103010, a name in another database is 40515, and views are bound (208, 207, 4104) when created.
const SOURCE = "CREATE EXTERNAL DATA SOURCE [lake] WITH (TYPE = HADOOP, LOCATION = 'abfss://ws-1@onelake.dfs.fabric.microsoft.com')";
const FORMAT = 'CREATE EXTERNAL FILE FORMAT [parquet] WITH (FORMAT_TYPE = PARQUET)';
const TABLE =
  "CREATE EXTERNAL TABLE [lake_src].[encounters] ([encounter_id] nvarchar(4000) NULL, [patient_id] nvarchar(4000) NULL, [los_days] int NULL) WITH (LOCATION = '/lh-1/Tables/encounters/', DATA_SOURCE = [lake], FILE_FORMAT = [parquet])";

describe('dedicated SQL pool dialect (the default)', () => {
  let server: TdsServer;
  let conn: Connection;
  const run = (sql: string) => tdsBatch(conn, sql);
  before(async () => {
    server = await startTdsServer({ databases: ['pool', 'PopHealthLake'], grants: ['svc-mi'], verifyToken });
    server.exec('pool', 'CREATE TABLE dbo.patients (patient_id varchar(20) NOT NULL, pcp_id varchar(20) NULL)');
    server.exec('PopHealthLake', 'CREATE TABLE dbo.encounters (encounter_id varchar(20) NOT NULL)');
    server.exec('pool', 'CREATE SCHEMA lake_src');
    conn = await tdsLogin(server);
  });
  after(async () => {
    conn.close();
    await server.stop();
  });

  test('CREATE OR ALTER VIEW is a parse error (103010 near OR) and creates nothing', async () => {
    const r = await run('CREATE OR ALTER VIEW dbo.v AS SELECT p.patient_id FROM dbo.patients AS p');
    assert.deepEqual(
      [r.error?.number, r.error?.class, r.error?.message],
      [103010, 16, "Parse error at line: 1, column: 8: Incorrect syntax near 'OR'."],
    );
    assert.equal(server.object('pool', 'dbo.v'), undefined);
  });

  test('FOREIGN KEY constraints (table, column REFERENCES, ALTER TABLE) are parse errors; nothing is created', async () => {
    const table = await run(
      'CREATE TABLE dbo.visits (visit_id int NOT NULL, patient_id varchar(20) NULL,\n  CONSTRAINT fk_p FOREIGN KEY (patient_id) REFERENCES dbo.patients (patient_id))',
    );
    assert.deepEqual(
      [table.error?.number, table.error?.message],
      [103010, "Parse error at line: 2, column: 19: Incorrect syntax near 'FOREIGN'."],
    );
    assert.equal(server.object('pool', 'dbo.visits'), undefined);
    const col = await run('CREATE TABLE dbo.visits (visit_id int NOT NULL, patient_id varchar(20) REFERENCES dbo.patients (patient_id))');
    assert.equal(col.error?.message, "Parse error at line: 1, column: 72: Incorrect syntax near 'REFERENCES'.");
    const alter = await run('ALTER TABLE dbo.patients ADD CONSTRAINT fk_x FOREIGN KEY (pcp_id) REFERENCES dbo.patients (patient_id)');
    assert.equal(alter.error?.number, 103010);
    assert.equal(server.object('pool', 'dbo.fk_x'), undefined);
  });

  test('a name in another database is 40515, in a query and in a view; the own database by name is fine', async () => {
    const q = await run('SELECT COUNT(*) FROM [PopHealthLake].[dbo].[encounters]');
    assert.deepEqual(
      [q.error?.number, q.error?.message],
      [40515, "Reference to database and/or server name in 'PopHealthLake.dbo.encounters' is not supported in this version of SQL Server."],
    );
    const v = await run('CREATE VIEW dbo.enc AS SELECT e.encounter_id FROM [PopHealthLake].[dbo].[encounters] AS e');
    assert.equal(v.error?.number, 40515);
    assert.deepEqual((await run('SELECT COUNT(*) FROM [pool].[dbo].[patients]')).rows, [[0]]);
  });

  test('views are bound when created: unknown column 207, unknown qualifier 4104, unknown object 208, unnamed column 4511', async () => {
    const col = await run('CREATE VIEW dbo.v1 AS SELECT p.patient_id, p.nope FROM dbo.patients AS p');
    assert.deepEqual([col.error?.number, col.error?.class, col.error?.message], [207, 16, "Invalid column name 'nope'."]);
    const alias = await run('CREATE VIEW dbo.v1 AS SELECT x.patient_id FROM dbo.patients AS p');
    assert.deepEqual([alias.error?.number, alias.error?.message], [4104, 'The multi-part identifier "x.patient_id" could not be bound.']);
    assert.equal((await run('CREATE VIEW dbo.v1 AS SELECT m.a FROM dbo.missing AS m')).error?.number, 208);
    assert.equal((await run('CREATE VIEW dbo.v1 AS SELECT COUNT(*) FROM dbo.patients AS p')).error?.number, 4511);
    assert.equal(server.object('pool', 'dbo.v1'), undefined);
    // A view over a view is bound to the first view's columns.
    assert.equal(
      (await run('CREATE VIEW dbo.v1 AS SELECT p.pcp_id, COUNT(*) AS n FROM dbo.patients AS p GROUP BY p.pcp_id')).error,
      undefined,
    );
    assert.equal((await run('CREATE VIEW dbo.v2 AS SELECT v.n, v.pcp_id FROM dbo.v1 AS v')).error, undefined);
    assert.equal(
      (await run('CREATE VIEW dbo.v3 AS SELECT v.patient_id FROM dbo.v1 AS v')).error?.message,
      "Invalid column name 'patient_id'.",
    );
  });

  test('external data source, file format and table: created once, listed, queryable with their columns, DML refused', async () => {
    assert.equal((await run(`IF NOT EXISTS (SELECT 1 FROM sys.external_data_sources WHERE name = N'lake') ${SOURCE}`)).error, undefined);
    assert.equal(
      (await run(`IF NOT EXISTS (SELECT 1 FROM sys.external_data_sources WHERE name = N'lake') ${SOURCE}`)).error,
      undefined,
      'guarded: no second create',
    );
    assert.equal((await run(SOURCE)).error?.number, 2714);
    assert.equal((await run(FORMAT)).error, undefined);
    assert.equal((await run(`IF OBJECT_ID(N'[lake_src].[encounters]', N'U') IS NULL ${TABLE}`)).error, undefined);
    assert.equal((await run(`IF OBJECT_ID(N'[lake_src].[encounters]', N'U') IS NULL ${TABLE}`)).error, undefined);
    assert.deepEqual((await run('SELECT name, location, type_desc FROM sys.external_data_sources')).rows, [
      ['lake', 'abfss://ws-1@onelake.dfs.fabric.microsoft.com', 'HADOOP'],
    ]);
    assert.deepEqual((await run('SELECT name, format_type FROM sys.external_file_formats')).rows, [['parquet', 'PARQUET']]);
    assert.deepEqual((await run('SELECT name, location FROM sys.external_tables')).rows, [['encounters', '/lh-1/Tables/encounters/']]);
    const q = await run('SELECT encounter_id, los_days FROM lake_src.encounters');
    assert.deepEqual([q.error, q.rows], [undefined, []]);
    assert.equal((await run("INSERT INTO lake_src.encounters (encounter_id) VALUES (N'E1')")).error?.number, 46519);
    assert.equal((await run('CREATE VIEW dbo.ed AS SELECT e.encounter_id, e.los_days FROM lake_src.encounters AS e')).error, undefined);
    assert.equal(
      (await run('CREATE VIEW dbo.ed2 AS SELECT e.encounter_type FROM lake_src.encounters AS e')).error?.message,
      "Invalid column name 'encounter_type'.",
    );
  });

  test('an external table needs an existing data source and file format; the pool takes HADOOP sources over abfss/wasbs', async () => {
    assert.equal(
      (await run(TABLE.replace('[encounters]', '[x1]').replace('DATA_SOURCE = [lake]', 'DATA_SOURCE = [nope]'))).error?.message,
      "Invalid object name 'nope'.",
    );
    assert.equal(
      (await run(TABLE.replace('[encounters]', '[x1]').replace('FILE_FORMAT = [parquet]', 'FILE_FORMAT = [csv]'))).error?.message,
      "Invalid object name 'csv'.",
    );
    assert.ok((await run("CREATE EXTERNAL DATA SOURCE [web] WITH (TYPE = HADOOP, LOCATION = 'https://example.com/data')")).error);
    assert.ok((await run('CREATE EXTERNAL FILE FORMAT [js] WITH (FORMAT_TYPE = JSON)')).error);
  });

  test('DROP VIEW and DROP EXTERNAL TABLE; sys.sql_modules gives a view definition by schema and name', async () => {
    const defs = await run(
      "SELECT OBJECT_SCHEMA_NAME(object_id), OBJECT_NAME(object_id), definition FROM sys.sql_modules WHERE OBJECT_NAME(object_id) = N'ed'",
    );
    assert.deepEqual(defs.rows, [['dbo', 'ed', 'CREATE VIEW dbo.ed AS SELECT e.encounter_id, e.los_days FROM lake_src.encounters AS e']]);
    assert.equal((await run('DROP TABLE lake_src.encounters')).error?.number, 3701);
    assert.equal((await run('DROP VIEW dbo.ed')).error, undefined);
    assert.equal((await run('DROP EXTERNAL TABLE lake_src.encounters')).error, undefined);
    assert.equal(server.object('pool', 'lake_src.encounters'), undefined);
    assert.equal((await run('DROP EXTERNAL TABLE lake_src.encounters')).error?.number, 3701);
  });

  test("statements that must start a batch run through EXEC in one batch; SET XACT_ABORT ON ends it (and its EXEC'd batches) at the first run-time error", async () => {
    const ok = await run(
      "EXEC(N'CREATE SCHEMA [xa]'); EXEC(N'CREATE TABLE [xa].[t] (id int NOT NULL)'); INSERT INTO [xa].[t] (id) VALUES (1); EXEC(N'CREATE VIEW [xa].[v] AS SELECT t.id FROM xa.t AS t'); SELECT N'done', COUNT(*) FROM [xa].[t]",
    );
    assert.equal(ok.error, undefined);
    assert.deepEqual(ok.rows, [['done', 1]]);
    assert.ok(server.object('pool', 'xa.v'), 'the view made in the same batch through EXEC');
    // XACT_ABORT OFF (the default): the batch goes on after a run-time error in an EXEC'd batch.
    const off = await run("EXEC(N'CREATE TABLE [xa].[t] (id int NOT NULL)'); INSERT INTO [xa].[t] (id) VALUES (2)");
    assert.equal(off.error?.number, 2714);
    assert.equal((await run('SELECT COUNT(*) FROM [xa].[t]')).rows[0]![0], 2, 'the INSERT after the failed EXEC ran');
    // ON: the first run-time error, in the batch or in a batch it EXECs, ends the whole batch; the setting stays for the connection.
    const on = await run("SET XACT_ABORT ON; EXEC(N'CREATE TABLE [xa].[t] (id int NOT NULL)'); INSERT INTO [xa].[t] (id) VALUES (3)");
    assert.equal(on.error?.number, 2714);
    const outer = await run('INSERT INTO [xa].[missing] (id) VALUES (4); INSERT INTO [xa].[t] (id) VALUES (4)');
    assert.equal(outer.error?.number, 208);
    assert.equal((await run('SELECT COUNT(*) FROM [xa].[t]')).rows[0]![0], 2, 'nothing ran after either error');
    // A compile (parse) error in an EXEC'd batch ends only that batch, whatever XACT_ABORT says.
    const parse = await run("EXEC(N'CREATE TABLE [xa].[u] (id int NOT NULL'); INSERT INTO [xa].[t] (id) VALUES (5); SET XACT_ABORT OFF");
    assert.equal(parse.error?.number, 103010);
    assert.equal((await run('SELECT COUNT(*) FROM [xa].[t]')).rows[0]![0], 3);
  });
});

test('the sql-server dialect keeps SQL Server grammar: CREATE OR ALTER VIEW, 102 for a syntax error', async () => {
  const server = await startTdsServer({ databases: ['pool'], grants: ['svc-mi'], verifyToken, dialect: 'sql-server' });
  const conn = await tdsLogin(server);
  try {
    server.exec('pool', 'CREATE TABLE dbo.t (a int NULL)');
    assert.equal((await tdsBatch(conn, 'CREATE OR ALTER VIEW dbo.v AS SELECT t.a FROM dbo.t AS t')).error, undefined);
    assert.equal((await tdsBatch(conn, 'SELECT 1 garbage (')).error?.number, 102);
  } finally {
    conn.close();
    await server.stop();
  }
});
