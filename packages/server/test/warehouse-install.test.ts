import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { startSandbox } from '@svc/sandbox';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { connect, parseServer } from '../src/backends/sql.js';
import { buildWithSandbox, install, retryStep, stepOf, workspace, type Sandbox } from './install-helpers.js';

const APP = 'app-healthcare-popmgt';
const app = loadCatalog().get(APP)!;
const warehouse = app.items.find((i) => i.itemType === 'warehouse')!;
const content = warehouse.content as {
  seeds: Array<{ table: string; rows: unknown[] }>;
  models: Array<{ name: string }>;
  modelSchema: string;
};
const LOGIN_FAILED = "Login failed for user '<token-identified principal>'.";

/** The warehouse pool's objects as the sandbox's state view shows them. */
async function pool(sandbox: Sandbox) {
  const db = (await sandbox.admin.state()).sql.databases.find((d) => d.name === sandbox.ids.warehousePool);
  assert.ok(db, 'the pool is a database of the sandbox TDS endpoint');
  return db;
}
/** Row counts of the warehouse's own tables (external tables hold no rows: they read the lake's files). */
const rowCounts = (db: Awaited<ReturnType<typeof pool>>) =>
  Object.fromEntries(db.tables.filter((t) => !t.external).map((t) => [`${t.schema}.${t.name}`, t.rowCount]));
const seeded = Object.fromEntries(content.seeds.map((s) => [s.table, s.rows.length]));

/** A fresh sandbox (set up by `before`), the app wired to it, and the healthcare app installed into a new workspace. */
async function installHealthcare(t: TestContext, o: { env?: Record<string, string>; before?: (sb: Sandbox) => Promise<unknown> } = {}) {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  await o.before?.(sb);
  const rig = await buildWithSandbox(t, o.env, sb);
  const ws = await workspace(rig.h, rig.tenant);
  const job = await install(rig.h, rig.tenant, APP, { workspaceId: ws });
  return { ...rig, ws, job, step: stepOf(job, 'warehouse') };
}

/** Retries the warehouse step as the console's Retry does (202), and follows the job until the worker has run it. */
async function retry(rig: Awaited<ReturnType<typeof installHealthcare>>) {
  const job = await retryStep(rig.h, rig.tenant, rig.job.id, rig.step.stepIndex);
  return { job, step: stepOf(job, 'warehouse') };
}

test('healthcare installs its warehouse over TDS: tables with the seeded rows, dbt views over the lakehouse; a re-install duplicates nothing', async (t) => {
  const rig = await installHealthcare(t);
  const { sandbox, step, job } = rig;
  assert.equal(step.result.status, 'created', JSON.stringify(step.result));
  assert.equal(job.provision.outcome, 'all-created');
  assert.equal(job.status, 'done');
  assert.deepEqual(step.result.secondaryIds, {
    sqlEndpoint: sandbox.urls.sql.replace(':', ','),
    sqlEndpointId: sandbox.ids.warehousePool,
    server: sandbox.urls.sql,
    database: sandbox.ids.warehousePool,
    'lakehouse:clinical-lakehouse': 'PopHealthLake',
  });
  const db = await pool(sandbox);
  assert.deepEqual(rowCounts(db), seeded, 'every seeded table, with exactly its seed rows');
  assert.deepEqual(
    db.views.map((v) => `${v.schema}.${v.name}`).sort(),
    content.models.map((m) => `${content.modelSchema}.${m.name}`).sort(),
  );
  assert.match(
    db.views.find((v) => v.name === 'ed_utilization')!.definition,
    /from \[PopHealthLake\]\.\[encounters\] as e\s+join \[PopHealthLake\]\.\[patients\] as p/,
  );
  assert.deepEqual(
    db.constraints.map((c) => [c.name, c.table, c.enforced]),
    [
      ['pk_patient_risk', 'patient_risk', false],
      ['pk_care_gaps', 'care_gaps', false],
    ],
  );
  // The views read the lakehouse the install created through external tables over its OneLake folders.
  const lakehouseId = stepOf(job, 'lakehouse').result.resourceId;
  const external = db.tables.filter((x) => x.external).map((x) => [x.schema, x.name, x.external!.location]);
  assert.deepEqual(external.sort(), [
    ['PopHealthLake', 'encounters', `/${lakehouseId}/Tables/encounters/`],
    ['PopHealthLake', 'patients', `/${lakehouseId}/Tables/patients/`],
  ]);
  assert.deepEqual(
    db.dataSources.map((d) => [d.type, d.location]),
    [['HADOOP', `abfss://${sandbox.ids.platformWorkspaceId}@${new URL(sandbox.env.SVC_ONELAKE_URL!).host}`]],
  );
  // Each batch is in the step log and reached the endpoint as the service identity.
  assert.ok(
    step.result.steps.includes(`seed mart.care_gaps: ${seeded['mart.care_gaps']} of ${seeded['mart.care_gaps']} rows inserted`),
    step.result.steps.join('\n'),
  );
  assert.ok(
    step.result.steps.includes('dbt model panel_summary: view analytics.panel_summary created (CREATE VIEW)'),
    step.result.steps.join('\n'),
  );
  const batches = (await sandbox.admin.requests({ service: 'sql' })).filter((r) => r.method === 'BATCH');
  // Past the session options tedious sends as it connects: one read, then one script of every statement.
  const sent = batches.filter((r) => !r.text?.startsWith('set ansi_nulls on'));
  assert.equal(sent.length, 2, sent.map((r) => r.text?.slice(0, 100)).join('\n---\n'));
  assert.match(sent[1]!.text!, /^SET XACT_ABORT ON;/);
  assert.ok(sent[1]!.text!.includes("EXEC(N'CREATE VIEW [analytics].[panel_summary]"));
  for (const r of batches) assert.doesNotMatch(r.path, /CREATE\s+OR\s+ALTER|FOREIGN\s+KEY|REFERENCES/i);
  for (const r of batches) assert.deepEqual([r.status, r.identity], [200, sandbox.ids.serviceIdentity.objectId], r.path);

  const before = await pool(sandbox);
  const again = await install(rig.h, rig.tenant, APP, { workspaceId: rig.ws });
  const second = stepOf(again, 'warehouse');
  assert.equal(second.result.status, 'exists', JSON.stringify(second.result));
  const after = await pool(sandbox);
  assert.deepEqual(rowCounts(after), seeded, 'no duplicated rows');
  assert.deepEqual(after.schemas, before.schemas);
  assert.deepEqual(after, before, 'the pool is exactly as the first install left it');
  assert.ok(
    second.result.steps.includes('dbt model panel_summary: view analytics.panel_summary unchanged'),
    second.result.steps.join('\n'),
  );
  assert.ok(
    second.result.steps.includes(
      `seed mart.care_gaps: 0 of ${seeded['mart.care_gaps']} rows inserted, ${seeded['mart.care_gaps']} already present (key gap_id)`,
    ),
    second.result.steps.join('\n'),
  );
});

