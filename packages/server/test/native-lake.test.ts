// A lakehouse in a cloud without the data platform (issue 20): folders and seed CSV files in the lake, a database with
// external tables on the Synapse workspace's serverless SQL pool, a warehouse reading it; re-run, gates, tenants.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lakehouseLake } from '../src/item-types/lakehouse-lake.js';
import { LakehouseContent } from '../src/item-types/lakehouse.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { bindContent } from '../src/install/runner.js';
import { install, stepOf, workspace } from './install-helpers.js';
import { targetOf } from './remove-helpers.js';
import { APP, checkRequests, lakePaths, lakeService, serverlessDb } from './native-lake-helpers.js';

const catalogApp = loadCatalog().apps.find((a) => a.id === APP)!;
const lakehouse = catalogApp.items.find((i) => i.key === 'clinical-lakehouse')!;
const content = lakehouse.content as LakehouseContent;

test('a lakehouse installs on the lake and the serverless pool, a warehouse reads it; a re-run is exists with nothing duplicated', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  const step = stepOf(job, 'lakehouse');
  assert.equal(step.result.status, 'created', JSON.stringify(step.result));
  assert.equal(step.result.backend, 'lake');
  const folder: string = step.result.secondaryIds.lakeFolder;
  assert.match(folder, /^w[0-9a-f]{12}_PopHealthLake$/);
  assert.equal(step.result.resourceId, `${sb.env.SVC_LAKE_ACCOUNT}/${sb.env.SVC_LAKE_CONTAINER}/${folder}`);
  // Bound as a lakehouse's SQL endpoint: the serverless pool (host,port) and the database.
  const [host, port] = sb.env.SVC_SYNAPSE_SERVERLESS_SERVER!.split(':');
  assert.deepEqual(
    [step.result.secondaryIds.sqlEndpoint, step.result.secondaryIds.sqlEndpointId, step.result.secondaryIds.database],
    [`${host},${port}`, folder, folder],
  );

  // The folder tree: a folder per table with its seed rows as one CSV file, the declared file folders.
  const paths = await lakePaths(sb, folder);
  for (const t of content.tables) assert.ok(paths.includes(`${t.folder}/part-00000.csv`), `${t.folder}: ${paths.join(', ')}`);
  for (const f of content.files ?? []) assert.ok(paths.includes(f.replace(/\/+$/, '')), f);
  // The database: the data source over the folder, the CSV format, an external table per table reading the rows.
  const db = (await serverlessDb(sb, folder))!;
  assert.ok(db, 'the serverless database exists');
  assert.deepEqual(
    db.dataSources.map((d) => d.location),
    [`abfss://${sb.env.SVC_LAKE_CONTAINER}@${sb.env.SVC_LAKE_ACCOUNT}.dfs.core.windows.net/${folder}`],
  );
  assert.deepEqual(db.tables.map((x) => x.name).sort(), content.tables.map((x) => x.name).sort());
  // Read back through the pool as the service identity: the seed rows, converted to the columns' types.
  const { openWarehouse } = await import('../src/backends/sql.js');
  const session = await openWarehouse(
    h.services.profile,
    h.services.backends.pipeline.credential,
    sb.env.SVC_SYNAPSE_SERVERLESS_SERVER!,
    folder,
  );
  const patients = content.tables.find((x) => x.name === 'patients')!;
  const read = await session.batch(`SELECT ${patients.columns[0]!.name} FROM dbo.patients`);
  session.close();
  assert.deepEqual(
    read.rows.map((r) => r[0]),
    patients.seedRows!.map((r) => r[0]),
  );

  // The warehouse reads the lakehouse through external tables over the same folder (delimited text).
  const wh = stepOf(job, 'warehouse');
  assert.equal(wh.result.status, 'created', JSON.stringify(wh.result));
  const pool = (await sb.admin.state()).sql.databases.find((d) => d.name === sb.ids.warehousePool)!;
  const external = pool.tables.find((x) => x.schema === 'PopHealthLake' && x.name === 'patients')!;
  assert.deepEqual(external.external, {
    location: `/${folder}/Tables/patients/`,
    dataSource: `lake_${sb.env.SVC_LAKE_ACCOUNT}_${sb.env.SVC_LAKE_CONTAINER}`,
    fileFormat: 'lake_csv',
  });
  assert.deepEqual(
    pool.fileFormats.map((f) => f.name),
    ['lake_csv'],
  );
  // Queried in the dedicated pool, the external table reads the lakehouse's seed file.
  const dedicated = await openWarehouse(
    h.services.profile,
    h.services.backends.pipeline.credential,
    sb.env.SVC_WAREHOUSE_SERVER!,
    sb.ids.warehousePool,
  );
  const viaPool = await dedicated.batch(`SELECT ${patients.columns[0]!.name} FROM [PopHealthLake].[patients]`);
  dedicated.close();
  assert.deepEqual(
    viaPool.rows.map((r) => r[0]),
    patients.seedRows!.map((r) => r[0]),
  );

  // A semantic model binds to it as to a lakehouse's SQL endpoint: Sql.Database(<the pool>, <the database>).
  const results = new Map(job.provision.steps.map((s: any) => [catalogApp.items[s.stepIndex]!.key, s.result]));
  const model = catalogApp.items.find((i) => i.key === 'clinical-model')!;
  const target = await targetOf(h, tenant);
  const bound = JSON.stringify(bindContent(model.content, results as never, target, h.services.profile));
  assert.ok(bound.includes(`Sql.Database(\\"${host},${port}\\", \\"${folder}\\")`), bound.slice(0, 2000));

  // Every lake and serverless request is one the backend declares and the published description (or reference) allows.
  const type = { ...lakehouseLake };
  await checkRequests(sb, since, [...type.calls(content), ...type.readCalls(content)]);

  // Again, into another workspace: exists; the same paths, the seed files written once, no new database object.
  const before = { paths, db: JSON.stringify(await serverlessDb(sb, folder)), seed: (await sb.admin.state()).lake };
  // Listed three paths a page this time: the folder's listing follows x-ms-continuation to its end.
  await sb.admin.setSwitch('lake.pageSize', 3);
  const again = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  assert.equal(stepOf(again, 'lakehouse').result.status, 'exists', JSON.stringify(stepOf(again, 'lakehouse').result));
  assert.deepEqual(stepOf(again, 'lakehouse').result.secondaryIds, step.result.secondaryIds);
  assert.equal(stepOf(again, 'warehouse').result.status, 'exists');
  assert.deepEqual(await lakePaths(sb, folder), before.paths);
  assert.equal(JSON.stringify(await serverlessDb(sb, folder)), before.db);
  const size = (s: typeof before.seed) =>
    s[0]!.filesystems
      .flatMap((f) => f.paths)
      .filter((p) => p.path.startsWith(`${folder}/`) && !p.isDirectory)
      .map((p) => p.size);
  assert.deepEqual(size((await sb.admin.state()).lake), size(before.seed));
  assert.equal((await sb.admin.state()).sqlServerless.databases.filter((d) => d.name === folder).length, 1);
  const pages = (await sb.admin.requests({ service: 'lake' })).filter((r) => r.method === 'GET' && r.path.includes('continuation='));
  assert.ok(pages.length > 0, 'the re-run read the listing page by page');

  // A third install: the last run of each found it there, so each runs beside other installs (the live lock's shared
  // mode), where only reads are sent; both find everything there, and nothing is written.
  const quiet = (await sb.admin.requests()).at(-1)!.seq;
  const third = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  const lake = stepOf(third, 'lakehouse').result;
  assert.equal(lake.status, 'exists', JSON.stringify(lake));
  assert.ok(
    lake.steps.some((l: string) =>
      /^serverless database .+: data source, file format and \d+ external table\(s\) there; nothing sent$/.test(l),
    ),
    lake.steps.join('\n'),
  );
  const pool3 = stepOf(third, 'warehouse').result;
  assert.equal(pool3.status, 'exists', JSON.stringify(pool3));
  assert.ok(
    pool3.steps.some((l: string) => l.startsWith('T-SQL: nothing sent: the reads found')),
    pool3.steps.join('\n'),
  );
  assert.ok(!pool3.steps.some((l: string) => l.includes('not sent beside other installs')), pool3.steps.join('\n'));
  const { readOnlyBatch } = await import('../src/backends/shared-access.js');
  for (const r of await sb.admin.requests({ since: quiet })) {
    if (r.service === 'sql' || r.service === 'sqlServerless') {
      const sql = r.path.replace(/^\/[^/]+\/batch\//, '');
      if (r.method === 'BATCH') assert.ok(sql.startsWith('set ansi_nulls on') || readOnlyBatch(sql), sql);
    } else if (r.service === 'lake') assert.ok(r.method === 'GET' || r.method === 'HEAD', `${r.method} ${r.path}`);
  }
});

