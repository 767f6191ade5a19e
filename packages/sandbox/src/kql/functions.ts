import { ServiceError } from '../http/errors.js';
import type { CommandResult } from './commands.js';
import { CommandText, parseParams } from './command-parse.js';
import type { KqlDatabase } from './engine.js';
import { entityNotFound, kustoError, syntaxError } from './errors.js';
import { runQuery, type QueryHost } from './query.js';
import { toRuntime, type KqlType } from './values.js';

const FUNCTION_COLUMNS: CommandResult['columns'] = ['Name', 'Parameters', 'Body', 'Folder', 'DocString'].map((name) => ({
  name,
  type: 'string',
}));

/** `.show functions` / `.show function F`: name, parameters, body in braces, folder, docstring. */
export function showFunctions(db: KqlDatabase, only?: string): CommandResult {
  const fns = [...db.functions.values()].filter((f) => !only || f.name === only);
  if (only && !fns.length) throw entityNotFound(only, 'Function');
  return { columns: FUNCTION_COLUMNS, rows: fns.map((f) => [f.name, f.parameters, `{ ${f.body} }`, f.folder, f.docString]) };
}

/** A value of each type, as a stored row or a parameter holds it at run time. */
const PROBE: Record<KqlType, unknown> = {
  string: '',
  long: 0,
  int: 0,
  real: 0,
  decimal: '0',
  bool: false,
  datetime: '2000-01-01T00:00:00Z',
  timespan: '00:00:00',
  dynamic: {},
  guid: '00000000-0000-0000-0000-000000000000',
};

/** The database as the body sees it: each table with its columns and one row of placeholder values. */
export function probeHost(db: KqlDatabase): QueryHost {
  return {
    table: (name) => {
      const t = db.tables.get(name);
      if (!t) return undefined;
      return {
        columns: t.columns.map((c) => ({ ...c })),
        rows: [Object.fromEntries(t.columns.map((c) => [c.name, toRuntime(PROBE[c.type], c.type)]))],
      };
    },
    fn: (name) => db.functions.get(name),
  };
}

/**
 * Kusto compiles a function body against the database when it is stored: a table, column or scalar it cannot resolve is
 * the SemanticException a query would give (SEM0100). The body runs over one placeholder row per table with filters
 * keeping it, so every operator resolves its names. A construct this engine does not implement says nothing either way.
 */
function validateBody(db: KqlDatabase, params: ReturnType<typeof parseParams>, body: string): void {
  const vars = new Map<string, unknown>(params.map((p) => [p.name, toRuntime(PROBE[p.type], p.type)]));
  try {
    runQuery(body, probeHost(db), { vars, now: new Date(), probe: true });
  } catch (err) {
    const message = err instanceof ServiceError ? err.extra['@message'] : undefined;
    if (typeof message === 'string' && message.startsWith('Semantic error: SEM0100: ')) throw err;
  }
}

/** `.create-or-alter function`, `.create function [ifnotexists]`, `.alter function`: `[with (…)] F(params) { body }`. */
export function defineFunction(db: KqlDatabase, c: CommandText, mode: 'createOrAlter' | 'create' | 'alter'): CommandResult {
  const ifNotExists = mode === 'create' && c.keyword('ifnotexists');
  const props = c.withProps();
  const name = c.name();
  const parameters = c.parens();
  const params = parseParams(parameters);
  const open = c.text.indexOf('{', c.pos);
  const close = c.text.lastIndexOf('}');
  if (open < 0 || close < open || c.text.slice(c.pos, open).trim()) throw syntaxError('SYN0002: a function body must be enclosed in { }');
  const body = c.text.slice(open + 1, close).trim();
  const existing = db.functions.get(name);
  if (mode === 'alter' && !existing) throw entityNotFound(name, 'Function');
  if (mode === 'create' && existing && !ifNotExists)
    throw kustoError(
      400,
      'BadRequest_EntityAlreadyExists',
      'Kusto.Data.Exceptions.EntityAlreadyExistsException',
      `Entity ID '${name}' of kind 'Function' already exists.`,
    );
  if (mode === 'create' && existing) return showFunctions(db, name);
  if (props.skipvalidation?.toLowerCase() !== 'true') validateBody(db, params, body);
  db.functions.set(name, {
    name,
    parameters: `(${parameters.trim()})`,
    params,
    body,
    folder: props.folder ?? existing?.folder ?? '',
    docString: props.docstring ?? existing?.docString ?? '',
  });
  return showFunctions(db, name);
}