test('identity not a database user: the T-SQL gate with the exact statements; the admin runs them; the step retry creates', async (t) => {
  const rig = await installHealthcare(t, { before: (sb) => sb.admin.revoke({ service: 'sql', role: 'user' }) });
  const { sandbox: sb, job, step } = rig;
  assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
  assert.equal(step.result.gate.reason, 'warehouse T-SQL not authorized');
  assert.equal(step.result.error, LOGIN_FAILED);
  const name = sb.ids.serviceIdentity.name;
  assert.equal(
    step.result.gate.remediation,
    [
      `-- As an Entra admin of ${sb.urls.sql}, in database [${sb.ids.warehousePool}]:`,
      `CREATE USER [${name}] FROM EXTERNAL PROVIDER;`,
      `EXEC sp_addrolemember 'db_owner', '${name}';`,
    ].join('\n'),
  );
  assert.equal(job.status, 'partial');
  assert.deepEqual((await pool(sb)).tables, [], 'nothing was created');
  const refused = (await sb.admin.requests({ service: 'sql' })).filter((r) => r.method === 'LOGIN');
  assert.deepEqual(
    refused.map((r) => [r.status, r.sqlError, r.identity]),
    [[400, 18456, sb.ids.serviceIdentity.objectId]],
  );

  // The server's Entra admin runs exactly the gate's T-SQL over TDS.
  const { host, port } = parseServer(sb.urls.sql);
  const admin = await connect(
    { host, port, database: sb.ids.warehousePool, encrypt: false },
    await sb.admin.token({ principal: 'ada@sandbox.onmicrosoft.com', audience: 'https://database.windows.net/' }),
  );
  await admin.batch(step.result.gate.remediation);
  admin.close();
  assert.deepEqual((await pool(sb)).users.find((u) => u.name === name)?.roles, ['db_owner']);

  const retried = await retry(rig);
  assert.equal(retried.step.result.status, 'created', JSON.stringify(retried.step.result));
  assert.equal(retried.job.provision.outcome, 'all-created');
  assert.equal(retried.job.status, 'done');
  assert.deepEqual(rowCounts(await pool(sb)), seeded);
});

