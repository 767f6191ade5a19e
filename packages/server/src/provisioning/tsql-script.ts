import { SqlError, type BatchResult } from '../backends/sql.js';
import { dynamic } from './dbt/tsql.js';

// A step's T-SQL statements sent as few batches as the dialect allows. Each statement stands anywhere in a batch: the
// DDL a batch must start with (CREATE VIEW, CREATE SCHEMA) or that names an object made earlier in the same batch runs
// through EXEC, whose string is compiled when it is reached, as its own batch was before (Learn, "Dynamic SQL in Synapse
// SQL": EXEC of a string, supported in dedicated and serverless pools). After each statement the batch selects a row
// that says it ran, and a statement reports what it did (a row inserted, an object created) by selecting its mark, so
// the step log keeps a line per statement and says which ran when a batch fails.

/** Runs one batch on the step's session (permission errors already turned into the step's gate). */
export type Send = (sql: string) => Promise<BatchResult>;

/** A statement of a script: its T-SQL given `mark`, a SELECT of one row it runs once per thing it did. */
export type ScriptStatement = (mark: string) => string;

/** What a statement of a script did: whether it ran (all of it), and how often it selected its mark. */
export interface StatementOutcome {
  ran: boolean;
  marks: number;
}

/** A statement that runs `create` (through EXEC) when the T-SQL condition `missing` holds, then selects its mark. */
export const createWhen =
  (missing: string, create: string): ScriptStatement =>
  (mark) =>
    `IF ${missing} BEGIN ${dynamic(create)}; ${mark} END`;

const RAN = 'svc:ran';
const MARK = 'svc:mark';
/** Past this much T-SQL a script starts another batch (far below the 65,536 network packets a batch may take). */
const BATCH_CHARS = 200_000;

export interface ScriptOptions {
  /**
   * SET XACT_ABORT ON at the start of each batch: a run-time error ends the batch (separate batches stopped at the first
   * failing one). A dedicated pool has it; a serverless pool, which has no transactions, is sent the statements without.
   */
  xactAbort: boolean;
  /** Errors after which the script is sent again from the failing statement (each statement is idempotent), up to 3 times. */
  retryOn?: (err: SqlError) => boolean;
  /** Told of each statement that ran, in order, when its batch ended (also when a later statement failed). */
  ran: (index: number, outcome: StatementOutcome) => void;
  /** Told before a retry, with the error that caused it. */
  retrying?: (err: SqlError) => void;
}

/** Sends the statements in as few batches as BATCH_CHARS allows, in order; answers each one's outcome. */
export async function runScript(send: Send, statements: ScriptStatement[], o: ScriptOptions): Promise<StatementOutcome[]> {
  const outcomes: StatementOutcome[] = statements.map(() => ({ ran: false, marks: 0 }));
  let pending = statements.map((_, i) => i);
  for (let attempt = 1; pending.length; ) {
    const batch: string[] = o.xactAbort ? ['SET XACT_ABORT ON'] : [];
    const sent: number[] = [];
    for (let size = 0; pending.length && (!sent.length || size < BATCH_CHARS); ) {
      const i = pending.shift()!;
      const text = `${statements[i]!(`SELECT N'${MARK}', ${i}`).replace(/;\s*$/, '')};\nSELECT N'${RAN}', ${i}`;
      batch.push(text);
      sent.push(i);
      size += text.length;
    }
    let rows: unknown[][];
    let failure: unknown;
    try {
      rows = (await send(batch.join(';\n'))).rows;
    } catch (err) {
      failure = err;
      rows = err instanceof SqlError ? err.rows : [];
    }
    for (const [tag, index] of rows) {
      const outcome = outcomes[Number(index)];
      if (tag === RAN && outcome) outcome.ran = true;
      else if (tag === MARK && outcome) outcome.marks++;
    }
    for (const i of sent) if (outcomes[i]!.ran) o.ran(i, outcomes[i]!);
    if (failure === undefined) continue;
    if (!(failure instanceof SqlError && o.retryOn?.(failure) && attempt < 3)) throw failure;
    attempt++;
    o.retrying?.(failure);
    // Again from the statements that did not run (those that did are done), before the ones not sent yet.
    pending = [...sent.filter((i) => !outcomes[i]!.ran), ...pending];
  }
  return outcomes;
}
