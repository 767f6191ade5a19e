import { isDirectory, type DfsFilesystem } from '../backends/dfs.js';
import { lakeAccountName } from '../backends/lake.js';
import { raiseGate } from '../backends/failures.js';
import { BackingError } from '../backends/http-pipeline.js';
import type { StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { nativeName, ownNativeName, nativeSettingGate } from '../provisioning/native-scope.js';
import {
  createDatabaseSql,
  databaseExists,
  dataSourceSql,
  endpointText,
  externalTables,
  externalTableSql,
  fileFormatSql,
  onServerless,
  SERVERLESS_FORMAT,
  SERVERLESS_SOURCE,
  serverlessServerOf,
} from '../provisioning/serverless-sql.js';
import type { PlannedCall } from './calls.js';
import type { LiveBackend, LiveParts, LiveState } from './descriptor.js';
import type { LakehouseContent } from './lakehouse.js';
import { lakeFolderParts, lakeFolders, lakeParts, seedCsv } from './lakehouse-lake-parts.js';

// A lakehouse in a cloud without the data platform (issue 20): a folder tree in the lake's container,
// `<container>/<w…_name>/Tables/<table>` and `Files/<folder>`, its seed rows as one CSV file per table, and its SQL
// endpoint a database of the same name on the Synapse workspace's serverless SQL pool with an external table per table.

const LAKE_GATES = { auth: 'lake-auth' } as const;
const SEED_FILE = 'part-00000.csv';

/** Where the lakehouse is: the account, container and folder (the database is named as the folder). */
interface LakeHome {
  account: string;
  container: string;
  folder: string;
  fs: DfsFilesystem;
}

/** The lake the install targets and the lakehouse's folder under the tenant's prefix; gates when a setting is missing. */
function homeOf(ctx: StepContext, resourceId?: string): LakeHome {
  const [setting, container, folder] = resourceId?.split('/') ?? [ctx.target.lakeAccount, ctx.target.lakeContainer];
  if (!setting || !container) throw nativeSettingGate(ctx, 'lake-not-configured');
  const account = lakeAccountName(setting);
  const name = folder ?? nativeName(ctx, ctx.item.displayName);
  // A recorded id names a folder of this tenant only: nothing outside its prefix is read or deleted.
  if (!ownNativeName(ctx, name)) throw new Error(`lake folder '${name}' is not under this tenant's prefix`);
  return { account, container, folder: name, fs: ctx.backends.lake.filesystem(account, container) };
}

const lakeCall = <T>(ctx: StepContext, p: Promise<T>): Promise<T> =>
  p.catch((err) => raiseGate(err, { profile: ctx.profile, gates: LAKE_GATES }));

/** The abfss:// location of the lakehouse's folder, as the serverless pool's data source names it. */
const locationOf = (ctx: StepContext, home: LakeHome) => `abfss://${home.container}@${ctx.backends.lake.host(home.account)}/${home.folder}`;

/** What dependants bind to: the serverless pool and database (as a lakehouse's SQL endpoint), and the folder in the lake. */
const bindings = (ctx: StepContext, home: LakeHome, sqlEndpoint: string, server: string) => ({
  platformWorkspaceId: ctx.target.platformWorkspaceId!,
  sqlEndpoint,
  sqlEndpointId: home.folder,
  server,
  database: home.folder,
  lakeHost: ctx.backends.lake.host(home.account),
  lakeContainer: home.container,
  lakeFolder: home.folder,
});

/** Runs a path create; where the container itself is missing (404 FilesystemNotFound), creates it first and runs it again. */
async function ensureContainer(ctx: StepContext, home: LakeHome, create: () => Promise<void>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (!(err instanceof BackingError && err.status === 404 && err.code === 'FilesystemNotFound')) throw err;
    await home.fs.create();
    ctx.log(`container ${home.container} created (it did not exist)`);
    await create();
  }
}