test('a grant revoked to a role without DDL rights: 262 on the first CREATE, the same gate; the sandbox grant fixes it', async (t) => {
  const rig = await installHealthcare(t, {
    before: async (sb) => {
      await sb.admin.revoke({ service: 'sql', role: 'db_owner' });
      await sb.admin.grant({ service: 'sql', role: 'db_datareader' });
    },
  });
  const { sandbox: sb, step } = rig;
  assert.equal(step.result.status, 'remediation');
  assert.equal(step.result.error, `CREATE SCHEMA permission denied in database '${sb.ids.warehousePool}'.`);
  assert.equal(step.result.gate.reason, 'warehouse T-SQL not authorized');
  await sb.admin.grant({ service: 'sql', role: 'db_owner' });
  const retried = await retry(rig);
  assert.equal(retried.step.result.status, 'created', JSON.stringify(retried.step.result));
});

test('a server-side error on the script fails the step with the server’s message unmodified; the retry completes without duplicates', async (t) => {
  const message = "The transaction log for database 'sandboxpool' is full due to 'ACTIVE_TRANSACTION'.";
  const rig = await installHealthcare(t, {
    before: (sb) =>
      sb.admin.addFault({
        service: 'sql',
        method: 'BATCH',
        path: 'INSERT INTO \\[mart\\]\\.\\[outreach_log\\]',
        errorCode: '9002',
        message,
      }),
  });
  const { sandbox: sb, job, step } = rig;
  assert.equal(step.result.status, 'failed', JSON.stringify(step.result));
  assert.equal(step.result.error, message);
  assert.equal(job.status, 'partial');
  // The fault refused the script that holds the INSERT (every statement is in it): the read ran, nothing of the script did.
  assert.ok(!step.result.steps.some((l: string) => /^(ddl|seed) /.test(l)), step.result.steps.join('\n'));
  assert.deepEqual((await pool(sb)).tables, []);
  const failed = (await sb.admin.requests({ service: 'sql' })).filter((r) => r.sqlError === 9002);
  assert.equal(failed.length, 1);

  await sb.admin.clearFaults();
  const retried = await retry(rig);
  assert.equal(retried.step.result.status, 'created', JSON.stringify(retried.step.result));
  assert.deepEqual(rowCounts(await pool(sb)), seeded, 'the retry made every table and inserted each row once');
});

test('a connection the server resets mid-run fails the step (the service keeps running); the retry completes', async (t) => {
  const rig = await installHealthcare(t, {
    before: (sb) => sb.admin.addFault({ service: 'sql', method: 'BATCH', path: 'CREATE VIEW', reset: true, count: 1 }),
  });
  const { sandbox: sb, step } = rig;
  assert.equal(step.result.status, 'failed', JSON.stringify(step.result));
  assert.equal(step.result.error, undefined, 'a lost connection is no answer of the server');
  assert.match(step.result.message, /socket hang up|Connection lost|ECONNRESET/);
  const retried = await retry(rig);
  assert.equal(retried.step.result.status, 'created', JSON.stringify(retried.step.result));
  assert.equal((await pool(sb)).views.length, content.models.length);
});

test('a token with the wrong audience is refused with 18456: the T-SQL gate, and the endpoint logged who tried', async (t) => {
  // The service asks for its SQL token with an audience the endpoint does not accept.
  const rig = await installHealthcare(t, { env: { SVC_SQL_AUDIENCE: 'https://storage.azure.com/' } });
  assert.equal(rig.step.result.status, 'remediation', JSON.stringify(rig.step.result));
  assert.equal(rig.step.result.error, LOGIN_FAILED);
  const logins = (await rig.sandbox.admin.requests({ service: 'sql' })).filter((r) => r.method === 'LOGIN');
  assert.deepEqual(
    logins.map((r) => [r.status, r.sqlError, r.identity]),
    [[400, 18456, rig.sandbox.ids.serviceIdentity.objectId]],
  );
  assert.deepEqual((await pool(rig.sandbox)).tables, []);
});

test('a paused pool (logins answer 40613) is waited for within the bound, and the wait is in the step log', async (t) => {
  const { sandbox: sb, step } = await installHealthcare(t, {
    before: (sb) => sb.admin.addFault({ service: 'sql', method: 'LOGIN', errorCode: '40613', count: 2 }),
  });
  assert.equal(step.result.status, 'created', JSON.stringify(step.result));
  const name = sb.ids.warehousePool;
  assert.deepEqual(step.result.steps.slice(0, 3), [
    `pool ${name} is not available yet (40613: paused or resuming); retrying in 1 s`,
    `pool ${name} is not available yet (40613: paused or resuming); retrying in 2 s`,
    `connected to ${sb.urls.sql}, database ${name} (loopback sandbox, no TLS) after 3 attempts`,
  ]);
  const logins = (await sb.admin.requests({ service: 'sql' })).filter((r) => r.method === 'LOGIN');
  assert.deepEqual(
    logins.map((r) => r.sqlError ?? r.status),
    [40613, 40613, 200],
  );
});
