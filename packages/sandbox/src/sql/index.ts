import { createServer, type Socket } from 'node:net';
import { createSecureContext } from 'node:tls';
import { TdsConnection, type ConnectionHost, type SqlFault, type TokenClaims } from './connection.js';
import { SqlEngine, type Session } from './engine.js';
import { FIXED_ROLES, lookup, newDatabase, newId, type SqlObject, type SqlState } from './state.js';

export type { SqlState, SqlDatabase, SqlTable, SqlView, SqlObject, SqlUser } from './state.js';
export type { TokenClaims, SqlFault } from './connection.js';

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
  /** Resolves CREATE USER [name] FROM EXTERNAL PROVIDER in the directory; absent: any name is accepted. */
  resolvePrincipal?: (name: string) => { objectId: string } | undefined;
  faults?: SqlFaultSource;
  /** Server name in messages. Default 'sandbox-sql'. */
  serverName?: string;
  /** TLS key and certificate (PEM): offered when the client asks for encryption. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Answer ENCRYPT_REQ to clients that do not encrypt (needs tls). */
  requireEncryption?: boolean;
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
  stop(): Promise<void>;
}

const matches = (claims: TokenClaims, principal: string) => {
  const p = principal.toLowerCase();
  return [claims.name, claims.appid, claims.oid].some((v) => v !== undefined && String(v).toLowerCase() === p);
};

/** Starts the sandbox's SQL endpoint: a TDS 7.4 server on loopback with Entra-token logins. */
export async function startTdsServer(options: TdsServerOptions): Promise<TdsServer> {
  const state: SqlState = { databases: new Map() };
  const addDatabase = (name: string) => { if (!state.databases.has(name.toLowerCase())) state.databases.set(name.toLowerCase(), newDatabase(name)); };
  for (const d of options.databases ?? ['warehouse']) addDatabase(d);
  const engine = new SqlEngine(state, { resolvePrincipal: options.resolvePrincipal });
  const serverName = options.serverName ?? 'sandbox-sql';
  let pausedUntil = 0;
  const logins: TdsServer['logins'] = [];
  const targets = (database?: string) => [...state.databases.values()].filter((d) => !database || d.name.toLowerCase() === database.toLowerCase());

  const grantUser: TdsServer['grantUser'] = (principal, o = {}) => {
    for (const db of targets(o.database)) {
      const key = principal.toLowerCase();
      if (!db.users.has(key)) db.users.set(key, { id: newId(), name: principal, type: 'E', objectId: options.resolvePrincipal?.(principal)?.objectId });
      const role = o.role === undefined ? 'db_owner' : o.role;
      if (role) db.roles.get(role.toLowerCase())?.add(key);
    }
  };
  for (const p of options.grants ?? []) grantUser(p);

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
  const address = `${listenHost}:${port}`;
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
    setPaused: (ms) => { pausedUntil = Date.now() + ms; },
    exec: (database, sql) => {
      const session: Session = { database, user: 'dbo', login: 'sandbox-admin' };
      const errors = engine.run(session, sql).filter((x) => x.t === 'error');
      if (errors.length) throw (errors[0] as { error: Error }).error;
    },
    logins,
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
