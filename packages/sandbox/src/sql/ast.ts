/** A multi-part object name as written: [database.][schema.]name. */
export type Name = string[];

/** Scalar expressions the sandbox evaluates. */
export type Expr =
  | { t: 'lit'; v: string | number | boolean | null }
  | { t: 'col'; parts: string[] }
  /** A @variable: an RPC parameter (sp_executesql, sp_execute). */
  | { t: 'var'; name: string }
  | { t: 'fn'; name: string; args: Expr[]; star?: boolean; distinct?: boolean }
  | { t: 'bin'; op: string; l: Expr; r: Expr }
  | { t: 'not'; e: Expr }
  | { t: 'neg'; e: Expr }
  | { t: 'isnull'; e: Expr; not: boolean }
  | { t: 'in'; e: Expr; list: Expr[]; not: boolean }
  | { t: 'like'; e: Expr; pattern: Expr; not: boolean }
  | { t: 'exists'; select: Select }
  | { t: 'subquery'; select: Select };

/** A single-table SELECT (no joins or grouping), optionally UNION ALL another. */
export interface Select {
  top?: number;
  columns: Array<{ expr: Expr | '*'; alias?: string }>;
  from?: { name: Name; alias?: string };
  where?: Expr;
  orderBy?: Array<{ expr: Expr; desc: boolean }>;
  unionAll?: Select;
}

/** A column as CREATE TABLE declares it. */
export interface ColumnDef {
  name: string;
  type: string;
  length?: number | 'max';
  precision?: number;
  scale?: number;
  nullable: boolean;
}

/** A PRIMARY KEY or UNIQUE constraint; NOT ENFORCED ones are metadata only (Synapse, Fabric). */
export interface ConstraintDef {
  name?: string;
  kind: 'PRIMARY KEY' | 'UNIQUE';
  columns: string[];
  enforced: boolean;
}

export type DropKind = 'TABLE' | 'VIEW' | 'SCHEMA' | 'USER' | 'EXTERNAL TABLE' | 'EXTERNAL DATA SOURCE' | 'EXTERNAL FILE FORMAT';

/** The statements the sandbox executes. */
export type Stmt =
  | { t: 'set' }
  /** SET XACT_ABORT ON|OFF: with ON a run-time error ends the batch (and the batches that EXEC'd it). */
  | { t: 'setXactAbort'; on: boolean }
  | { t: 'createSchema'; name: string }
  /** CREATE DATABASE / DROP DATABASE (a serverless SQL pool's databases; a dedicated pool is one database). */
  | { t: 'createDatabase'; name: string }
  | { t: 'dropDatabase'; name: string; ifExists: boolean }
  | { t: 'createTable'; name: Name; columns: ColumnDef[]; constraints: ConstraintDef[] }
  | { t: 'addConstraint'; table: Name; constraint: ConstraintDef }
  | { t: 'insert'; table: Name; columns?: string[]; values?: Expr[][]; select?: Select }
  | { t: 'createView'; name: Name; mode: 'create' | 'alter' | 'createOrAlter'; body: string; text: string }
  | { t: 'drop'; kind: DropKind; ifExists: boolean; names: Name[] }
  /** CREATE EXTERNAL DATA SOURCE / FILE FORMAT: the WITH options by upper-cased key (values unquoted). */
  | { t: 'createExternal'; kind: 'DATA SOURCE' | 'FILE FORMAT'; name: string; options: Record<string, string> }
  | { t: 'createExternalTable'; name: Name; columns: ColumnDef[]; options: Record<string, string> }
  | { t: 'createUser'; name: string; external: boolean; objectId?: string }
  | { t: 'alterRole'; role: string; add: boolean; member: string }
  | { t: 'exec'; proc: Name; args: Expr[] }
  | { t: 'execString'; sql: Expr }
  | { t: 'if'; cond: Expr; then: Stmt; else?: Stmt }
  | { t: 'block'; body: Stmt[] }
  | { t: 'select'; select: Select }
  | { t: 'print'; expr: Expr };
