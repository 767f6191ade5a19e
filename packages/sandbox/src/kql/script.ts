// `.execute database script`: several management commands of one database in one request, run in order, one result
// row per command (Learn, "execute-database-script"): not transactional; by default the script stops at the first
// failed command and still answers 200; ContinueOnErrors=true runs the rest; ThrowOnErrors=true fails the request with
// that command's error. Read-only `.show` commands are not run (Skipped). It needs Database Admin on the database.
import { randomUUID } from 'node:crypto';
import type { Caller } from '../identity/caller.js';
import { ServiceError } from '../http/errors.js';
import { CommandText } from './command-parse.js';
import { type CommandResult, cols } from './commands.js';
import type { KqlEngine } from './engine.js';
import { badRequest, syntaxError } from './errors.js';

const SCRIPT = /^\s*\.execute\s+database\s+script\b/i;

/** Whether the command text is a database script. */
export const isDatabaseScript = (csl: string) => SCRIPT.test(csl);

/** The command kinds a result row names, by the command's leading words. */
const COMMAND_TYPES: Array<[RegExp, string]> = [
  [/^\.create(-merge)?\s+tables?\b/i, 'TableCreate'],
  [/^\.alter-merge\s+table\b/i, 'TableAlterMerge'],
  [/^\.alter\s+table\b/i, 'TableAlter'],
  [/^\.drop\s+table\b/i, 'TableDrop'],
  [/^\.create-or-alter\s+function\b/i, 'FunctionCreateOrAlter'],
  [/^\.create\s+function\b/i, 'FunctionCreate'],
  [/^\.alter\s+function\b/i, 'FunctionAlter'],
  [/^\.drop\s+function\b/i, 'FunctionDrop'],
  [/^\.ingest\s+inline\b/i, 'DataIngestPull'],
  [/^\.(add|drop)\s+database\s+\S+\s+(admins|users|viewers|unrestrictedviewers|ingestors|monitors)\b/i, 'DatabaseSetPrincipals'],
  [/^\.show\b/i, 'Show'],
];

/** Commands a database script may not hold: another script, and anything scoped to the cluster or to databases as such. */
const REFUSED: Array<[RegExp, string]> = [
  [/^\.execute\b/i, 'a database script cannot run another script'],
  [/^\.\S+\s+cluster\b/i, 'a database script runs in the scope of one database; cluster commands are not allowed'],
  [
    /^\.(create|drop|attach|detach)\s+database\s+\S+\s*(ifexists|ifnotexists|persist|volatile|from|\(|$)/i,
    'a database script cannot create, attach or drop databases',
  ],
];

/**
 * The script's commands: each starts on a line whose first character (after blanks) is `.`, and runs to the next such
 * line; empty lines and `//` comment lines between commands are skipped. Text before the first command is refused.
 */
export function splitScript(script: string): string[] {
  const commands: string[] = [];
  let current: string[] | undefined;
  for (const line of script.split(/\r?\n/)) {
    const t = line.trimStart();
    if (t.startsWith('.')) {
      if (current) commands.push(current.join('\n').trim());
      current = [line];
    } else if (!t || t.startsWith('//')) {
      continue;
    } else if (current) current.push(line);
    else
      throw syntaxError(`SYN0002: a database script holds management commands only (lines starting with '.'); found '${t.slice(0, 40)}'`);
  }
  if (current) commands.push(current.join('\n').trim());
  return commands;
}

function option(props: Record<string, string>, name: string): boolean {
  const v = props[name.toLowerCase()];
  if (v === undefined) return false;
  if (!/^(true|false)$/i.test(v)) throw badRequest(`The property '${name}' of .execute database script takes true or false, not '${v}'`);
  return v.toLowerCase() === 'true';
}

/** Runs a database script: every command through `run`, one row each (OperationId, CommandType, CommandText, Result, Reason). */
export function executeScript(
  engine: KqlEngine,
  caller: Caller,
  dbName: string | undefined,
  csl: string,
  run: (csl: string) => CommandResult,
): CommandResult {
  const c = new CommandText(csl.trim());
  c.keyword('.execute');
  c.keyword('database');
  c.keyword('script');
  const props = c.withProps();
  for (const key of Object.keys(props))
    if (key !== 'continueonerrors' && key !== 'throwonerrors')
      throw badRequest(`The property '${key}' is not supported by .execute database script (ContinueOnErrors, ThrowOnErrors)`);
  const continueOnErrors = option(props, 'ContinueOnErrors');
  const throwOnErrors = option(props, 'ThrowOnErrors');
  if (continueOnErrors && throwOnErrors)
    throw badRequest('ThrowOnErrors does not work together with ContinueOnErrors: only one of them may be set');
  c.skipWs();
  if (!c.text.startsWith('<|', c.pos)) throw syntaxError("SYN0002: '.execute database script' expects '<|' followed by the script");
  const commands = splitScript(c.text.slice(c.pos + 2));
  if (!commands.length) throw syntaxError('SYN0002: the database script holds no command');
  for (const command of commands) {
    const refused = REFUSED.find(([re]) => re.test(command));
    if (refused)
      throw badRequest(`The command '${command.split('\n')[0]!.slice(0, 60)}' cannot be part of a database script: ${refused[1]}`);
  }
  const db = engine.requireDatabase(dbName);
  engine.authorize(caller, db, 'admin');

  const rows: unknown[][] = [];
  let stopped = false;
  for (const command of commands) {
    const type = COMMAND_TYPES.find(([re]) => re.test(command))?.[1] ?? 'Command';
    const row = (result: string, reason: string) => rows.push([randomUUID(), type, command, result, reason]);
    if (stopped) row('Skipped', 'Not run: an earlier command of the script failed');
    else if (type === 'Show') row('Skipped', 'Read-only commands are not run in a database script');
    else {
      try {
        run(command);
        row('Completed', '');
      } catch (err) {
        if (!(err instanceof ServiceError) || throwOnErrors) throw err;
        row('Failed', String(err.extra['@message'] ?? err.message));
        stopped = !continueOnErrors;
      }
    }
  }
  return { columns: cols('OperationId:guid,CommandType,CommandText,Result,Reason'), rows };
}
