import type { ConstraintDef, Name, Select, Stmt } from './ast.js';
import { catalogView, type Relation } from './catalog-views.js';
import { SqlServerError, sqlError } from './errors.js';
import { evaluate, runSelect, type EvalEnv } from './evaluate.js';
import { parseBatch } from './parser.js';
import type { ResultColumn, ServerMessage } from './protocol/tokens.js';
import { FIXED_ROLES, findObject, newId, resolveName, type ObjectRef, type SqlDatabase, type SqlState, type SqlTable } from './state.js';
import { coerce } from './values.js';
import { createExternal, createExternalTable } from './external.js';
import { createView, drop } from './ddl.js';
import { createDatabase, dropDatabase, externalRows, type ReadLake } from './serverless.js';

/** Who runs a batch and where: the database user the login mapped to. */
export interface Session {
  database: string;
  /** Database user name ('dbo' for the server's Entra admin). */
  user: string;
  /** The login's principal name, as SUSER_SNAME() shows it. */
  login: string;
  /** Parameter values of an RPC (sp_executesql, sp_execute), by lower-cased name with its @. */
  variables?: Map<string, unknown>;
  /** SET XACT_ABORT of the connection (OFF by default): with ON a run-time error ends the batch. */
  xactAbort?: boolean;
}

/** Thrown out of a nested EXEC whose run-time error ended it under XACT_ABORT ON: it ends the calling batch too. */
const XACT_ABORTED = Symbol('xact-abort');

/** What one batch produced, in order: statement completions, result sets, messages and errors. */
export type Emitted =
  | { t: 'done'; rowCount?: number }
  | { t: 'rows'; columns: ResultColumn[]; rows: unknown[][] }
  | { t: 'info'; message: ServerMessage }
  | { t: 'error'; error: SqlServerError };

export interface EngineOptions {
  /** Whether a principal name exists in the directory (CREATE USER … FROM EXTERNAL PROVIDER); absent: any name. */
  resolvePrincipal?: (name: string) => { objectId: string } | undefined;
  /**
   * 'synapse-dedicated' (the default): a dedicated SQL pool's dialect — no CREATE OR ALTER, no FOREIGN KEY, no names in
   * another database, syntax errors as its parser's 103010. 'sql-server': SQL Server's grammar and 102/156.
   */
  dialect?: 'synapse-dedicated' | 'sql-server' | 'synapse-serverless';
  /** A serverless pool's external tables read their files here when queried. */
  readLake?: ReadLake;
}

export type Permission = 'ddl' | 'write' | 'read' | 'access' | 'security';
const GRANTING: Record<Permission, string> = {
  ddl: 'db_ddladmin',
  write: 'db_datawriter',
  read: 'db_datareader',
  access: 'db_accessadmin',
  security: 'db_securityadmin',
};

/** Executes T-SQL batches against the endpoint's state with SQL Server's permission checks and errors. */
export class SqlEngine {
  constructor(
    readonly state: SqlState,
    private readonly options: EngineOptions = {},
  ) {}

  /** Runs a batch: parsed whole first (a syntax error runs nothing), then statement by statement. */
  run(session: Session, sql: string, out: Emitted[] = []): Emitted[] {
    this.runBatch(session, sql, out);
    return out;
  }

  /**
   * Runs a batch (the client's, or one an EXEC runs); true when a run-time error ended it under SET XACT_ABORT ON,
   * which ends the batch that ran the EXEC as well. A compile (parse) error ends only its own batch, whatever the
   * setting (Learn, SET XACT_ABORT: "Compile errors, such as syntax errors, are not affected").
   */
  private runBatch(session: Session, sql: string, out: Emitted[]): boolean {
    let statements: Stmt[];
    try {
      const parsed = parseBatch(sql);
      const refused = this.pool ? parsed.poolRefusals[0] : undefined;
      if (refused) throw sqlError.syntax(refused.v, refused.start);
      statements = parsed.statements;
    } catch (err) {
      out.push({ t: 'error', error: this.asParseError(sql, asSqlError(err)) });
      return false;
    }
    for (const s of statements) {
      try {
        this.exec(session, s, out);
      } catch (err) {
        if (err === XACT_ABORTED) return true;
        const error = asSqlError(err);
        out.push({ t: 'error', error });
        if (session.xactAbort) return true;
        if (error.abortsBatch) break;
      }
    }
    return false;
  }

  /** A serverless SQL pool: databases of its own, external tables over files, no regular tables or DML. */
  get serverless(): boolean {
    return this.options.dialect === 'synapse-serverless';
  }

  private get pool(): boolean {
    return (this.options.dialect ?? 'synapse-dedicated') === 'synapse-dedicated';
  }