/** The folders, seed files, database and external tables, each created only when missing. */
async function provisionLake(ctx: TypedProvisionContext<LakehouseContent>) {
  const home = homeOf(ctx);
  const before = await lakeCall(ctx, home.fs.listIfPresent(home.folder, true));
  const have = new Set((before ?? []).map((p) => p.name));
  let created = !before;
  for (const f of lakeFolders(ctx.content)) {
    const path = `${home.folder}/${f}`;
    if (have.has(path)) continue;
    await lakeCall(
      ctx,
      ensureContainer(ctx, home, () => home.fs.createDirectory(path)),
    );
    created = true;
    ctx.log(`folder ${f} created`);
  }
  for (const t of ctx.content.tables) {
    const files = (before ?? []).filter((p) => !isDirectory(p) && p.name.startsWith(`${home.folder}/${t.folder}/`));
    if (!t.seedRows?.length || files.length) continue;
    await lakeCall(ctx, home.fs.writeFile(`${home.folder}/${t.folder}/${SEED_FILE}`, seedCsv(t)));
    created = true;
    ctx.log(`table ${t.name}: ${t.seedRows.length} seed rows written (${t.folder}/${SEED_FILE})`);
  }
  const server = serverlessServerOf(ctx);
  const newDb = await onServerless(ctx, server, 'master', async (run) => {
    if (await databaseExists(run, home.folder)) return false;
    await run(createDatabaseSql(home.folder));
    ctx.log(`serverless SQL database ${home.folder} created`);
    return true;
  });
  const sqlEndpoint = await onServerless(ctx, server, home.folder, async (run, session) => {
    const listed = await run(
      "SELECT name, N'source' FROM sys.external_data_sources UNION ALL SELECT name, N'format' FROM sys.external_file_formats",
    );
    const objects = new Set(listed.rows.map((r) => `${String(r[1])}:${String(r[0]).toLowerCase()}`));
    if (!objects.has(`source:${SERVERLESS_SOURCE}`)) await run(dataSourceSql(locationOf(ctx, home)));
    if (!objects.has(`format:${SERVERLESS_FORMAT}`)) await run(fileFormatSql());
    const tables = await externalTables(run);
    for (const t of ctx.content.tables) {
      if (tables.has(t.name.toLowerCase())) continue;
      await run(externalTableSql(t));
      created = true;
      ctx.log(`external table dbo.${t.name} created over ${t.folder}`);
    }
    return endpointText(session);
  });
  return { home, created: created || newDb, sqlEndpoint, server };
}

/** The lakehouse as the lake and the pool hold it now; undefined when neither its folder nor its database exists. */
async function readLake(ctx: TypedProvisionContext<LakehouseContent>): Promise<LiveState | undefined> {
  const home = homeOf(ctx);
  const listed = await lakeCall(ctx, home.fs.listIfPresent(home.folder, true));
  const server = serverlessServerOf(ctx);
  const exists = await onServerless(ctx, server, 'master', (run) => databaseExists(run, home.folder));
  if (!listed && !exists) return undefined;
  let sqlEndpoint = '';
  const tables = exists
    ? await onServerless(ctx, server, home.folder, async (run, session) => {
        sqlEndpoint = endpointText(session);
        return externalTables(run);
      })
    : new Map<string, string[]>();
  const present = new Set((listed ?? []).filter(isDirectory).map((p) => p.name.slice(home.folder.length + 1)));
  return {
    resourceId: `${home.account}/${home.container}/${home.folder}`,
    secondaryIds: bindings(ctx, home, sqlEndpoint, server),
    parts: { ...lakeFolderParts(ctx.content, present), ...lakeParts(ctx.content, tables) },
  };
}

/** Deletes the folder tree (recursive) and the database; removed:false when both were already gone. */
async function removeLake(ctx: TypedProvisionContext<LakehouseContent>, resourceId: string) {
  const home = homeOf(ctx, resourceId);
  const folder = await lakeCall(ctx, home.fs.delete(home.folder, true));
  const db = await onServerless(ctx, serverlessServerOf(ctx), 'master', async (run) => {
    if (!(await databaseExists(run, home.folder))) return false;
    await run(`DROP DATABASE [${home.folder.replace(/]/g, ']]')}]`);
    return true;
  });
  ctx.log(`lake folder ${home.folder} ${folder ? 'deleted' : 'already gone'}; serverless database ${db ? 'dropped' : 'already gone'}`);
  return { removed: folder || db };
}

