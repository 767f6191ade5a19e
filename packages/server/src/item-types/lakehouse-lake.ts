import { isDirectory, type DfsFilesystem } from '../backends/dfs.js';
import { lakeAccountName } from '../backends/lake.js';
import { raiseGate } from '../backends/failures.js';
import { underSharedAccess } from '../backends/shared-access.js';
import { BackingError } from '../backends/http-pipeline.js';
import type { StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { nativeName, ownNativeName, nativeSettingGate } from '../provisioning/native-scope.js';
import { nstring, quoteName } from '../provisioning/dbt/tsql.js';
import { createWhen, runScript } from '../provisioning/tsql-script.js';
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
  serverlessObjectsPresent,
  serverlessServerOf,
} from '../provisioning/serverless-sql.js';
import type { PlannedCall } from './calls.js';
import type { LiveBackend, LiveParts, LiveState } from './descriptor.js';
import type { LakehouseContent } from './lakehouse.js';
import { folderPath, lakeFolderParts, lakeFolders, lakeParts, seedCsv } from './lakehouse-lake-parts.js';

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
  // The tables whose folder holds no file get their seed file; creating a file creates its missing parent directories
  // (a hierarchical namespace), so only a folder no file goes into is created on its own.
  const seeded = ctx.content.tables.filter(
    (t) => t.seedRows?.length && !(before ?? []).some((p) => !isDirectory(p) && p.name.startsWith(`${home.folder}/${t.folder}/`)),
  );
  const seededFolders = new Set(seeded.map((t) => folderPath(t.folder)));
  for (const f of lakeFolders(ctx.content)) {
    const path = `${home.folder}/${f}`;
    if (have.has(path) || seededFolders.has(f)) continue;
    await lakeCall(
      ctx,
      ensureContainer(ctx, home, () => home.fs.createDirectory(path)),
    );
    created = true;
    ctx.log(`folder ${f} created`);
  }
  for (const t of seeded) {
    const folder = folderPath(t.folder);
    await lakeCall(
      ctx,
      ensureContainer(ctx, home, () => home.fs.writeFile(`${home.folder}/${folder}/${SEED_FILE}`, seedCsv(t))),
    );
    created = true;
    ctx.log(
      `table ${t.name}: ${t.seedRows!.length} seed rows written (${folder}/${SEED_FILE}${have.has(`${home.folder}/${folder}`) ? '' : `; folder ${folder} created with it`})`,
    );
  }
  const server = serverlessServerOf(ctx);
  const newDb = await onServerless(ctx, server, 'master', async (run) => {
    if (await databaseExists(run, home.folder)) return false;
    await run(createDatabaseSql(home.folder));
    ctx.log(`serverless SQL database ${home.folder} created`);
    return true;
  });
  // The data source, file format and external tables in one batch, each created only when missing (a serverless pool
  // has no transactions, so no XACT_ABORT: a statement after a failed one may run, and its row says so).
  const sqlEndpoint = await onServerless(ctx, server, home.folder, async (run, session) => {
    const tables = ctx.content.tables;
    // Beside other installs (shared access) the objects are read first: when all are there the script is not needed
    // (otherwise it is refused, and the step runs again alone).
    if (underSharedAccess() && (await serverlessObjectsPresent(run, tables))) {
      ctx.log(`serverless database ${home.folder}: data source, file format and ${tables.length} external table(s) there; nothing sent`);
      return endpointText(session);
    }
    const statements = [
      createWhen(
        `NOT EXISTS (SELECT 1 FROM sys.external_data_sources WHERE name = ${nstring(SERVERLESS_SOURCE)})`,
        dataSourceSql(locationOf(ctx, home)),
      ),
      createWhen(`NOT EXISTS (SELECT 1 FROM sys.external_file_formats WHERE name = ${nstring(SERVERLESS_FORMAT)})`, fileFormatSql()),
      ...tables.map((t) => createWhen(`OBJECT_ID(${nstring(`[dbo].${quoteName(t.name)}`)}) IS NULL`, externalTableSql(t))),
    ];
    await runScript(run, statements, {
      xactAbort: false,
      ran: (i, o) => {
        const t = tables[i - 2]; // after the data source and the file format
        if (!t || !o.marks) return;
        created = true;
        ctx.log(`external table dbo.${t.name} created over ${t.folder}`);
      },
    });
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
    // A seeded table's folder is made by its seed file's create.
    const folders = c.tables.length - seeded + (c.files?.length ?? 0);
    return [
      LIST,
      ...(folders ? [storage('PUT', '/{container}/{folder}/{path*}?resource=directory', { times: folders, when: 'missing' })] : []),
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
      sql(
        '/{database}',
        `CREATE EXTERNAL DATA SOURCE (the lakehouse folder), CREATE EXTERNAL FILE FORMAT (delimited text) and CREATE EXTERNAL TABLE of ${c.tables.length} table(s), each when missing, in one batch`,
      ),
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
    sql('/{database}', 'SELECT … FROM sys.external_tables; … FROM INFORMATION_SCHEMA.COLUMNS', { when: 'existing' }),
  ],
  remove: removeLake,
  removeCalls: () => [
    storage('DELETE', '/{container}/{folder}?recursive=true'),
    ...DB_EXISTS,
    sql('/master', 'DROP DATABASE', { when: 'existing' }),
  ],
};