  /** A dedicated pool's parser reports every syntax error as 103010 with the line and column of the token. */
  private asParseError(sql: string, error: SqlServerError): SqlServerError {
    if (!this.pool || !error.at) return error;
    const before = sql.slice(0, error.at.offset).split('\n');
    return sqlError.parseError(before.length, before[before.length - 1]!.length + 1, error.at.near);
  }

  /** A name in the session's database; in a dedicated pool a name in another database is refused (40515). */
  ref(parts: Name, session: Session): ObjectRef {
    const ref = resolveName(parts, session.database);
    if (this.pool && ref.database.toLowerCase() !== session.database.toLowerCase()) throw sqlError.crossDatabase(ref.written);
    return ref;
  }

  private db(session: Session): SqlDatabase {
    return this.state.databases.get(session.database.toLowerCase())!;
  }

  /** Whether the session's user holds a permission (dbo, db_owner, or the role that grants it). */
  can(session: Session, db: SqlDatabase, p: Permission): boolean {
    if (session.user === 'dbo') return true;
    const user = session.user.toLowerCase();
    return db.roles.get('db_owner')!.has(user) || db.roles.get(GRANTING[p])!.has(user);
  }

  private exec(session: Session, s: Stmt, out: Emitted[]): void {
    const db = this.db(session);
    switch (s.t) {
      case 'set':
        return;
      case 'setXactAbort':
        session.xactAbort = s.on;
        return;
      case 'createSchema':
        if (!this.can(session, db, 'ddl')) throw sqlError.createPermission('CREATE SCHEMA', db.name);
        if (db.schemas.has(s.name.toLowerCase())) throw sqlError.objectExists(s.name);
        db.schemas.set(s.name.toLowerCase(), { id: newId(), name: s.name, objects: new Map() });
        return void out.push({ t: 'done' });
      case 'createDatabase':
        return void createDatabase(this.state, session, s, out);
      case 'dropDatabase':
        return void dropDatabase(this.state, session, s, out);
      case 'createTable': {
        if (this.serverless) throw sqlError.notInThisVersion('CREATE TABLE');
        const ref = this.ref(s.name, session);
        if (!this.can(session, db, 'ddl')) throw sqlError.createPermission('CREATE TABLE', db.name);
        const schema = db.schemas.get(ref.schema.toLowerCase());
        if (!schema) throw sqlError.schemaMissing(ref.schema);
        if (schema.objects.has(ref.name.toLowerCase())) throw sqlError.objectExists(ref.name);
        const table: SqlTable = { kind: 'table', id: newId(), schema: schema.name, name: ref.name, columns: s.columns, rows: [] };
        schema.objects.set(ref.name.toLowerCase(), table);
        for (const k of s.constraints) this.addConstraint(db, table, k);
        return void out.push({ t: 'done' });
      }
      case 'addConstraint': {
        const ref = this.ref(s.table, session);
        const table = findObject(this.state, ref);
        if (!table || table.kind !== 'table')
          throw new SqlServerError(
            4902,
            1,
            16,
            `Cannot find the object "${ref.written}" because it does not exist or you do not have permissions.`,
          );
        if (!this.can(session, db, 'ddl')) throw sqlError.createPermission('ALTER TABLE', db.name);
        this.addConstraint(db, table, s.constraint);
        return void out.push({ t: 'done' });
      }
      case 'insert':
        if (this.serverless) throw sqlError.notInThisVersion('INSERT');
        return void this.insert(session, db, s.table, s.columns, s.values, s.select, out);
      case 'createView':
        return void createView(this, session, db, s, out);
      case 'createExternal':
        if (!this.can(session, db, 'ddl')) throw sqlError.createPermission(`CREATE EXTERNAL ${s.kind}`, db.name);
        createExternal(db, s, this.serverless);
        return void out.push({ t: 'done' });
      case 'createExternalTable':
        if (!this.can(session, db, 'ddl')) throw sqlError.createPermission('CREATE EXTERNAL TABLE', db.name);
        createExternalTable(db, this.ref(s.name, session), s);
        return void out.push({ t: 'done' });
      case 'drop':
        return void drop(this, session, db, s, out);
      case 'createUser': {
        if (!this.can(session, db, 'access')) throw sqlError.noPermission();
        if (db.users.has(s.name.toLowerCase()) || FIXED_ROLES.includes(s.name.toLowerCase())) throw sqlError.principalExists(s.name);
        let objectId = s.objectId;
        if (s.external && !objectId && this.options.resolvePrincipal) {
          const found = this.options.resolvePrincipal(s.name);
          if (!found) throw sqlError.principalNotFound(s.name);
          objectId = found.objectId;
        }
        db.users.set(s.name.toLowerCase(), { id: newId(), name: s.name, type: s.external ? 'E' : 'S', objectId });
        return void out.push({ t: 'done' });
      }
      case 'alterRole': {
        const role = db.roles.get(s.role.toLowerCase());
        if (!role || !this.canAlterRole(session, db, s.role)) throw sqlError.cannotAlterRole(s.role);
        if (!db.users.has(s.member.toLowerCase())) throw sqlError.cannotAddPrincipal(s.member);
        if (s.add) role.add(s.member.toLowerCase());
        else role.delete(s.member.toLowerCase());
        return void out.push({ t: 'done' });
      }
      case 'exec':
        return void this.execProc(
          session,
          db,
          s.proc,
          s.args.map((a) => evaluate(this.env(session), a)),
          out,
        );
      case 'execString': {
        if (this.runBatch(session, String(evaluate(this.env(session), s.sql) ?? ''), out)) throw XACT_ABORTED;
        return;
      }
      case 'if': {
        const branch = evaluate(this.env(session), s.cond) === true ? s.then : s.else;
        if (branch) this.exec(session, branch, out);
        return;
      }
      case 'block':
        for (const x of s.body) this.exec(session, x, out);
        return;
      case 'select': {
        const result = runSelect(this.env(session), s.select);
        out.push({ t: 'rows', ...result });
        return void out.push({ t: 'done', rowCount: result.rows.length });
      }
      case 'print':
        return void out.push({
          t: 'info',
          message: { number: 0, state: 1, class: 0, message: String(evaluate(this.env(session), s.expr) ?? '') },
        });
    }
  }