const storage = (method: PlannedCall['method'], path: string, extra: Partial<PlannedCall> = {}): PlannedCall => ({
  service: 'storage',
  method,
  path,
  ...extra,
});
const sql = (path: string, command?: string, extra: Partial<PlannedCall> = {}): PlannedCall => ({
  service: 'sql',
  method: command ? 'BATCH' : 'LOGIN',
  path: command ? `${path}/batch/{sql*}` : path,
  ...(command ? { command } : {}),
  ...extra,
});
const LIST = storage('GET', '/{container}?resource=filesystem&recursive=true&directory={folder}');
const DB_EXISTS = [sql('/master'), sql('/master', 'SELECT name FROM sys.databases')];

/** lakehouse on the lake: folders and seed files in the lake, a database with external tables on the serverless SQL pool. */
export const lakehouseLake: LiveBackend<LakehouseContent> = {
  backing: 'lake',
  holdsData: true,
  calls: (c) => {
    const seeded = c.tables.filter((t) => t.seedRows?.length).length;
    const folders = c.tables.length + (c.files?.length ?? 0);
    return [
      LIST,
      storage('PUT', '/{container}/{folder}/{path*}?resource=directory', { times: folders, when: 'missing' }),
      storage('PUT', '/{container}?resource=filesystem', { when: 'missing' }),
      ...(seeded
        ? [
            storage('PUT', '/{container}/{folder}/{path*}?resource=file', { times: seeded, when: 'unseeded' }),
            storage('PATCH', '/{container}/{folder}/{path*}?action=append&flush=true', { times: seeded, when: 'unseeded' }),
          ]
        : []),
      ...DB_EXISTS,
      sql('/master', 'CREATE DATABASE', { when: 'new' }),
      sql('/{database}'),
      sql('/{database}', 'SELECT … FROM sys.external_data_sources UNION ALL … sys.external_file_formats'),
      sql('/{database}', 'CREATE EXTERNAL DATA SOURCE (the lakehouse folder)', { when: 'missing' }),
      sql('/{database}', 'CREATE EXTERNAL FILE FORMAT (delimited text)', { when: 'missing' }),
      sql('/{database}', 'SELECT … FROM sys.external_tables; … INFORMATION_SCHEMA.COLUMNS'),
      sql('/{database}', 'CREATE EXTERNAL TABLE (a lakehouse table)', { times: c.tables.length, when: 'missing' }),
    ];
  },
  provision: async (ctx) => {
    const { home, created, sqlEndpoint, server } = await provisionLake(ctx);
    return {
      status: created ? 'created' : 'exists',
      resourceId: `${home.account}/${home.container}/${home.folder}`,
      secondaryIds: bindings(ctx, home, sqlEndpoint, server),
    };
  },
  desired: async (ctx): Promise<LiveParts> => {
    homeOf(ctx); // the gates of a missing setting, as provisioning raises them
    return { ...lakeFolderParts(ctx.content, new Set(lakeFolders(ctx.content))), ...lakeParts(ctx.content) };
  },
  readLive: readLake,
  readCalls: () => [
    LIST,
    ...DB_EXISTS,
    sql('/{database}', undefined, { when: 'existing' }),
    sql('/{database}', 'SELECT … FROM sys.external_tables; … INFORMATION_SCHEMA.COLUMNS', { when: 'existing' }),
  ],
  remove: removeLake,
  removeCalls: () => [
    storage('DELETE', '/{container}/{folder}?recursive=true'),
    ...DB_EXISTS,
    sql('/master', 'DROP DATABASE', { when: 'existing' }),
  ],
};
