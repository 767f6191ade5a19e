import { Cursor, STATEMENT_WORDS } from './cursor.js';
import { sqlError } from './errors.js';
import { parseExpr, parseSelect } from './exprs.js';
import { tokenize } from './lexer.js';
import type { Tok } from './lexer.js';
import type { ColumnDef, ConstraintDef, DropKind, Expr, Stmt } from './ast.js';
import { createExternal } from './parse-external.js';

/** A parsed batch, and the tokens of constructs a dedicated SQL pool's grammar lacks (its parser refuses them). */
export interface ParsedBatch {
  statements: Stmt[];
  poolRefusals: Tok[];
}

/** Parses a whole batch first, as SQL Server compiles it: a syntax error runs nothing. */
export function parseBatch(sql: string): ParsedBatch {
  const c = new Cursor(tokenize(sql), sql);
  const out: Stmt[] = [];
  while (!c.atEnd()) {
    if (c.acceptOp(';')) continue;
    out.push(statement(c, out.length === 0));
  }
  return { statements: out, poolRefusals: c.poolRefusals };
}

function statement(c: Cursor, first: boolean): Stmt {
  const t = c.peek()!;
  const word = t.k === 'word' ? t.v.toUpperCase() : '';
  switch (word) {
    case 'SET':
      return skipSet(c);
    case 'CREATE':
      return create(c, first);
    case 'ALTER':
      return alter(c, first);
    case 'INSERT':
      return insert(c);
    case 'DROP':
      return drop(c);
    case 'EXEC':
    case 'EXECUTE':
      return exec(c);
    case 'IF':
      return ifStatement(c);
    case 'BEGIN':
      return block(c);
    case 'COMMIT':
    case 'ROLLBACK':
      c.i++;
      c.acceptKw('TRANSACTION') || c.acceptKw('TRAN');
      return { t: 'set' };
    case 'SELECT':
      return { t: 'select', select: parseSelect(c) };
    case 'PRINT':
      c.i++;
      return { t: 'print', expr: parseExpr(c) };
    case 'UPDATE':
    case 'DELETE':
    case 'MERGE':
    case 'DECLARE':
    case 'GRANT':
    case 'REVOKE':
    case 'DENY':
    case 'TRUNCATE':
    case 'USE':
    case 'WITH':
      throw sqlError.unsupported(`the ${word} statement`);
    default:
      return c.fail();
  }
}

function skipSet(c: Cursor): Stmt {
  c.i++;
  if (c.acceptKw('XACT_ABORT')) {
    if (c.acceptKw('ON')) return { t: 'setXactAbort', on: true };
    if (c.acceptKw('OFF')) return { t: 'setXactAbort', on: false };
    c.fail();
  }
  while (!c.atEnd() && !c.isOp(';') && !(c.peek()!.k === 'word' && STATEMENT_WORDS.has(c.peek()!.v.toUpperCase()))) c.i++;
  return { t: 'set' };
}

function create(c: Cursor, first: boolean): Stmt {
  c.expectKw('CREATE');
  if (c.acceptKw('SCHEMA')) {
    if (!first) throw sqlError.mustBeFirst('CREATE SCHEMA');
    const name = c.ident();
    if (c.acceptKw('AUTHORIZATION')) c.ident();
    return { t: 'createSchema', name };
  }
  if (c.acceptKw('DATABASE')) {
    const name = c.ident();
    if (c.acceptKw('COLLATE')) c.ident();
    return { t: 'createDatabase', name };
  }
  if (c.acceptKw('TABLE')) return createTable(c);
  if (c.isKw('EXTERNAL')) return createExternal(c, column);
  if (c.isKw('OR') && c.isKw('ALTER', 1) && c.isKw('VIEW', 2)) {
    c.poolRefusals.push(c.peek()!);
    c.i += 3;
    return view(c, 'createOrAlter', first, 'CREATE VIEW');
  }
  if (c.acceptKw('VIEW')) return view(c, 'create', first, 'CREATE VIEW');
  if (c.acceptKw('USER')) {
    const name = c.ident();
    if (c.acceptKw('FROM', 'EXTERNAL', 'PROVIDER')) {
      let objectId: string | undefined;
      if (c.acceptKw('WITH')) {
        c.expectKw('OBJECT_ID');
        c.expectOp('=');
        const v = c.peek();
        if (v?.k !== 'str') c.fail();
        c.i++;
        objectId = v.v;
      }
      return { t: 'createUser', name, external: true, objectId };
    }
    if (c.acceptKw('WITHOUT', 'LOGIN')) return { t: 'createUser', name, external: false };
    throw sqlError.unsupported('CREATE USER other than FROM EXTERNAL PROVIDER or WITHOUT LOGIN');
  }
  throw sqlError.unsupported(`CREATE ${c.peek()?.v ?? ''}`.trim());
}

