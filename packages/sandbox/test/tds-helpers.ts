import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { Connection, Request } from 'tedious';
import type { TdsServer } from '../src/sql/index.js';

/** A signing key for test access tokens, and the verifier the endpoint is started with. */
const keys = await generateKeyPair('RS256');
export const verifyToken = async (jwt: string) => (await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'] })).payload as any;

/** A SQL-audience token for the principal svc-mi (or other claims). */
export const sqlToken = (claims: Record<string, unknown> = {}) =>
  new SignJWT({ aud: 'https://database.windows.net/', oid: 'oid-1', appid: 'app-1', name: 'svc-mi', ...claims })
    .setProtectedHeader({ alg: 'RS256' })
    .setExpirationTime('1h')
    .sign(keys.privateKey);

/** Logs in with tedious (FEDAUTH access token, no TLS on loopback). */
export async function tdsLogin(server: TdsServer, database = 'pool'): Promise<Connection> {
  const conn = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'azure-active-directory-access-token', options: { token: await sqlToken() } },
    options: { port: server.port, database, encrypt: false, maxRetriesOnTransientErrors: 0, connectTimeout: 5000 },
  });
  return new Promise((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve(conn))));
}

export type ServerMessage = { number: number; state: number; class: number; message: string };

/** Runs a batch: its rows and row count, or the first server error. */
export function tdsBatch(conn: Connection, sql: string): Promise<{ rows: unknown[][]; rowCount: number; error?: ServerMessage }> {
  return new Promise((resolve) => {
    const rows: unknown[][] = [];
    const request = new Request(sql, (err, rowCount) => {
      const error = err as any;
      resolve({ rows, rowCount: rowCount ?? 0, error: error && (error.errors ? error.errors[0] : error) });
    });
    request.on('row', (cols: Array<{ value: unknown }>) => rows.push(cols.map((c) => c.value)));
    conn.execSqlBatch(request);
  });
}
