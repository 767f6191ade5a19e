/** A T-SQL error as SQL Server raises it: number, state, class (severity) and text from sys.messages. */
export class SqlServerError extends Error {
  /** Where in the batch a syntax error was found (offset into its text) and the text near it. */
  at?: { offset: number; near: string };
  constructor(
    readonly number: number,
    readonly state: number,
    readonly severity: number,
    message: string,
    readonly abortsBatch = false,
  ) {
    super(message);
    this.name = 'SqlServerError';
  }
}

const e = (number: number, state: number, severity: number, text: string, abortsBatch = false) =>
  new SqlServerError(number, state, severity, text, abortsBatch);

/** The messages the sandbox raises, by number, with the real states and classes. */
export const sqlError = {
  syntax: (near: string, offset?: number) =>
    Object.assign(e(102, 1, 15, `Incorrect syntax near '${near}'.`, true), offset === undefined ? {} : { at: { offset, near } }),
  /** A dedicated SQL pool's parser error (its PDW grammar): every syntax error is 103010 with line and column. */
  parseError: (line: number, column: number, near: string) =>
    e(103010, 1, 16, `Parse error at line: ${line}, column: ${column}: Incorrect syntax near '${near}'.`, true),
  /** Msg 40515: a name with another database in it (Azure SQL and Synapse pools answer cross-database names so). */
  crossDatabase: (name: string) =>
    e(40515, 1, 15, `Reference to database and/or server name in '${name}' is not supported in this version of SQL Server.`, true),
  externalDml: () => e(46519, 10, 16, 'DML Operations are not supported with external tables.', true),
  noColumnName: (n: number) => e(4511, 1, 16, `Create View or Function failed because no column name was specified for column ${n}.`, true),
  unboundIdentifier: (name: string) => e(4104, 1, 16, `The multi-part identifier "${name}" could not be bound.`, true),
  unclosedQuote: (text: string) => e(105, 1, 15, `Unclosed quotation mark after the character string '${text}'.`, true),
  missingEndComment: () => e(113, 1, 15, "Missing end comment mark '*/'.", true),
  mustBeFirst: (what: string) => e(111, 1, 15, `'${what}' must be the first statement in a query batch.`, true),
  invalidObject: (name: string) => e(208, 1, 16, `Invalid object name '${name}'.`, true),
  invalidColumn: (name: string) => e(207, 1, 16, `Invalid column name '${name}'.`, true),
  columnCountMismatch: () => e(213, 1, 16, 'Column name or number of supplied values does not match table definition.'),
  fewerColumns: () =>
    e(
      110,
      1,
      15,
      'There are fewer columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.',
      true,
    ),
  moreColumns: () =>
    e(
      109,
      1,
      15,
      'There are more columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.',
      true,
    ),
  objectPermission: (permission: string, object: string, database: string, schema: string) =>
    e(229, 5, 14, `The ${permission} permission was denied on the object '${object}', database '${database}', schema '${schema}'.`),
  createPermission: (what: string, database: string) => e(262, 1, 14, `${what} permission denied in database '${database}'.`),
  objectExists: (name: string) => e(2714, 6, 16, `There is already an object named '${name}' in the database.`),
  constraintFailed: () => e(1750, 0, 16, 'Could not create constraint or index. See previous errors.'),
  schemaMissing: (name: string) =>
    e(2760, 1, 16, `The specified schema name "${name}" either does not exist or you do not have permission to use it.`),
  principalExists: (name: string) => e(15023, 1, 16, `User, group, or role '${name}' already exists in the current database.`),
  principalNotFound: (name: string) => e(33130, 1, 16, `Principal '${name}' could not be found or this principal type is not supported.`),
  cannotAddPrincipal: (name: string) =>
    e(15151, 1, 16, `Cannot add the principal '${name}', because it does not exist or you do not have permission.`),
  cannotAlterRole: (role: string) =>
    e(15151, 1, 16, `Cannot alter the role '${role}', because it does not exist or you do not have permission.`),
  userOrRoleMissing: (name: string) => e(15410, 1, 11, `User or role '${name}' does not exist in this database.`),
  noPermission: () => e(15247, 1, 16, 'User does not have permission to perform this action.'),
  procMissing: (name: string) => e(2812, 62, 16, `Could not find stored procedure '${name}'.`),
  nullNotAllowed: (column: string, table: string) =>
    e(515, 2, 16, `Cannot insert the value NULL into column '${column}', table '${table}'; column does not allow nulls. INSERT fails.`),
  truncated: (table: string, column: string, value: string) =>
    e(2628, 1, 16, `String or binary data would be truncated in table '${table}', column '${column}'. Truncated value: '${value}'.`),
  convertToInt: (value: string, type: string) =>
    e(245, 1, 16, `Conversion failed when converting the ${type} value '${value}' to data type int.`, true),
  convertToNumeric: (type: string) => e(8114, 5, 16, `Error converting data type ${type} to numeric.`),
  convertDate: () => e(241, 1, 16, 'Conversion failed when converting date and/or time from character string.', true),
  duplicateKey: (constraint: string, table: string, key: string) =>
    e(
      2627,
      1,
      14,
      `Violation of PRIMARY KEY constraint '${constraint}'. Cannot insert duplicate key in object '${table}'. The duplicate key value is (${key}).`,
    ),
  /** What a serverless SQL pool's engine lacks (regular tables and their DML: it reads files only). */
  notInThisVersion: (what: string) => e(40514, 1, 16, `'${what}' is not supported in this version of SQL Server.`, true),
  databaseExists: (name: string) => e(1801, 3, 16, `Database '${name}' already exists. Choose a different database name.`, true),
  cannotDropDatabase: (name: string) =>
    e(3701, 11, 14, `Cannot drop the database '${name}', because it does not exist or you do not have permission.`, true),
  databaseInUse: (name: string) => e(3702, 3, 16, `Cannot drop database "${name}" because it is currently in use.`, true),
  externalLocationMissing: (name: string) =>
    e(16562, 1, 16, `External table '${name}' is not accessible because location does not exist or it is used by another process.`, true),
  unsupported: (what: string) => e(40000, 1, 16, `The sandbox SQL endpoint does not implement ${what}.`, true),
  loginFailed: () => e(18456, 1, 14, "Login failed for user '<token-identified principal>'."),
  cannotOpenDatabase: (db: string) => e(4060, 1, 11, `Cannot open database "${db}" requested by the login. The login failed.`),
  unavailable: (db: string, server: string, traceId: string) =>
    e(
      40613,
      10,
      17,
      `Database '${db}' on server '${server}' is not currently available.  Please retry the connection later.  If the problem persists, contact customer support, and provide them the session tracing ID of '${traceId}'.`,
    ),
};

/** An error a fault rule injects by number: the catalogued text when known, else the rule's message. */
export function faultError(number: number, message: string | undefined, database: string): SqlServerError {
  switch (number) {
    case 18456:
      return message ? e(18456, 1, 14, message) : sqlError.loginFailed();
    case 229:
      return message ? e(229, 5, 14, message) : sqlError.objectPermission('SELECT', 'object', database, 'dbo');
    case 262:
      return message ? e(262, 1, 14, message) : sqlError.createPermission('CREATE TABLE', database);
    case 40613:
      return message ? e(40613, 10, 17, message) : sqlError.unavailable(database, 'sandbox', '00000000-0000-0000-0000-000000000000');
    default:
      return e(number, 1, 16, message ?? `Sandbox fault ${number}.`, true);
  }
}
