import { createServer, type Socket } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { ColumnDef } from './ast.js';
import { TdsConnection, type ConnectionHost, type SqlFault, type SqlRequestEvent, type TokenClaims } from './connection.js';
import { SqlEngine, type Session } from './engine.js';
import type { ReadLake } from './serverless.js';
import {
  FIXED_ROLES,
  lookup,
  newDatabase,
  newId,
  type SqlConstraint,
  type SqlObject,
  type SqlState,
  type SqlTable,
  type SqlView,
} from './state.js';

export type { SqlState, SqlTable, SqlView, SqlObject } from './state.js';
export type { TokenClaims, SqlFault, SqlRequestEvent } from './connection.js';

/** A database the server mirrors from elsewhere (a lakehouse's SQL endpoint): its tables, refreshed before each login and batch. */
export interface AttachedDatabase {
  name: string;
  tables: Array<{ schema: string; name: string; columns: ColumnDef[] }>;
}

/** What the sandbox's state view shows of the SQL endpoint: per database, its schemas, tables (row counts), views and users. */
export interface SqlStateView {
  databases: Array<{
    name: string;
    /** A lakehouse's SQL endpoint mirrored from OneLake (not a database the warehouse provisioner writes). */
    attached: boolean;
    schemas: string[];
    tables: Array<{
      schema: string;
      name: string;
      columns: string[];
      rowCount: number;
      external?: { location: string; dataSource: string; fileFormat: string };
    }>;
    /** External data sources (TYPE, LOCATION) and file formats (FORMAT_TYPE). */
    dataSources: Array<{ name: string; type: string; location?: string }>;
    fileFormats: Array<{ name: string; type: string }>;
    views: Array<{ schema: string; name: string; definition: string; alteredCount: number }>;
    constraints: Array<{ schema: string; name: string; table: string; kind: string; columns: string[]; enforced: boolean }>;
    users: Array<{ name: string; type: 'E' | 'S'; objectId?: string; roles: string[] }>;
  }>;
}

/** The sandbox's fault registry as the endpoint consults it ('sql' service; methods LOGIN and BATCH). */
export interface SqlFaultSource {
  match(service: 'sql', method: string, path: string): SqlFault | undefined;
}

export interface TdsServerOptions {
  /** Loopback address to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Verifies an access token's signature and expiry (the sandbox identity provider's keys) and returns its claims. */
  verifyToken: (jwt: string) => Promise<TokenClaims>;
  /** Accepted token audiences. Default https://database.windows.net/ (trailing slash optional). */
  audience?: string | string[];
  /** Databases (pools) the server hosts. Default ['warehouse']. */
  databases?: string[];
  /** Principals (display name, app id or object id) that are db_owner users of every database from the start. Default none. */
  grants?: string[];
  /** The server's Entra admins: they log in as dbo to any database (they run the remediation T-SQL). */
  admins?: string[];
  /** The T-SQL dialect: a Synapse dedicated SQL pool's (default) or SQL Server's. */
  dialect?: 'synapse-dedicated' | 'sql-server' | 'synapse-serverless';
  /** A serverless pool's external tables read their files through this when queried. */
  readLake?: ReadLake;
  /** Resolves CREATE USER [name] FROM EXTERNAL PROVIDER in the directory; absent: any name is accepted. */
  resolvePrincipal?: (name: string) => { objectId: string } | undefined;
  faults?: SqlFaultSource;
  /** Server name in messages. Default 'sandbox-sql'. */
  serverName?: string;
  /** TLS key and certificate (PEM): offered when the client asks for encryption. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Answer ENCRYPT_REQ to clients that do not encrypt (needs tls). */
  requireEncryption?: boolean;
  /** Databases mirrored from elsewhere (lakehouse SQL endpoints), read before each login and batch. */
  attached?: () => AttachedDatabase[];
  /** Added delay before each login and batch. */
  latencyMs?: () => number;
  /** Called once per login and batch answered (the sandbox's request log). */
  onRequest?: (event: SqlRequestEvent) => void;
}

