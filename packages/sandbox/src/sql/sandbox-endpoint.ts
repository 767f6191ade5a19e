import type { SandboxCore } from '../core.js';
import { AUDIENCES } from '../identity/resources.js';
import type { ColumnDef } from './ast.js';
import { startTdsServer, type AttachedDatabase, type TdsServer } from './index.js';
import { sandboxTdsHooks } from './tds-hooks.js';
import { readLake } from './serverless-endpoint.js';

/** Spark/Delta primitive types → the SQL types a lakehouse's SQL endpoint shows for them. */
function sqlColumn(field: { name?: unknown; type?: unknown; nullable?: unknown }): ColumnDef | undefined {
  if (typeof field.name !== 'string' || typeof field.type !== 'string') return undefined;
  const nullable = field.nullable !== false;
  const t = field.type.toLowerCase();
  const decimal = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) return { name: field.name, type: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]), nullable };
  const simple: Record<string, ColumnDef['type']> = {
    integer: 'int',
    int: 'int',
    long: 'bigint',
    short: 'smallint',
    byte: 'smallint',
    double: 'float',
    float: 'real',
    boolean: 'bit',
    date: 'date',
    timestamp: 'datetime2',
    timestamp_ntz: 'datetime2',
    binary: 'varbinary',
  };
  if (t === 'string') return { name: field.name, type: 'varchar', length: 8000, nullable };
  return simple[t] ? { name: field.name, type: simple[t]!, nullable } : { name: field.name, type: 'varchar', length: 8000, nullable };
}

/** A Delta table's columns from the last metaData action in its _delta_log commits; none when it has no log yet. */
function deltaColumns(core: SandboxCore, ws: string, item: string, folder: string): ColumnDef[] {
  let columns: ColumnDef[] = [];
  const commits = core.oneLake
    .list(ws, item, `${folder}/_delta_log`, false)
    .filter(([path, e]) => !e.isDirectory && /\/\d{20}\.json$/.test(path));
  for (const [, entry] of commits) {
    for (const line of (entry.content ?? Buffer.alloc(0)).toString('utf8').split('\n')) {
      if (!line.includes('"metaData"')) continue;
      try {
        const schema = JSON.parse(JSON.parse(line).metaData.schemaString) as { fields?: unknown[] };
        columns = (schema.fields ?? []).map((f) => sqlColumn(f as never)).filter((c): c is ColumnDef => Boolean(c));
      } catch {
        // A commit that is not valid JSON is skipped, as a reader skips a torn write.
      }
    }
  }
  return columns;
}

/**
 * The SQL endpoints of the data platform's lakehouses: one database per lakehouse (named as the lakehouse), with a
 * table per folder under Tables/ (Tables/<schema>/<table> when schema-enabled), once its SQL endpoint is provisioned.
 * The seeded platform workspace wins a name shared by lakehouses of several workspaces.
 */
function lakehouseEndpoints(core: SandboxCore): AttachedDatabase[] {
  const out = new Map<string, AttachedDatabase>();
  const workspaces = [...core.dataPlatform.workspaces.values()].sort(
    (a, b) => Number(b.id === core.ids.platformWorkspaceId) - Number(a.id === core.ids.platformWorkspaceId),
  );
  for (const ws of workspaces) {
    for (const item of ws.items.values()) {
      if (item.type !== 'Lakehouse' || item.deletedAt || out.has(item.displayName.toLowerCase())) continue;
      if (Date.now() < item.createdAt + core.switches['dataPlatform.sqlEndpointDelayMs']) continue;
      const schemas = item.creationPayload?.enableSchemas === true;
      const tables = core.oneLake.tables(ws.id, item.id, schemas).map((qualified) => {
        const [schema, name] = schemas ? (qualified.split('.') as [string, string]) : ['dbo', qualified];
        return { schema, name, columns: deltaColumns(core, ws.id, item.id, schemas ? `Tables/${schema}/${name}` : `Tables/${name}`) };
      });
      out.set(item.displayName.toLowerCase(), { name: item.displayName, tables });
    }
  }
  return [...out.values()];
}

/**
 * The sandbox's TDS endpoint: logins verified against the sandbox identity provider (signature, issuer, expiry, the SQL
 * audience), database users resolved from its directory, the sandbox's fault rules, latency and request log. The
 * service identity starts as a db_owner user of the warehouse pool; Ada Admin is the server's Entra admin. With the
 * sandbox's TLS material, clients that ask for encryption get it.
 */
export function startSqlEndpoint(core: SandboxCore, tls?: { key: string; cert: string }): Promise<TdsServer> {
  const admin = core.ids.users.find((u) => u.upn.startsWith('ada@'));
  return startTdsServer({
    host: core.host,
    // Offered to clients that ask for encryption (tedious' default); without it the endpoint answers ENCRYPT_NOT_SUP.
    tls,
    serverName: core.ids.warehouseWorkspace,
    databases: [core.ids.warehousePool],
    audience: [...AUDIENCES.sql],
    grants: [core.ids.serviceIdentity.name],
    admins: admin ? [admin.objectId] : [],
    ...sandboxTdsHooks(core, 'sql'),
    faults: { match: (service, method, path) => core.faults.match(service, method, path) },
    latencyMs: () => core.latency.sql ?? 0,
    attached: () => lakehouseEndpoints(core),
    // External tables over delimited text in the lake (a lakehouse on the lake) read its files; Parquet ones hold no rows.
    readLake: (url) => readLake(core, url),
  });
}