test('a storage 503 (ServerBusy) on a lake call is retried: the install creates the lakehouse all the same', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  await sb.admin.addFault({ service: 'lake', method: 'PUT', status: 503, count: 1 });
  const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  assert.equal(stepOf(job, 'lakehouse').result.status, 'created', JSON.stringify(stepOf(job, 'lakehouse').result));
  const puts = (await sb.admin.requests({ service: 'lake' })).filter((r) => r.method === 'PUT');
  assert.equal(puts[0]!.status, 503);
  assert.equal(puts[1]!.path, puts[0]!.path, 'the refused call was sent again');
});

test('SVC_BACKEND_LAKEHOUSE=lake in a cloud with the data platform: the lakehouse goes to the lake all the same', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t, { SVC_BACKEND_LAKEHOUSE: 'lake' }, true);
  const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  const step = stepOf(job, 'lakehouse');
  assert.deepEqual([step.result.status, step.result.backend], ['created', 'lake'], JSON.stringify(step.result));
  assert.ok(await serverlessDb(sb, step.result.secondaryIds.lakeFolder));
  const platform = (await sb.admin.state()).dataPlatform.workspaces.flatMap((w) => w.items);
  assert.ok(!platform.some((i) => i.type === 'Lakehouse'), 'no lakehouse on the data platform');
  assert.equal(stepOf(job, 'warehouse').result.status, 'created', JSON.stringify(stepOf(job, 'warehouse').result));
});

test('a container that does not exist yet is created (PUT ?resource=filesystem) before the lakehouse folders', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  const token = await sb.admin.token({ audience: 'storage' });
  const container = `${sb.env.SVC_LAKE_DFS_URL}/${sb.env.SVC_LAKE_ACCOUNT}/${sb.env.SVC_LAKE_CONTAINER}`;
  const headers = { authorization: `Bearer ${token}`, 'x-ms-version': '2025-01-05' };
  assert.equal((await fetch(`${container}?resource=filesystem`, { method: 'DELETE', headers })).status, 202);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  assert.equal(stepOf(job, 'lakehouse').result.status, 'created', JSON.stringify(stepOf(job, 'lakehouse').result));
  assert.ok((await lakePaths(sb, stepOf(job, 'lakehouse').result.secondaryIds.lakeFolder)).includes('Tables/patients/part-00000.csv'));
  await checkRequests(sb, since, lakehouseLake.calls(content));
});