/** A running TDS endpoint and the handles tests and the sandbox use on it. */
export interface TdsServer {
  port: number;
  /** host:port, the form SVC_WAREHOUSE_SERVER takes. */
  address: string;
  url: string;
  state(): SqlState;
  /** A table, view or constraint by 'schema.name' in a database. */
  object(database: string, qualified: string): SqlObject | undefined;
  /** Makes a principal a database user in db_owner (all hosted databases, or one), as the remediation T-SQL does. */
  grantUser(principal: string, options?: { database?: string; role?: string | null }): void;
  /** Removes the principal's database user (all hosted databases, or one). */
  revokeUser(principal: string, options?: { database?: string }): void;
  /** Hosts another database (for example a lakehouse SQL endpoint that views read across databases). */
  addDatabase(name: string): void;
  /** Logins fail with 40613 (database not currently available) for this long, as a pool resuming does. */
  setPaused(ms: number): void;
  /** Runs T-SQL as the server's admin (dbo) in a database: for seeding cross-database tables in tests. */
  exec(database: string, sql: string): void;
  /** Every login attempt: who, where, whether it was over TLS, and the error number of a refusal. */
  logins: Array<{ database: string; principal: string; ok: boolean; number?: number; encrypted: boolean; at: number }>;
  /** Back to the start: the configured databases, empty, with the configured grants; the login list cleared. */
  reset(): void;
  /** The objects by database, as plain data (mirrored databases refreshed first). */
  view(): SqlStateView;
  stop(): Promise<void>;
}

const matches = (claims: TokenClaims, principal: string) => {
  const p = principal.toLowerCase();
  return [claims.name, claims.appid, claims.oid].some((v) => v !== undefined && String(v).toLowerCase() === p);
};