function view(c: Cursor, mode: 'create' | 'alter' | 'createOrAlter', first: boolean, what: string): Stmt {
  if (!first) throw sqlError.mustBeFirst(what);
  const start = c.toks[0]!.start;
  const name = c.name();
  if (c.isOp('(')) c.skipParens();
  if (c.acceptKw('WITH')) while (!c.isKw('AS') && !c.atEnd()) c.i++;
  c.expectKw('AS');
  if (c.atEnd()) c.fail();
  const body = c.src.slice(c.peek()!.start).trim().replace(/;\s*$/, '');
  c.i = c.toks.length;
  return { t: 'createView', name, mode, body, text: c.src.slice(start).trim() };
}

function createTable(c: Cursor): Stmt {
  const name = c.name();
  const columns: ColumnDef[] = [];
  const constraints: ConstraintDef[] = [];
  c.expectOp('(');
  do {
    if (c.isKw('CONSTRAINT') || c.isKw('PRIMARY') || c.isKw('UNIQUE') || c.isKw('FOREIGN') || c.isKw('CHECK') || c.isKw('INDEX')) {
      const k = constraint(c);
      if (k) constraints.push(k);
      continue;
    }
    columns.push(column(c, constraints));
  } while (c.acceptOp(','));
  c.expectOp(')');
  if (c.acceptKw('WITH')) c.skipParens();
  return { t: 'createTable', name, columns, constraints };
}

/** A column definition (CREATE TABLE and CREATE EXTERNAL TABLE). */
export function column(c: Cursor, constraints: ConstraintDef[]): ColumnDef {
  const col: ColumnDef = { name: c.ident(), type: c.ident().toLowerCase(), nullable: true };
  if (c.acceptOp('(')) {
    if (c.acceptKw('MAX')) col.length = 'max';
    else {
      const a = Number(c.peek()?.v);
      c.i++;
      if (c.acceptOp(',')) {
        col.precision = a;
        col.scale = Number(c.peek()?.v);
        c.i++;
      } else if (['decimal', 'numeric'].includes(col.type)) {
        col.precision = a;
        col.scale = 0;
      } else if (['datetime2', 'time', 'datetimeoffset', 'float'].includes(col.type)) col.precision = a;
      else col.length = a;
    }
    c.expectOp(')');
  }
  while (!c.atEnd() && !c.isOp(',') && !c.isOp(')')) {
    if (c.acceptKw('NOT', 'NULL')) col.nullable = false;
    else if (c.acceptKw('NULL')) col.nullable = true;
    else if (c.acceptKw('PRIMARY', 'KEY')) {
      c.acceptKw('CLUSTERED') || c.acceptKw('NONCLUSTERED');
      const enforced = !c.acceptKw('NOT', 'ENFORCED');
      constraints.push({ kind: 'PRIMARY KEY', columns: [col.name], enforced });
      col.nullable = false;
    } else if (c.isOp('(')) c.skipParens();
    else {
      if (c.isKw('REFERENCES') || c.isKw('FOREIGN')) c.poolRefusals.push(c.peek()!);
      c.i++;
    }
  }
  return col;
}

function constraint(c: Cursor): ConstraintDef | undefined {
  const name = c.acceptKw('CONSTRAINT') ? c.ident() : undefined;
  if (c.isKw('FOREIGN')) c.poolRefusals.push(c.peek()!);
  const kind = c.acceptKw('PRIMARY', 'KEY') ? 'PRIMARY KEY' : c.acceptKw('UNIQUE') ? 'UNIQUE' : undefined;
  if (!kind) {
    while (!c.atEnd() && !c.isOp(',') && !c.isOp(')')) c.isOp('(') ? c.skipParens() : c.i++;
    return undefined;
  }
  c.acceptKw('CLUSTERED') || c.acceptKw('NONCLUSTERED');
  c.expectOp('(');
  const columns = [c.ident()];
  c.acceptKw('ASC') || c.acceptKw('DESC');
  while (c.acceptOp(',')) {
    columns.push(c.ident());
    c.acceptKw('ASC') || c.acceptKw('DESC');
  }
  c.expectOp(')');
  const enforced = !c.acceptKw('NOT', 'ENFORCED');
  if (c.acceptKw('WITH')) c.skipParens();
  return { name, kind, columns, enforced };
}