  private canAlterRole(session: Session, db: SqlDatabase, role: string): boolean {
    if (session.user === 'dbo' || db.roles.get('db_owner')!.has(session.user.toLowerCase())) return true;
    return role.toLowerCase() !== 'db_owner' && db.roles.get('db_securityadmin')!.has(session.user.toLowerCase());
  }

  private addConstraint(db: SqlDatabase, table: SqlTable, def: ConstraintDef) {
    const schema = db.schemas.get(table.schema.toLowerCase())!;
    const name = def.name ?? `PK__${table.name.slice(0, 8)}__${newId().toString(16).toUpperCase()}`;
    if (schema.objects.has(name.toLowerCase())) {
      throw sqlError.objectExists(name);
    }
    for (const c of def.columns) if (!table.columns.some((x) => x.name.toLowerCase() === c.toLowerCase())) throw sqlError.invalidColumn(c);
    schema.objects.set(name.toLowerCase(), {
      kind: 'constraint',
      id: newId(),
      schema: table.schema,
      name,
      table: table.name,
      def: { ...def, name },
    });
  }

  private insert(
    session: Session,
    db: SqlDatabase,
    name: Name,
    columns: string[] | undefined,
    values: SqlValues | undefined,
    select: Select | undefined,
    out: Emitted[],
  ) {
    const ref = this.ref(name, session);
    const table = findObject(this.state, ref);
    if (!table || table.kind === 'constraint') throw sqlError.invalidObject(ref.written);
    if (table.kind === 'view') throw sqlError.unsupported('INSERT through a view');
    if (table.external) throw sqlError.externalDml();
    if (!this.can(session, db, 'write')) throw sqlError.objectPermission('INSERT', table.name, db.name, table.schema);
    const targets = (columns ?? table.columns.map((c) => c.name)).map((c) => {
      const i = table.columns.findIndex((x) => x.name.toLowerCase() === c.toLowerCase());
      if (i < 0) throw sqlError.invalidColumn(c);
      return i;
    });
    const env = this.env(session);
    const incoming = values ? values.map((row) => row.map((e) => evaluate(env, e))) : runSelect(env, select!).rows;
    const qualified = `${db.name}.${table.schema}.${table.name}`;
    const rows = incoming.map((vals) => {
      if (vals.length !== targets.length)
        throw columns ? (vals.length > targets.length ? sqlError.fewerColumns() : sqlError.moreColumns()) : sqlError.columnCountMismatch();
      const row: unknown[] = table.columns.map(() => null);
      targets.forEach((ci, k) => {
        row[ci] = coerce(table.columns[ci]!, vals[k], qualified);
      });
      table.columns.forEach((c, ci) => {
        if (!c.nullable && row[ci] === null) throw sqlError.nullNotAllowed(c.name, qualified);
      });
      return row;
    });
    this.checkKeys(db, table, rows);
    table.rows.push(...rows);
    out.push({ t: 'done', rowCount: rows.length });
  }

