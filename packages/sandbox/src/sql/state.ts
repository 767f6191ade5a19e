import type { ColumnDef, ConstraintDef, Name } from './ast.js';

/** A table the sandbox created, with its rows in column order. */
export interface SqlTable {
  kind: 'table';
  id: number;
  schema: string;
  name: string;
  columns: ColumnDef[];
  rows: unknown[][];
  /** An external table (PolyBase): where its files are; it holds no rows of its own. */
  external?: { location: string; dataSource: string; fileFormat: string };
}

/** A view: its SELECT body and the full statement that last created or altered it. */
export interface SqlView {
  kind: 'view';
  id: number;
  schema: string;
  name: string;
  definition: string;
  text: string;
  alteredCount: number;
  /** Its column names, as its SELECT list names them. */
  columns: string[];
}

/** A PRIMARY KEY or UNIQUE constraint (a schema-scoped object, as in sys.objects). */
export interface SqlConstraint {
  kind: 'constraint';
  id: number;
  schema: string;
  name: string;
  table: string;
  def: ConstraintDef;
}

export type SqlObject = SqlTable | SqlView | SqlConstraint;

export interface SqlSchema {
  id: number;
  name: string;
  /** Objects by lower-cased name (the default collation is case-insensitive). */
  objects: Map<string, SqlObject>;
}

/** A database user: 'E' external (Entra) user, 'S' SQL user without login. */
export interface SqlUser {
  id: number;
  name: string;
  type: 'E' | 'S';
  objectId?: string;
}

/** An external data source or file format (database-scoped, not schema objects). */
export interface SqlExternal {
  id: number;
  name: string;
  /** TYPE of a data source, FORMAT_TYPE of a file format. */
  type: string;
  /** LOCATION of a data source. */
  location?: string;
  /** FORMAT_OPTIONS of a file format, as written ('(FIELD_TERMINATOR = ',', FIRST_ROW = 2)'). */
  options?: string;
}

export interface SqlDatabase {
  name: string;
  dataSources: Map<string, SqlExternal>;
  fileFormats: Map<string, SqlExternal>;
  schemas: Map<string, SqlSchema>;
  users: Map<string, SqlUser>;
  /** Fixed database roles → lower-cased member names. */
  roles: Map<string, Set<string>>;
}

/** Everything the endpoint created, by database (lower-cased keys), for tests to inspect. */
export interface SqlState {
  databases: Map<string, SqlDatabase>;
}

/** The fixed database roles the sandbox knows. */
export const FIXED_ROLES = ['db_owner', 'db_ddladmin', 'db_datareader', 'db_datawriter', 'db_accessadmin', 'db_securityadmin'];

let nextId = 1000;
/** A new object id (unique within the process, like sys.objects ids within a database). */
export const newId = () => ++nextId;

/** An empty database with the dbo schema and the fixed roles. */
export function newDatabase(name: string): SqlDatabase {
  return {
    name,
    dataSources: new Map(),
    fileFormats: new Map(),
    schemas: new Map([['dbo', { id: 1, name: 'dbo', objects: new Map() }]]),
    users: new Map([['dbo', { id: 1, name: 'dbo', type: 'S' }]]),
    roles: new Map(FIXED_ROLES.map((r) => [r, new Set<string>()])),
  };
}

/** A resolved name: database, schema and object as written (default schema dbo). */
export interface ObjectRef {
  database: string;
  schema: string;
  name: string;
  /** The name as SQL Server quotes it in messages (the parts as written, without brackets). */
  written: string;
}

/** Resolves [db.][schema.]name against the session's database. */
export function resolveName(parts: Name, currentDatabase: string): ObjectRef {
  const written = parts.join('.');
  const p = [...parts];
  const name = p.pop()!;
  const schema = p.pop() || 'dbo';
  const database = p.pop() || currentDatabase;
  return { database, schema, name, written };
}

/** The object a reference names, if it exists. */
export function findObject(state: SqlState, ref: ObjectRef): SqlObject | undefined {
  return state.databases.get(ref.database.toLowerCase())?.schemas.get(ref.schema.toLowerCase())?.objects.get(ref.name.toLowerCase());
}

/** Looks up a table or view by 'schema.name' (tests use this to inspect what was created). */
export function lookup(state: SqlState, database: string, qualified: string): SqlObject | undefined {
  return findObject(state, resolveName(qualified.split('.'), database));
}
