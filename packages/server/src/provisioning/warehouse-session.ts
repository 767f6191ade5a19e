import { classify, raiseGate } from '../backends/failures.js';
import { openWarehouse, SqlError, type SqlSession } from '../backends/sql.js';
import { GateError } from '../errors.js';
import type { StepContext } from './context.js';
import { nstring, quoteName } from './dbt/tsql.js';
import { gate } from './gates.js';

// The warehouse's T-SQL session as every warehouse step opens it: the endpoint of the install, the sign-in that waits
// for a resuming pool, and batches whose login or permission errors are the "warehouse T-SQL not authorized" gate.

/** How long a paused or resuming pool is waited for (the spec's resume takes 1 to 3 minutes). */
export const RESUME_BOUND_MS = 4 * 60_000;
/** Login errors of a pool that is paused, resuming or warming up. */
const RESUMING = new Set([40613, 42108, 42109]);
/** The gate family of every T-SQL call: a login or permission error (the classifier's) is the T-SQL gate. */
const TSQL_GATES = { auth: 'warehouse-tsql-auth' } as const;

/** The warehouse server and database of the install: SVC_WAREHOUSE_* (shared) or targetOverrides (dedicated). */
export function endpointOf(ctx: StepContext): { server: string; database: string } {
  const t = ctx.target;
  const database = t.warehouseDatabase ?? t.warehousePool;
  if (!t.warehouseWorkspace || !database) throw new GateError(gate('warehouse-not-configured', ctx.profile));
  const synapse = ctx.profile.sqlSuffixes.find((s) => s.includes('azuresynapse')) ?? ctx.profile.sqlSuffixes[0]!;
  return { server: t.warehouseServer ?? `${t.warehouseWorkspace}${synapse}`, database };
}

/** The display name Entra gives the identity (what CREATE USER names), read from its own SQL token. */
async function principalName(ctx: StepContext): Promise<string> {
  try {
    const token = await ctx.backends.pipeline.credential.getToken(ctx.profile.sqlAudience);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, string>;
    const mi = claims.xms_mirid?.split('/').pop();
    return mi || claims.app_displayname || claims.name || claims.appid || claims.oid || ctx.backends.pipeline.credential.principal;
  } catch {
    return ctx.backends.pipeline.credential.principal;
  }
}

/** Whether a failed T-SQL call calls for the T-SQL gate: the identity is not a database user with rights. */
const needsGrant = (ctx: StepContext, err: unknown): err is SqlError =>
  err instanceof SqlError && classify(err, { profile: ctx.profile, gates: TSQL_GATES }).kind === 'gate';

/** The "warehouse T-SQL not authorized" gate with the exact T-SQL an admin of the database runs. */
async function authGate(ctx: StepContext, err: SqlError, server: string, database: string): Promise<never> {
  const name = await principalName(ctx);
  const sql = [
    `-- As an Entra admin of ${server}, in database ${quoteName(database)}:`,
    `CREATE USER ${quoteName(name)} FROM EXTERNAL PROVIDER;`,
    `EXEC sp_addrolemember 'db_owner', ${nstring(name).slice(1)};`,
  ].join('\n');
  return raiseGate(err, { profile: ctx.profile, gates: { ...TSQL_GATES, detail: { sql } } });
}

/** Connects as the service identity, waiting within RESUME_BOUND_MS while the pool resumes. */
export async function open(ctx: StepContext, server: string, database: string): Promise<SqlSession> {
  const deadline = Date.now() + RESUME_BOUND_MS;
  for (let attempt = 1, delay = 1_000; ; attempt++, delay = Math.min(delay * 2, 15_000)) {
    try {
      const session = await openWarehouse(ctx.profile, ctx.backends.pipeline.credential, server, database);
      ctx.log(
        `connected to ${server}, database ${database} (${session.endpoint.encrypt ? 'TLS' : 'loopback sandbox, no TLS'})${attempt > 1 ? ` after ${attempt} attempts` : ''}`,
      );
      return session;
    } catch (err) {
      if (needsGrant(ctx, err)) return authGate(ctx, err, server, database);
      if (!(err instanceof SqlError && RESUMING.has(err.number)) || Date.now() + delay > deadline) throw err;
      ctx.log(`pool ${database} is not available yet (${err.number}: paused or resuming); retrying in ${delay / 1000} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** Runs one batch, turning 229/262 into the T-SQL gate; other server errors fail the step with the server's text. */
export async function run(ctx: StepContext, session: SqlSession, sql: string) {
  try {
    return await session.batch(sql);
  } catch (err) {
    if (needsGrant(ctx, err)) return authGate(ctx, err, session.endpoint.host, session.endpoint.database);
    throw err;
  }
}