/** Starts the sandbox's SQL endpoint: a TDS 7.4 server on loopback with Entra-token logins. */
export async function startTdsServer(options: TdsServerOptions): Promise<TdsServer> {
  const state: SqlState = { databases: new Map() };
  const addDatabase = (name: string) => {
    if (!state.databases.has(name.toLowerCase())) state.databases.set(name.toLowerCase(), newDatabase(name));
  };
  const attachedNames = new Set<string>();
  const engine = new SqlEngine(state, { resolvePrincipal: options.resolvePrincipal, dialect: options.dialect, readLake: options.readLake });
  const serverName = options.serverName ?? 'sandbox-sql';
  let pausedUntil = 0;
  const logins: TdsServer['logins'] = [];
  // Without a database: every database the server hosts itself (not the mirrored lakehouse endpoints).
  const targets = (database?: string) =>
    [...state.databases.entries()]
      .filter(([key, d]) => (database ? d.name.toLowerCase() === database.toLowerCase() : !attachedNames.has(key)))
      .map(([, d]) => d);

  const grantUser: TdsServer['grantUser'] = (principal, o = {}) => {
    for (const db of targets(o.database)) {
      const key = principal.toLowerCase();
      if (!db.users.has(key))
        db.users.set(key, { id: newId(), name: principal, type: 'E', objectId: options.resolvePrincipal?.(principal)?.objectId });
      const role = o.role === undefined ? 'db_owner' : o.role;
      if (role) db.roles.get(role.toLowerCase())?.add(key);
    }
  };
  const start = () => {
    state.databases.clear();
    attachedNames.clear();
    for (const d of options.databases ?? ['warehouse']) addDatabase(d);
    for (const p of options.grants ?? []) grantUser(p);
  };
  start();

  /** Mirrors the attached databases: each one and each of its tables exists (created empty with its columns when new). */
  const refresh = () => {
    for (const a of options.attached?.() ?? []) {
      const key = a.name.toLowerCase();
      if (!state.databases.has(key)) {
        addDatabase(a.name);
        attachedNames.add(key);
      }
      if (!attachedNames.has(key)) continue;
      const db = state.databases.get(key)!;
      for (const t of a.tables) {
        let schema = db.schemas.get(t.schema.toLowerCase());
        if (!schema) db.schemas.set(t.schema.toLowerCase(), (schema = { id: newId(), name: t.schema, objects: new Map() }));
        const existing = schema.objects.get(t.name.toLowerCase());
        if (!existing)
          schema.objects.set(t.name.toLowerCase(), {
            kind: 'table',
            id: newId(),
            schema: schema.name,
            name: t.name,
            columns: t.columns,
            rows: [],
          });
        else if (existing.kind === 'table' && !existing.columns.length) existing.columns = t.columns;
      }
    }
  };

  const view = (): SqlStateView => {
    refresh();
    return {
      databases: [...state.databases.entries()].map(([key, db]) => {
        const objects = [...db.schemas.values()].flatMap((s) => [...s.objects.values()]);
        return {
          name: db.name,
          attached: attachedNames.has(key),
          schemas: [...db.schemas.values()].map((s) => s.name),
          tables: objects
            .filter((o): o is SqlTable => o.kind === 'table')
            .map((t) => ({
              schema: t.schema,
              name: t.name,
              columns: t.columns.map((c) => c.name),
              rowCount: t.rows.length,
              ...(t.external ? { external: t.external } : {}),
            })),
          dataSources: [...db.dataSources.values()].map((d) => ({ name: d.name, type: d.type, location: d.location })),
          fileFormats: [...db.fileFormats.values()].map((f) => ({ name: f.name, type: f.type })),
          views: objects
            .filter((o): o is SqlView => o.kind === 'view')
            .map((v) => ({ schema: v.schema, name: v.name, definition: v.definition, alteredCount: v.alteredCount })),
          constraints: objects
            .filter((o): o is SqlConstraint => o.kind === 'constraint')
            .map((c) => ({
              schema: c.schema,
              name: c.name,
              table: c.table,
              kind: c.def.kind,
              columns: c.def.columns,
              enforced: c.def.enforced,
            })),
          users: [...db.users.entries()].map(([k, u]) => ({
            name: u.name,
            type: u.type,
            ...(u.objectId ? { objectId: u.objectId } : {}),
            roles: [...db.roles.entries()].filter(([, members]) => members.has(k)).map(([r]) => r),
          })),
        };
      }),
    };
  };

  const host: ConnectionHost = {
    engine,
    serverName,
    audiences: [options.audience ?? 'https://database.windows.net/'].flat(),
    verifyToken: options.verifyToken,
    defaultDatabase: 'master',
    hasDatabase: (name) => state.databases.has(name.toLowerCase()),
    userFor: (database, claims) => {
      if ((options.admins ?? []).some((a) => matches(claims, a))) return 'dbo';
      const db = state.databases.get(database.toLowerCase())!;
      for (const u of db.users.values()) {
        if (u.name !== 'dbo' && (matches(claims, u.name) || (u.objectId && [claims.oid, claims.appid].includes(u.objectId)))) return u.name;
      }
      return undefined;
    },
    pausedUntil: () => pausedUntil,
    fault: (method, path) => options.faults?.match('sql', method, path),
    secureContext: options.tls ? createSecureContext({ key: options.tls.key, cert: options.tls.cert }) : undefined,
    requireEncryption: options.requireEncryption ?? false,
    onLogin: (e) => logins.push({ ...e, at: Date.now() }),
    refresh,
    latencyMs: options.latencyMs,
    onRequest: options.onRequest,
  };

  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new TdsConnection(socket, host);
  });
  const listenHost = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const address = listenHost.includes(':') ? `[${listenHost}]:${port}` : `${listenHost}:${port}`;
  return {
    port,
    address,
    url: `tds://${address}`,
    state: () => state,
    object: (database, qualified) => lookup(state, database, qualified),
    grantUser,
    revokeUser: (principal, o = {}) => {
      for (const db of targets(o.database)) {
        db.users.delete(principal.toLowerCase());
        for (const r of FIXED_ROLES) db.roles.get(r)!.delete(principal.toLowerCase());
      }
    },
    addDatabase,
    setPaused: (ms) => {
      pausedUntil = Date.now() + ms;
    },
    exec: (database, sql) => {
      const session: Session = { database, user: 'dbo', login: 'sandbox-admin' };
      const errors = engine.run(session, sql).filter((x) => x.t === 'error');
      if (errors.length) throw (errors[0] as { error: Error }).error;
    },
    logins,
    reset: () => {
      start();
      logins.length = 0;
      pausedUntil = 0;
    },
    view,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