  /** Enforced PRIMARY KEY / UNIQUE constraints reject duplicates (NOT ENFORCED ones, as in Synapse, do not). */
  private checkKeys(db: SqlDatabase, table: SqlTable, rows: unknown[][]) {
    const schema = db.schemas.get(table.schema.toLowerCase())!;
    for (const o of schema.objects.values()) {
      if (o.kind !== 'constraint' || o.table !== table.name || !o.def.enforced) continue;
      const idx = o.def.columns.map((c) => table.columns.findIndex((x) => x.name.toLowerCase() === c.toLowerCase()));
      const key = (r: unknown[]) => idx.map((i) => String(r[i]).toLowerCase()).join('\u0000');
      const seen = new Set(table.rows.map(key));
      for (const r of rows) {
        if (seen.has(key(r))) throw sqlError.duplicateKey(o.name, `${table.schema}.${table.name}`, idx.map((i) => String(r[i])).join(', '));
        seen.add(key(r));
      }
    }
  }

  private execProc(session: Session, db: SqlDatabase, proc: Name, args: unknown[], out: Emitted[]) {
    const name = proc[proc.length - 1]!.toLowerCase();
    if (name !== 'sp_addrolemember' && name !== 'sp_droprolemember') throw sqlError.procMissing(proc.join('.'));
    const [role, member] = args.map((a) => String(a ?? ''));
    if (!db.roles.has(role!.toLowerCase()) || !this.canAlterRole(session, db, role!)) throw sqlError.cannotAlterRole(role!);
    if (!db.users.has(member!.toLowerCase())) throw sqlError.userOrRoleMissing(member!);
    if (name === 'sp_addrolemember') db.roles.get(role!.toLowerCase())!.add(member!.toLowerCase());
    else db.roles.get(role!.toLowerCase())!.delete(member!.toLowerCase());
    out.push({ t: 'done' });
  }

  private env(session: Session): EvalEnv {
    const db = this.db(session);
    return {
      database: db.name,
      user: session.user,
      login: session.login,
      variables: session.variables,
      relation: (name) => this.relation(session, name),
      schemaId: (name) => db.schemas.get(name.replace(/^\[|\]$/g, '').toLowerCase())?.id ?? null,
      objectId: (name, type) => {
        const o = findObject(
          this.state,
          resolveName(
            name.split('.').map((p) => p.replace(/^\[|\]$/g, '')),
            session.database,
          ),
        );
        if (!o) return null;
        const code = o.kind === 'table' ? 'U' : o.kind === 'view' ? 'V' : o.def.kind === 'UNIQUE' ? 'UQ' : 'PK';
        return !type || type.trim().toUpperCase() === code ? o.id : null;
      },
      objectName: (id) => [...db.schemas.values()].flatMap((sc) => [...sc.objects.values()]).find((o) => o.id === id),
      isRoleMember: (role, user) => {
        const members = db.roles.get(role.toLowerCase());
        if (!members) return null;
        const who = (user ?? session.user).toLowerCase();
        return who === 'dbo' || members.has(who) ? 1 : 0;
      },
    };
  }

  private relation(session: Session, name: Name): Relation {
    const ref = this.ref(name, session);
    const db = this.state.databases.get(ref.database.toLowerCase());
    if (!db) throw sqlError.invalidObject(ref.written);
    const view = catalogView(db, ref.schema, ref.name);
    if (view) return view;
    // sys.databases is server-wide: every database the server hosts, with its id.
    if (`${ref.schema}.${ref.name}`.toLowerCase() === 'sys.databases')
      return {
        columns: [
          { name: 'name', type: 'nvarchar', nullable: false },
          { name: 'database_id', type: 'int', nullable: false },
        ],
        rows: [...this.state.databases.values()].map((d, i) => [d.name, i + 1]),
      };
    const o = findObject(this.state, ref);
    if (!o || o.kind === 'constraint') throw sqlError.invalidObject(ref.written);
    if (o.kind === 'view') throw sqlError.unsupported(`querying views (the sandbox stores a view's definition; query its base tables)`);
    if (!this.can({ ...session, database: db.name }, db, 'read')) throw sqlError.objectPermission('SELECT', o.name, db.name, o.schema);
    // An external table over delimited text in the lake reads its files (as does any external table of a serverless pool).
    const format = o.external && db.fileFormats.get(o.external.fileFormat.toLowerCase())?.type;
    if (o.external && this.options.readLake && (this.serverless || format === 'DELIMITEDTEXT'))
      return { columns: o.columns, rows: externalRows(db, o, this.options.readLake) };
    return { columns: o.columns, rows: o.rows };
  }
}

type SqlValues = NonNullable<(Stmt & { t: 'insert' })['values']>;

function asSqlError(err: unknown): SqlServerError {
  if (err instanceof SqlServerError) return err;
  return new SqlServerError(50000, 1, 16, `Sandbox SQL engine error: ${(err as Error).message}`, true);
}