function alter(c: Cursor, first: boolean): Stmt {
  c.expectKw('ALTER');
  if (c.acceptKw('VIEW')) return view(c, 'alter', first, 'ALTER VIEW');
  if (c.acceptKw('ROLE')) {
    const role = c.ident();
    const add = c.acceptKw('ADD');
    if (!add) c.expectKw('DROP');
    c.expectKw('MEMBER');
    return { t: 'alterRole', role, add, member: c.ident() };
  }
  if (c.acceptKw('TABLE')) {
    const table = c.name();
    c.expectKw('ADD');
    if (c.isKw('CONSTRAINT') || c.isKw('PRIMARY') || c.isKw('UNIQUE') || c.isKw('FOREIGN')) {
      const refusals = c.poolRefusals.length;
      const k = constraint(c);
      if (k) return { t: 'addConstraint', table, constraint: k };
      // A FOREIGN KEY: SQL Server keeps it, the sandbox only needs it refused where the pool refuses it.
      if (c.poolRefusals.length > refusals) return { t: 'set' };
    }
    throw sqlError.unsupported('ALTER TABLE other than ADD CONSTRAINT PRIMARY KEY/UNIQUE');
  }
  throw sqlError.unsupported(`ALTER ${c.peek()?.v ?? ''}`.trim());
}

function insert(c: Cursor): Stmt {
  c.expectKw('INSERT');
  c.acceptKw('INTO');
  const table = c.name();
  let columns: string[] | undefined;
  if (c.isOp('(') && !c.isKw('SELECT', 1)) {
    c.expectOp('(');
    columns = [c.ident()];
    while (c.acceptOp(',')) columns.push(c.ident());
    c.expectOp(')');
  }
  if (c.acceptKw('VALUES')) {
    const values: Expr[][] = [];
    do {
      c.expectOp('(');
      const row = [parseExpr(c)];
      while (c.acceptOp(',')) row.push(parseExpr(c));
      c.expectOp(')');
      values.push(row);
    } while (c.acceptOp(','));
    return { t: 'insert', table, columns, values };
  }
  if (c.isKw('SELECT')) return { t: 'insert', table, columns, select: parseSelect(c) };
  return c.fail();
}

function drop(c: Cursor): Stmt {
  c.expectKw('DROP');
  if (c.acceptKw('DATABASE')) {
    const ifExists = c.acceptKw('IF', 'EXISTS');
    return { t: 'dropDatabase', ifExists, name: c.ident() };
  }
  const external = c.acceptKw('EXTERNAL');
  const kinds: Array<[string[], DropKind]> = external
    ? [
        [['TABLE'], 'EXTERNAL TABLE'],
        [['DATA', 'SOURCE'], 'EXTERNAL DATA SOURCE'],
        [['FILE', 'FORMAT'], 'EXTERNAL FILE FORMAT'],
      ]
    : [
        [['TABLE'], 'TABLE'],
        [['VIEW'], 'VIEW'],
        [['SCHEMA'], 'SCHEMA'],
        [['USER'], 'USER'],
      ];
  const kind = kinds.find(([words]) => c.acceptKw(...words))?.[1];
  if (!kind) throw sqlError.unsupported(`DROP ${external ? 'EXTERNAL ' : ''}${c.peek()?.v ?? ''}`.trim());
  const ifExists = c.acceptKw('IF', 'EXISTS');
  const names = [c.name()];
  while (c.acceptOp(',')) names.push(c.name());
  return { t: 'drop', kind, ifExists, names };
}

function exec(c: Cursor): Stmt {
  c.i++;
  if (c.acceptOp('(')) {
    const sql = parseExpr(c);
    c.expectOp(')');
    return { t: 'execString', sql };
  }
  const proc = c.name();
  const args: Expr[] = [];
  if (!c.atEnd() && !c.isOp(';') && !(c.peek()!.k === 'word' && STATEMENT_WORDS.has(c.peek()!.v.toUpperCase()))) {
    do {
      if (c.peek()?.k === 'var' && c.isOp('=', 1)) c.i += 2;
      args.push(parseExpr(c));
    } while (c.acceptOp(','));
  }
  return { t: 'exec', proc, args };
}

function ifStatement(c: Cursor): Stmt {
  c.expectKw('IF');
  const cond = parseExpr(c);
  const then = statement(c, false);
  c.acceptOp(';');
  if (c.acceptKw('ELSE')) return { t: 'if', cond, then, else: statement(c, false) };
  return { t: 'if', cond, then };
}

function block(c: Cursor): Stmt {
  c.expectKw('BEGIN');
  if (c.acceptKw('TRANSACTION') || c.acceptKw('TRAN')) return { t: 'set' };
  const body: Stmt[] = [];
  while (!c.acceptKw('END')) {
    if (c.atEnd()) c.fail();
    if (c.acceptOp(';')) continue;
    body.push(statement(c, false));
  }
  return { t: 'block', body };
}
