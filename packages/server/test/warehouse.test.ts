import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { startTdsServer, type TdsServer, type SqlTable, type SqlView } from '../../sandbox/src/sql/index.js';
import { DEFAULT_CATALOG_DIR, loadApp } from '../src/catalog/index.js';
import { expandSeedTokens } from '../src/catalog/seed-tokens.js';
import type { CloudProfile } from '../src/cloud/profiles.js';
import { BackingPipeline } from '../src/backends/http-pipeline.js';
import { OneLakeClient } from '../src/backends/onelake.js';
import { connect, SqlError } from '../src/backends/sql.js';
import type { TokenSource } from '../src/backends/credential.js';
import type { Backends, ProvisionContext } from '../src/provisioning/context.js';
import { resolveTarget } from '../src/provisioning/targets.js';
import { loadConfig } from '../src/config.js';
import { cloudOf } from './helpers.js';
import { runProvisioner } from '../src/install/runner.js';
import { readOnlyBatch, withSharedAccess } from '../src/backends/shared-access.js';

const SQL_AUDIENCE = 'https://database.windows.net/';
const MI = 'svc-workspace-mi';
const keys = await generateKeyPair('RS256');

/** Signs a token the way the sandbox identity provider does for a managed identity. */
function sign(claims: Record<string, unknown>, lifetime = '1h') {
  return new SignJWT({
    oid: 'oid-mi',
    appid: 'app-mi',
    name: MI,
    xms_mirid: `/subscriptions/s/resourcegroups/rg/providers/Microsoft.Web/sites/${MI}`,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuedAt()
    .setExpirationTime(lifetime)
    .sign(keys.privateKey);
}

/** The service identity: a token for whatever audience the service asks for. */
const credential: TokenSource = { principal: 'managed', getToken: (audience) => sign({ aud: audience }) };

async function startServer(options: Partial<Parameters<typeof startTdsServer>[0]> = {}) {
  return startTdsServer({
    databases: ['popmgtpool'],
    admins: ['sql-admin'],
    verifyToken: async (jwt) => (await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'] })).payload as any,
    ...options,
  });
}

const app = loadApp(join(DEFAULT_CATALOG_DIR, 'app-healthcare-popmgt'));
const item = app.items.find((i) => i.itemType === 'warehouse')!;

/** A ProvisionContext as the runner builds it, for the sandbox cloud and the given SVC_* settings. */
function context(
  server: TdsServer,
  content: unknown = expandSeedTokens(item.content, new Date()),
  env: Record<string, string> = {},
  profile: CloudProfile = cloudOf({ SVC_CLOUD: 'sandbox' }),
): Omit<ProvisionContext, 'log'> {
  const settings = {
    SVC_WAREHOUSE_WORKSPACE: 'popmgt-ws',
    SVC_WAREHOUSE_DEDICATED_POOL: 'popmgtpool',
    SVC_WAREHOUSE_SERVER: server.address,
    ...env,
  };
  const pipeline = new BackingPipeline(profile, credential, { timeoutMs: 5_000, retryDelayMs: 10, concurrencyPerService: 4 });
  return {
    app,
    item,
    content,
    storedItemId: 'item-1',
    profile,
    target: resolveTarget(profile, loadConfig(settings).sharedSet, 'shared'),
    backends: { pipeline, oneLake: new OneLakeClient(pipeline, profile.oneLakeUrl, profile.storageAudience) } as unknown as Backends,
    // The lakehouse step ran first: its live id and platform workspace place the external tables' files.
    dependency: (k) =>
      k === 'clinical-lakehouse'
        ? { status: 'created', resourceId: 'lh-1', secondaryIds: { platformWorkspaceId: 'ws-1' }, steps: [] }
        : undefined,
    contentOf: (k) => app.items.find((i) => i.key === k)?.content,
  };
}

const table = (s: TdsServer, name: string) => s.object('popmgtpool', name) as SqlTable | undefined;
const view = (s: TdsServer, name: string) => s.object('popmgtpool', name) as SqlView | undefined;

describe('warehouse provisioning over TDS', () => {
  let server: TdsServer;
  const batches: Array<{ text: string; error?: number }> = [];
  before(async () => {
    server = await startServer({
      grants: [MI],
      onRequest: (e) => {
        if (e.method !== 'LOGIN') batches.push({ text: e.text, error: e.error });
      },
    });
  });
  after(() => server.stop());

  test('install creates schemas, tables, seed rows and dbt views in two batches (a read, then the script); a re-run duplicates nothing', async () => {
    const first = await runProvisioner(context(server));
    // Past the session options tedious sends as it connects: the read, then the script.
    const sent = batches.filter((b) => !b.text.startsWith('set ansi_nulls on'));
    assert.equal(sent.length, 2, sent.map((b) => b.text.slice(0, 120)).join('\n---\n'));
    assert.match(sent[1]!.text, /^SET XACT_ABORT ON;/);
    assert.ok(
      first.steps.some((l) => /^T-SQL: \d+ statement\(s\) of \d+ sent in one script$/.test(l)),
      first.steps.join('\n'),
    );
    assert.equal(first.status, 'created', JSON.stringify(first));
    for (const t of ['quality.care_gap_measures', 'mart.patient_risk', 'mart.care_gaps', 'mart.outreach_log'])
      assert.equal(table(server, t)?.kind, 'table', t);
    assert.equal(table(server, 'mart.patient_risk')!.rows.length, 10);
    assert.equal(table(server, 'mart.care_gaps')!.rows.length, 12);
    assert.equal(table(server, 'mart.outreach_log')!.rows.length, 8);
    assert.equal(table(server, 'quality.care_gap_measures')!.rows.length, 6);
    assert.equal(server.object('popmgtpool', 'mart.pk_patient_risk')?.kind, 'constraint');
    for (const v of ['stg_care_gaps', 'open_care_gaps', 'ed_utilization', 'panel_summary'])
      assert.equal(view(server, `analytics.${v}`)?.kind, 'view', v);
    assert.match(
      view(server, 'analytics.open_care_gaps')!.definition,
      /from \[analytics\]\.\[stg_care_gaps\] as s\s+join \[quality\]\.\[care_gap_measures\] as m/,
    );
    // The lakehouse's tables are external tables over its OneLake folders (a dedicated pool reads no other database).
    assert.match(view(server, 'analytics.ed_utilization')!.definition, /from \[PopHealthLake\]\.\[encounters\] as e/);
    const encounters = table(server, 'PopHealthLake.encounters')!;
    assert.deepEqual(encounters.external, { location: '/lh-1/Tables/encounters/', dataSource: 'onelake_ws1', fileFormat: 'lake_parquet' });
    assert.deepEqual(encounters.columns.map((c) => [c.name, c.type]).slice(0, 3), [
      ['encounter_id', 'nvarchar'],
      ['patient_id', 'nvarchar'],
      ['encounter_date', 'date'],
    ]);
    const pool = server.view().databases.find((d) => d.name === 'popmgtpool')!;
    assert.deepEqual(pool.dataSources, [
      { name: 'onelake_ws1', type: 'HADOOP', location: `abfss://ws-1@${new URL(cloudOf({ SVC_CLOUD: 'sandbox' }).oneLakeUrl).host}` },
    ]);
    assert.deepEqual(pool.fileFormats, [{ name: 'lake_parquet', type: 'PARQUET' }]);
    // Nothing the pool refuses was sent, and nothing was refused.
    assert.deepEqual(
      batches.filter((b) => b.error !== undefined),
      [],
    );
    for (const b of batches)
      assert.doesNotMatch(b.text, /CREATE\s+OR\s+ALTER|FOREIGN\s+KEY|REFERENCES|\[PopHealthLake\]\.\[dbo\]/i, b.text);
    assert.doesNotMatch(view(server, 'analytics.stg_care_gaps')!.definition, /\{\{|config\(/);
    // Dates went in as the column types hold them.
    const risk = table(server, 'mart.patient_risk')!;
    assert.match(String(risk.rows[0]![5]), /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(
      first.steps.some((l) => /^ddl 1\/9: schema quality created$/.test(l)),
      first.steps.join('\n'),
    );
    assert.ok(first.steps.includes('seed mart.care_gaps: 12 of 12 rows inserted'), first.steps.join('\n'));
    assert.ok(first.steps.includes('dbt model panel_summary: view analytics.panel_summary created (CREATE VIEW)'), first.steps.join('\n'));
    assert.ok(first.steps.includes('external table PopHealthLake.encounters created'), first.steps.join('\n'));
    assert.deepEqual(first.secondaryIds, {
      sqlEndpoint: `127.0.0.1,${server.port}`,
      sqlEndpointId: 'popmgtpool',
      server: server.address,
      database: 'popmgtpool',
      // The lakehouse's name its external tables' schema has, which its removal finds here after the lakehouse went.
      'lakehouse:clinical-lakehouse': 'PopHealthLake',
    });

    const objectsBefore = [...server.state().databases.get('popmgtpool')!.schemas.values()].map((s) => s.objects.size);
    const stateBefore = JSON.stringify(server.view());
    const second = await runProvisioner(context(server));
    assert.equal(second.status, 'exists', JSON.stringify(second));
    assert.equal(JSON.stringify(server.view()), stateBefore, 'a re-run leaves the pool as it was');
    assert.ok(second.steps.includes('external table PopHealthLake.encounters exists'), second.steps.join('\n'));
    assert.ok(second.steps.includes('dbt model panel_summary: view analytics.panel_summary unchanged'), second.steps.join('\n'));
    assert.equal(table(server, 'mart.care_gaps')!.rows.length, 12);
    assert.equal(table(server, 'mart.patient_risk')!.rows.length, 10);
    assert.deepEqual(
      [...server.state().databases.get('popmgtpool')!.schemas.values()].map((s) => s.objects.size),
      objectsBefore,
    );
    assert.equal(view(server, 'analytics.panel_summary')!.alteredCount, 0);
    assert.ok(
      second.steps.includes('seed mart.care_gaps: 0 of 12 rows inserted, 12 already present (key gap_id)'),
      second.steps.join('\n'),
    );
    assert.ok(second.steps.includes('ddl 4/9: table quality.care_gap_measures exists (6 columns)'));
  });

  test('beside other installs (shared access) a warehouse that holds everything is only read; a seed row missing is refused before any write, then inserted alone', async () => {
    const stateBefore = JSON.stringify(server.view());
    const since = batches.length;
    const beside = await withSharedAccess(() => runProvisioner(context(server)));
    assert.equal(beside.refused, undefined, beside.value.steps.join('\n'));
    assert.equal(beside.value.status, 'exists', JSON.stringify(beside.value));
    assert.equal(JSON.stringify(server.view()), stateBefore, 'nothing changed');
    // Past the session options tedious sends as it connects: the read (constraints and views too), then the seed rows' keys.
    const sent = batches.slice(since).filter((b) => !b.text.startsWith('set ansi_nulls on'));
    assert.equal(sent.length, 2, sent.map((b) => b.text.slice(0, 120)).join('\n---\n'));
    assert.match(sent[0]!.text, /FROM sys\.objects WHERE type IN/);
    assert.match(sent[1]!.text, /^IF EXISTS \(SELECT 1 FROM \[quality\]\.\[care_gap_measures\] WHERE \[measure_id\] = /);
    for (const b of sent) assert.equal(readOnlyBatch(b.text), true, b.text);
    const steps = beside.value.steps;
    for (const line of [
      'ddl 1/9: schema quality exists',
      'ddl 4/9: table quality.care_gap_measures exists (6 columns)',
      'seed mart.care_gaps: 0 of 12 rows inserted, 12 already present (key gap_id)',
      'external table PopHealthLake.encounters exists',
      'dbt model panel_summary: view analytics.panel_summary unchanged',
      'T-SQL: nothing sent: the reads found what all 22 statement(s) would make',
    ])
      assert.ok(steps.includes(line), `${line}\n---\n${steps.join('\n')}`);
    assert.ok(
      steps.some((l) => /^ddl \d\/9: constraint pk_patient_risk on mart\.patient_risk/.test(l)),
      steps.join('\n'),
    );

    // A seed row deleted by hand: the reads find it missing, and the script is refused before it is sent.
    const rows = table(server, 'mart.care_gaps')!.rows;
    rows.splice(3, 1);
    const missing = batches.length;
    const refused = await withSharedAccess(() => runProvisioner(context(server)));
    assert.equal(refused.refused, 'a T-SQL batch that writes');
    assert.equal(table(server, 'mart.care_gaps')!.rows.length, 11);
    for (const b of batches.slice(missing)) assert.ok(b.text.startsWith('set ansi_nulls on') || readOnlyBatch(b.text), b.text);
    // Alone, only what the read did not find is sent: the four seeds' guarded INSERTs (a row inserted reports created).
    const alone = await runProvisioner(context(server));
    assert.equal(alone.status, 'created', JSON.stringify(alone));
    assert.ok(alone.steps.includes('T-SQL: 4 statement(s) of 22 sent in one script'), alone.steps.join('\n'));
    assert.ok(alone.steps.includes('seed mart.care_gaps: 1 of 12 rows inserted, 11 already present (key gap_id)'), alone.steps.join('\n'));
    assert.equal(table(server, 'mart.care_gaps')!.rows.length, 12);
  });

  test('a server-side error mid-run fails the step with the server message unmodified', async () => {
    const content = structuredClone(expandSeedTokens(item.content, new Date())) as any;
    content.sources.mart.tables.push('discharges');
    content.models.push({ name: 'readmissions', sql: "select d.patient_id from {{ source('mart', 'discharges') }} as d" });
    const result = await runProvisioner(context(server, content));
    assert.equal(result.status, 'failed');
    assert.equal(result.error, "Invalid object name 'mart.discharges'.");
    // Batches before the failing one ran.
    assert.ok(result.steps.includes('dbt model panel_summary: view analytics.panel_summary unchanged'), result.steps.join('\n'));
    assert.equal(view(server, 'analytics.readmissions'), undefined);
  });

  test('a model whose SQL changed: its view is dropped and created again (CREATE VIEW through EXEC); then unchanged', async () => {
    const content = structuredClone(expandSeedTokens(item.content, new Date())) as any;
    const model = content.models.find((m: any) => m.name === 'stg_care_gaps');
    model.sql = model.sql.replace('g.closed_on,', 'g.closed_on, g.measure_id as measure,');
    const id = view(server, 'analytics.stg_care_gaps')!.id;
    const since = batches.length;
    const changed = await runProvisioner(context(server, content));
    assert.equal(changed.status, 'exists', JSON.stringify(changed));
    assert.ok(
      changed.steps.includes(
        'dbt model stg_care_gaps: view analytics.stg_care_gaps changed: dropped and created again (DROP VIEW, CREATE VIEW)',
      ),
      changed.steps.join('\n'),
    );
    assert.notEqual(view(server, 'analytics.stg_care_gaps')!.id, id);
    assert.ok(view(server, 'analytics.stg_care_gaps')!.columns.includes('measure'));
    const script = batches.slice(since).at(-1)!.text;
    assert.match(
      script,
      /IF OBJECT_ID\(N'\[analytics\]\.\[stg_care_gaps\]', N'V'\) IS NOT NULL DROP VIEW \[analytics\]\.\[stg_care_gaps\];\nEXEC\(N'CREATE VIEW \[analytics\]\.\[stg_care_gaps\] AS/,
      'DROP VIEW, then CREATE VIEW through EXEC (it must start its batch)',
    );
    const again = await runProvisioner(context(server, content));
    assert.ok(again.steps.includes('dbt model stg_care_gaps: view analytics.stg_care_gaps unchanged'), again.steps.join('\n'));
  });

  test('an error injected by a fault rule on a batch reaches the step as the server sent it; a duplicate key is sent again twice first', async () => {
    const message = 'String or binary data would be truncated.';
    const faults = {
      match: (_s: string, method: string, path: string) =>
        method === 'BATCH' && path.includes('INSERT INTO [mart].[outreach_log]') ? { id: 'f1', errorCode: '8152', message } : undefined,
    };
    const s = await startServer({ grants: [MI], faults });
    try {
      const result = await runProvisioner(context(s));
      assert.equal(result.status, 'failed');
      assert.equal(result.error, message);
      // The fault refused the whole script: the read ran, nothing of the script did.
      assert.equal(s.object('popmgtpool', 'mart.outreach_log'), undefined);
      assert.ok(!result.steps.some((l) => l.startsWith('ddl ')), result.steps.join('\n'));
    } finally {
      await s.stop();
    }
    // A duplicate key (a row another install inserted between a statement's key check and its INSERT) sends the script
    // again from the statement that failed, up to three times in all; then the server's error stands.
    const duplicate = "Violation of PRIMARY KEY constraint 'pk_care_gaps'. Cannot insert duplicate key in object 'mart.care_gaps'.";
    const sent: string[] = [];
    const d = await startServer({
      grants: [MI],
      onRequest: (e) => {
        if (e.method === 'BATCH') sent.push(e.text);
      },
      faults: {
        match: (_s: string, method: string, path: string) =>
          method === 'BATCH' && path.includes('INSERT INTO [mart].[care_gaps]')
            ? { id: 'f2', errorCode: '2627', message: duplicate }
            : undefined,
      },
    });
    try {
      const result = await runProvisioner(context(d));
      assert.equal(result.status, 'failed');
      assert.equal(result.error, duplicate);
      assert.equal(sent.length, 5, "tedious's session options, the read and three tries of the script");
      assert.equal(result.steps.filter((l) => l.startsWith('a seed statement met a row another install inserted')).length, 2);
    } finally {
      await d.stop();
    }
  });
});

describe('warehouse T-SQL gate', () => {
  test('identity not a database user: remediation with the exact T-SQL; the admin runs it; the step retry creates', async () => {
    const server = await startServer();
    try {
      const gated = await runProvisioner(context(server));
      assert.equal(gated.status, 'remediation', JSON.stringify(gated));
      assert.equal(gated.gate!.reason, 'warehouse T-SQL not authorized');
      assert.equal(gated.error, "Login failed for user '<token-identified principal>'.");
      const sql = gated.gate!.remediation;
      assert.match(sql, new RegExp(`CREATE USER \\[${MI}\\] FROM EXTERNAL PROVIDER;`));
      assert.match(sql, new RegExp(`EXEC sp_addrolemember 'db_owner', '${MI}';`));
      assert.deepEqual(
        server.logins.map((l) => [l.ok, l.number]),
        [[false, 18456]],
      );

      // The admin runs exactly what the gate says, over TDS.
      const admin = await connect(
        { host: '127.0.0.1', port: server.port, database: 'popmgtpool', encrypt: false },
        await sign({ aud: SQL_AUDIENCE, name: 'sql-admin', oid: 'oid-admin', appid: undefined, xms_mirid: undefined }),
      );
      await admin.batch(sql);
      admin.close();
      const db = server.state().databases.get('popmgtpool')!;
      assert.equal(db.users.get(MI.toLowerCase())?.type, 'E');
      assert.ok(db.roles.get('db_owner')!.has(MI.toLowerCase()));

      const retried = await runProvisioner(context(server));
      assert.equal(retried.status, 'created', JSON.stringify(retried));
      assert.equal((server.object('popmgtpool', 'mart.care_gaps') as SqlTable).rows.length, 12);
    } finally {
      await server.stop();
    }
  });

  test('a database user without rights gets 262 on CREATE and the same gate', async () => {
    const server = await startServer();
    server.grantUser(MI, { role: null });
    try {
      const result = await runProvisioner(context(server));
      assert.equal(result.status, 'remediation');
      assert.equal(result.error, "CREATE SCHEMA permission denied in database 'popmgtpool'.");
      assert.match(result.gate!.remediation, /sp_addrolemember 'db_owner'/);
    } finally {
      await server.stop();
    }
  });

  test('warehouse workspace or pool unset: the "not configured" gate, nothing sent', async () => {
    const server = await startServer();
    try {
      const ctx = context(server, undefined, { SVC_WAREHOUSE_WORKSPACE: '', SVC_WAREHOUSE_DEDICATED_POOL: '' });
      const result = await runProvisioner({
        ...ctx,
        target: { ...ctx.target, warehouseWorkspace: undefined, warehousePool: undefined, warehouseDatabase: undefined },
      });
      assert.equal(result.status, 'remediation');
      assert.match(
        result.gate!.remediation,
        /^set SVC_WAREHOUSE_WORKSPACE and SVC_WAREHOUSE_DEDICATED_POOL; in a tenant other than the default one, the deployment operator assigns it/,
      );
      assert.equal(server.logins.length, 0);
    } finally {
      await server.stop();
    }
  });
});

describe('logins', () => {
  let server: TdsServer;
  before(async () => {
    server = await startServer({ grants: [MI] });
  });
  after(() => server.stop());
  const endpoint = () => ({ host: '127.0.0.1', port: server.port, database: 'popmgtpool', encrypt: false });

  test('a token with the wrong audience is refused with 18456', async () => {
    const err = await connect(endpoint(), await sign({ aud: 'https://management.azure.com/' })).catch((e) => e);
    assert.ok(err instanceof SqlError, String(err));
    assert.deepEqual(
      [err.number, err.state, err.class, err.message],
      [18456, 1, 14, "Login failed for user '<token-identified principal>'."],
    );
  });

  test('an expired token or one signed by another key is refused with 18456', async () => {
    const expired = await connect(endpoint(), await sign({ aud: SQL_AUDIENCE }, '-1m')).catch((e) => e);
    assert.equal(expired.number, 18456);
    const other = await generateKeyPair('RS256');
    const forged = await new SignJWT({ aud: SQL_AUDIENCE, name: MI })
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime('1h')
      .sign(other.privateKey);
    assert.equal((await connect(endpoint(), forged).catch((e) => e)).number, 18456);
  });

  test('a paused pool is waited for within the bound and the wait is in the step log', async () => {
    server.setPaused(1_500);
    const result = await runProvisioner(context(server));
    assert.equal(result.status, 'created', JSON.stringify(result));
    assert.match(result.steps[0]!, /^pool popmgtpool is not available yet \(40613: paused or resuming\); retrying in 1 s$/);
    assert.ok(
      result.steps.some((l) => /connected to .* after \d attempts/.test(l)),
      result.steps.join('\n'),
    );
  });

  test('the token is never sent to a host outside the cloud: a commercial profile refuses the loopback server', async () => {
    const before = server.logins.length;
    const result = await runProvisioner(context(server, undefined, {}, cloudOf({ SVC_CLOUD: 'commercial' })));
    assert.equal(result.status, 'failed');
    assert.equal(result.error, undefined, 'the refusal is the service’s own, not presented as the backing service’s text');
    assert.equal(result.code, 'host_not_allowed');
    assert.match(result.message!, /Refused to send the service's token to 127\.0\.0\.1/);
    assert.equal(server.logins.length, before);
  });
});
