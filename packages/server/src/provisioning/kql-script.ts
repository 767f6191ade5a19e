import { raiseGate } from '../backends/failures.js';
import { BackingError } from '../backends/http-pipeline.js';
import type { StepContext } from './context.js';
import { GateError } from '../errors.js';
import { gate } from './gates.js';

/** A KQL name as written in a command: bare, or bracketed and quoted. */
export const ident = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `['${name.replace(/'/g, "\\'")}']`);
/** A KQL string literal. */
export const kqlString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The cluster the install targets, or the "KQL cluster not configured" gate. */
export function cluster(ctx: StepContext) {
  const uri = ctx.target.kqlClusterUri;
  const resourceId = ctx.target.kqlClusterResourceId;
  if (!uri || !resourceId) throw new GateError(gate('kql-not-configured', ctx.profile));
  return { uri, resourceId };
}

/** Runs one management command, turning a 401/403 into the AllDatabasesAdmin gate. */
export async function mgmt(ctx: StepContext, uri: string, database: string, csl: string) {
  try {
    return await ctx.backends.kql.mgmt(uri, database, csl);
  } catch (err) {
    raiseGate(err, authGate(ctx));
  }
}

/** Runs one management command; its result as records by column name. */
export async function mgmtRecords(ctx: StepContext, uri: string, database: string, csl: string) {
  try {
    return await ctx.backends.kql.mgmtRecords(uri, database, csl);
  } catch (err) {
    raiseGate(err, authGate(ctx));
  }
}

const authGate = (ctx: StepContext) => ({
  profile: ctx.profile,
  gates: { auth: 'kql-create-table-auth' as const, detail: { principal: ctx.backends.pipeline.credential.principal } },
});

/** A management command a step sends, and the step log's line for it once it ran. */
export interface KqlCommand {
  csl: string;
  done: string;
}

/**
 * Whether a command can travel in a database script: the script splits its text at lines starting with `.`, skips
 * blank and `//` lines between commands, so a command whose later lines (an inline ingest's rows, a function's body)
 * start so is sent on its own.
 */
export function scriptable(csl: string): boolean {
  return csl
    .split(/\r?\n/)
    .slice(1)
    .every((line) => {
      const t = line.trimStart();
      return t !== '' && !t.startsWith('.') && !t.startsWith('//');
    });
}

/**
 * Runs a database's commands in order in as few management requests as the engine takes: consecutive commands a script
 * can carry go as one `.execute database script` (the engine answers a row per command), any other alone; a script the
 * engine refuses for want of Database Admin is sent command by command. Logs one line per command that ran; a command
 * the script reports Failed fails the step with the engine's reason, unmodified (the script stops there: the commands
 * after it did not run).
 */
export async function runKqlCommands(ctx: StepContext, uri: string, database: string, commands: readonly KqlCommand[]): Promise<void> {
  const batches: KqlCommand[][] = [];
  for (const c of commands) {
    const last = batches.at(-1);
    if (last && scriptable(c.csl) && scriptable(last[0]!.csl)) last.push(c);
    else batches.push([c]);
  }
  for (const batch of batches) {
    if (batch.length === 1) {
      await mgmt(ctx, uri, database, batch[0]!.csl);
      ctx.log(batch[0]!.done);
      continue;
    }
    const script = `.execute database script <|\n${batch.map((c) => c.csl).join('\n')}`;
    let rows: Array<Record<string, unknown>>;
    try {
      rows = await ctx.backends.kql.mgmtRecords(uri, database, script);
    } catch (err) {
      // A script needs Database Admin; an identity with less (a Database User of a database it did not create) still
      // runs each command on its own, as those need only what they need, and meets the gate only where one of them does.
      if (!(err instanceof BackingError) || err.status !== 403) raiseGate(err, authGate(ctx));
      ctx.log('the database script was refused (403: it needs Database Admin): the commands one by one');
      for (const c of batch) {
        await mgmt(ctx, uri, database, c.csl);
        ctx.log(c.done);
      }
      continue;
    }
    ctx.log(`database script: ${batch.length} commands in one request`);
    for (const [i, c] of batch.entries()) {
      const row = rows[i];
      if (row?.Result !== 'Completed') throw new BackingError('kql', 200, String(row?.Reason || JSON.stringify(row ?? null)), undefined);
      ctx.log(c.done);
    }
  }
}
