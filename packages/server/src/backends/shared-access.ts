import { AsyncLocalStorage } from 'node:async_hooks';
import type { BackingRequest } from './http-pipeline.js';

/**
 * Work that runs beside other installs of the same live resource (under its lock's shared mode) may make only the
 * calls that cannot change what another holder sees half done: reads, and writes that leave the same result however
 * many run at once and in whatever order. The first other call is refused before it is sent, and so is every call after
 * it; the work is then run again, whole, under the exclusive lock (provisioning/live-lock.ts). Nothing it sent before
 * the refusal needs undoing, since all of it was allowed.
 */
interface Access {
  /** Observe only: calls are sent whatever they are, and the first that shared access would refuse is noted. */
  observe?: boolean;
  /** What the first call shared access refuses was (refused, or under `observe` sent and noted). */
  refused?: string;
}

const current = new AsyncLocalStorage<Access>();

/** A call refused while running beside other holders: the work is run again under the exclusive lock. */
export class ExclusiveAccessNeeded extends Error {
  readonly code = 'exclusive_access_needed';
  constructor(what: string) {
    super(`${what}: made only under the live resource's exclusive lock`);
    this.name = 'ExclusiveAccessNeeded';
  }
}

/** Runs fn where only the calls `concurrentSafe` allows are sent; answers its value and the first call refused, if any. */
export async function withSharedAccess<T>(fn: () => Promise<T>): Promise<{ value: T; refused?: string }> {
  const access: Access = {};
  const value = await current.run(access, fn);
  return { value, refused: access.refused };
}

/** Runs fn with every call sent; answers its value and the first call that shared access would have refused, if any. */
export async function withObservedAccess<T>(fn: () => Promise<T>): Promise<{ value: T; needed?: string }> {
  const access: Access = { observe: true };
  const value = await current.run(access, fn);
  return { value, needed: access.refused };
}

/**
 * Whether the running work is under shared access (beside other installs of its resource): a step that would write on
 * every install (a create-or-update whatever is there) reads first there, and writes only what differs, which is then
 * refused and made alone.
 */
export const underSharedAccess = (): boolean => {
  const access = current.getStore();
  return access !== undefined && !access.observe;
};

/** Notes (under observe) or refuses (throws ExclusiveAccessNeeded) a call `what` that work under shared access may not make. */
function refuse(access: Access, what: string): void {
  access.refused ??= what;
  if (!access.observe) throw new ExclusiveAccessNeeded(access.refused);
}

/** Before an HTTP backing call: refused under shared access unless `concurrentSafe` allows it (and nothing was refused yet). */
export function checkSharedAccess(req: BackingRequest): void {
  const access = current.getStore();
  if (!access) return;
  if ((access.refused && !access.observe) || !concurrentSafe(req)) refuse(access, `${req.method} ${req.service} ${pathOf(req.url)}`);
}

/**
 * Before a T-SQL sign-in (no `sql`) or batch: under shared access a sign-in is made (it changes nothing) and a batch only
 * when `readOnlyBatch` holds (a batch may otherwise create, insert or drop anything).
 */
export function checkSharedSqlAccess(sql?: string): void {
  const access = current.getStore();
  if (!access) return;
  if ((access.refused && !access.observe) || (sql !== undefined && !readOnlyBatch(sql))) refuse(access, 'a T-SQL batch that writes');
}

/** Words a batch that only reads never holds (outside literals and bracketed names). */
const TSQL_WRITES = new Set(
  (
    'INSERT UPDATE DELETE MERGE TRUNCATE DROP CREATE ALTER EXEC EXECUTE INTO GRANT REVOKE DENY DECLARE SET BULK ' +
    'BACKUP RESTORE KILL DBCC RECONFIGURE SHUTDOWN USE WAITFOR BEGIN COMMIT ROLLBACK SAVE OPENROWSET OPENQUERY OPENDATASOURCE'
  ).split(' '),
);

/**
 * Whether a T-SQL batch only reads: its first word is SELECT or IF (an `IF EXISTS (…) SELECT …`), and no word of it
 * (string literals, bracketed and quoted names and comments removed) writes, calls a procedure or opens a transaction.
 * Conservative: a read it does not recognise is refused, and then made under the exclusive lock.
 */
export function readOnlyBatch(sql: string): boolean {
  const words = sql
    // One pass, left to right: a `--` inside a literal is not a comment, nor a quote inside a comment a literal.
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\/|N?'(?:[^']|'')*'|\[(?:[^\]]|\]\])*\]|"(?:[^"]|"")*"/g, ' _ ')
    .toUpperCase()
    .match(/[A-Z_@#$][A-Z0-9_@#$]*/g);
  if (!words || (words[0] !== 'SELECT' && words[0] !== 'IF')) return false;
  return words.every((w) => !TSQL_WRITES.has(w) && !/^(SP|XP)_/.test(w));
}

const pathOf = (url: string) => url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0]!;

/** Management commands that only read (Kusto's `.show` commands). */
const KQL_READ = /^\s*\.show\s/i;
/** Search document actions that write the same document whatever ran before them: an upload is by key. */
const IDEMPOTENT_DOC_ACTIONS = new Set(['upload', 'mergeOrUpload']);

/**
 * The calls that may run beside other holders of a live resource:
 * - every GET and HEAD, the data platform's getDefinition (a POST the API defines as a read), KQL queries and `.show`
 *   commands;
 * - a lake directory or filesystem PUT (an existing one is success, nothing under it changes), a search index PUT (the
 *   same definition again changes nothing) and a document upload by key.
 * Everything else (creates by POST, definitions, the resource manager's PUTs whose providers refuse a second operation
 * in progress, KQL management commands that write, deletes, file writes, T-SQL) needs the exclusive lock.
 */
export function concurrentSafe(req: BackingRequest): boolean {
  const method = req.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return true;
  const path = pathOf(req.url);
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
  switch (req.service) {
    case 'data-platform':
      return method === 'POST' && /\/getDefinition$/i.test(path);
    case 'kql': {
      if (/\/v[12]\/rest\/query$/.test(path)) return true;
      const csl = (req.json as { csl?: unknown } | undefined)?.csl;
      return /\/v1\/rest\/mgmt$/.test(path) && typeof csl === 'string' && KQL_READ.test(csl);
    }
    case 'storage':
      return method === 'PUT' && /(^|&)resource=(directory|filesystem)(&|$)/.test(query);
    case 'search': {
      if (method === 'PUT' && /\/indexes\/[^/]+$/.test(path)) return true;
      if (method === 'POST' && /\/indexes\/[^/]+\/docs\/search$/.test(path)) return true;
      if (method !== 'POST' || !/\/indexes\/[^/]+\/docs\/index$/.test(path)) return false;
      const docs = (req.json as { value?: Array<Record<string, unknown>> } | undefined)?.value;
      return Array.isArray(docs) && docs.every((d) => IDEMPOTENT_DOC_ACTIONS.has(String(d['@search.action'] ?? 'upload')));
    }
    default:
      return false;
  }
}
