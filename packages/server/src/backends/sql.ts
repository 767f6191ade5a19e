import type { Connection } from 'tedious';
import { hostAllowed, type CloudProfile } from '../cloud/profiles.js';
import type { TokenSource } from './credential.js';
import { BackingError, HostNotAllowedError } from './http-pipeline.js';
import { tdsCall } from '../tracing/tds-call.js';
import { checkSharedSqlAccess } from './shared-access.js';

/** A T-SQL error as the server raised it (number, state, class) with its text unmodified. */
export class SqlError extends BackingError {
  readonly class: number;
  /** The rows of the result sets the batch returned before the error (a script's reports of what it ran). */
  rows: unknown[][] = [];
  constructor(
    readonly number: number,
    readonly state: number,
    severity: number,
    message: string,
  ) {
    super('sql', 0, message, String(number));
    this.name = 'SqlError';
    this.class = severity;
  }
}

/** Where to connect: host, port and database, and whether TLS is used. */
export interface SqlEndpoint {
  host: string;
  port: number;
  database: string;
  encrypt: boolean;
}

/** One batch's outcome: rows affected (sum of DONE counts) and the rows of its result sets. */
export interface BatchResult {
  rowCount: number;
  rows: unknown[][];
}

/** An open connection that runs batches one at a time. */
export interface SqlSession {
  readonly endpoint: SqlEndpoint;
  batch(sql: string): Promise<BatchResult>;
  close(): void;
}

const isLoopback = (host: string) => ['localhost', '127.0.0.1', '::1', '[::1]'].includes(host.toLowerCase());

/** Splits 'host[:port]' (1433 by default). */
export function parseServer(server: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(
    server
      .trim()
      .replace(/^[a-z]+:\/\//i, '')
      .replace(/\/.*$/, ''),
  );
  if (!m) throw new BackingError('sql', 0, '', 'bad_server', `Not a SQL server address: ${server}`);
  return { host: m[1]!, port: m[2] ? Number(m[2]) : 1433 };
}

type ServerMessage = { number: number; state: number; class: number; message: string };

/**
 * Connects with tedious and an Entra access token (FEDAUTH); a refused login becomes SqlError with the server's number.
 * tedious is loaded with the first connection: most deployments and most starts never open one.
 */
export async function connect(endpoint: SqlEndpoint, token: string, timeoutMs = 15_000): Promise<SqlSession> {
  checkSharedSqlAccess();
  const tedious = await import('tedious');
  const connection = new tedious.Connection({
    server: endpoint.host,
    authentication: { type: 'azure-active-directory-access-token', options: { token } },
    options: {
      port: endpoint.port,
      database: endpoint.database,
      encrypt: endpoint.encrypt,
      trustServerCertificate: false,
      connectTimeout: timeoutMs,
      requestTimeout: 120_000,
      // Login retries (pool resuming) are the caller's, with its own bound and step log.
      maxRetriesOnTransientErrors: 0,
      appName: 'analytics-workspace-service',
    },
  });
  let loginError: ServerMessage | undefined;
  connection.on('errorMessage', (m: ServerMessage) => {
    loginError ??= m;
    if (m.number === 18456) loginError = m;
  });
  // A connection lost mid-batch fails the pending request (its callback gets the error); without a listener the
  // 'error' event would throw out of the process.
  connection.on('error', () => undefined);
  return tdsCall(
    endpoint,
    'LOGIN',
    () =>
      new Promise<SqlSession>((resolve, reject) => {
        connection.connect((err) => {
          if (!err) return resolve(session(tedious, connection, endpoint));
          connection.close();
          if (loginError) return reject(new SqlError(loginError.number, loginError.state, loginError.class, loginError.message));
          const code = (err as { code?: string }).code ?? 'ESOCKET';
          reject(new BackingError('sql', 0, '', code, `${endpoint.host}:${endpoint.port}: ${err.message}`));
        });
      }),
  );
}

function session(tedious: typeof import('tedious'), connection: Connection, endpoint: SqlEndpoint): SqlSession {
  return {
    endpoint,
    batch: (sql) => {
      checkSharedSqlAccess(sql);
      return tdsCall(
        endpoint,
        sql,
        () =>
          new Promise<BatchResult>((resolve, reject) => {
            const rows: unknown[][] = [];
            const request = new tedious.Request(sql, (err, rowCount) => {
              if (!err) return resolve({ rowCount: rowCount ?? 0, rows });
              // Several errors in one batch arrive together; the first is the one that stopped it.
              const first = (err instanceof AggregateError ? err.errors[0] : err) as Error & Partial<ServerMessage> & { code?: string };
              if (typeof first.number === 'number')
                return reject(Object.assign(new SqlError(first.number, first.state ?? 0, first.class ?? 0, first.message), { rows }));
              reject(new BackingError('sql', 0, '', first.code ?? 'EREQUEST', first.message));
            });
            request.on('row', (columns: Array<{ value: unknown }>) => rows.push(columns.map((c) => c.value)));
            connection.execSqlBatch(request);
          }),
      );
    },
    close: () => connection.close(),
  };
}

/**
 * Opens a session on a warehouse as the service identity: the token (the cloud's SQL audience) goes only to hosts the
 * cloud allows, and TLS is on for every host but the sandbox's loopback.
 */
export async function openWarehouse(profile: CloudProfile, credential: TokenSource, server: string, database: string): Promise<SqlSession> {
  const { host, port } = parseServer(server);
  if (!hostAllowed(profile, `https://${host}`)) throw new HostNotAllowedError('sql', host);
  let token: string;
  try {
    token = await credential.getToken(profile.sqlAudience);
  } catch (err) {
    const e = err as Error;
    throw new BackingError('identity', 0, e.message, /AADSTS\d+/.exec(e.message)?.[0] ?? 'token_unavailable', e.message);
  }
  return connect({ host: host.replace(/^\[|\]$/g, ''), port, database, encrypt: !isLoopback(host) }, token);
}
