import { randomUUID } from 'node:crypto';
import type { Caller } from '../identity/caller.js';
import { CommandText, parseSchema, splitTop, unquote } from './command-parse.js';
import { parseCsv } from './csv.js';
import type { DatabaseRole, KqlDatabase, KqlEngine, KqlTable } from './engine.js';
import { defineFunction, showFunctions } from './functions.js';
import { badRequest, entityNotFound, kustoError, syntaxError } from './errors.js';
import { convert, type KqlType } from './values.js';

/** A management command's result: the V1 table's columns and rows (wire values). */
export interface CommandResult {
  columns: Array<{ name: string; type: KqlType }>;
  rows: unknown[][];
}

/** Result columns from `name[:type], …` (string when no type is given). */
export const cols = (spec: string): CommandResult['columns'] =>
  spec.split(',').map((s) => {
    const [name, type] = s.trim().split(':');
    return { name: name!, type: (type ?? 'string') as KqlType };
  });

const schemaJson = (t: KqlTable) =>
  JSON.stringify({
    Name: t.name,
    OrderedColumns: t.columns.map((c) => ({
      Name: c.name,
      Type: `System.${{ string: 'String', long: 'Int64', int: 'Int32', real: 'Double', bool: 'Boolean', datetime: 'DateTime', timespan: 'TimeSpan', dynamic: 'Object', guid: 'Guid', decimal: 'Data.SqlTypes.SqlDecimal' }[c.type]}`,
      CslType: c.type,
    })),
  });

function tableSchema(db: KqlDatabase, tables: KqlTable[]): CommandResult {
  return {
    columns: cols('TableName,Schema,DatabaseName,Folder,DocString'),
    rows: tables.map((t) => [t.name, schemaJson(t), db.name, t.folder, t.docString]),
  };
}

function showTables(db: KqlDatabase, details: boolean): CommandResult {
  const tables = [...db.tables.values()];
  if (!details)
    return { columns: cols('TableName,DatabaseName,Folder,DocString'), rows: tables.map((t) => [t.name, db.name, t.folder, t.docString]) };
  return {
    columns: cols('TableName,DatabaseName,Folder,DocString,TotalExtents:long,TotalRowCount:long,HotExtents:long,HotRowCount:long'),
    rows: tables.map((t) => [t.name, db.name, t.folder, t.docString, t.extents, t.rows.length, t.extents, t.rows.length]),
  };
}

const ROLE_WORDS: Record<string, DatabaseRole> = {
  admins: 'Admin',
  users: 'User',
  viewers: 'Viewer',
  unrestrictedviewers: 'UnrestrictedViewer',
  ingestors: 'Ingestor',
  monitors: 'Monitor',
};

function showPrincipals(engine: KqlEngine, db: KqlDatabase): CommandResult {
  const rows: unknown[][] = [];
  for (const a of engine.clusterAssignments.values()) {
    const p = engine.directory.find(a.principalId);
    const fqn =
      a.principalType === 'App'
        ? `aadapp=${a.principalId};${a.tenantId}`
        : a.principalType === 'User'
          ? `aaduser=${a.principalId};${a.tenantId}`
          : `aadgroup=${a.principalId};${a.tenantId}`;
    rows.push([
      a.role,
      `AAD ${a.principalType === 'App' ? 'Application' : a.principalType}`,
      p?.displayName ?? a.principalId,
      p?.objectId ?? '',
      fqn,
      '',
    ]);
  }
  for (const pr of db.principals) {
    const id = /=([^;]+)/.exec(pr.fqn)?.[1];
    const p = engine.directory.find(id);
    const kind = pr.fqn.startsWith('aadapp') ? 'AAD Application' : pr.fqn.startsWith('aadgroup') ? 'AAD Group' : 'AAD User';
    rows.push([`Database ${db.name} ${pr.role}`, kind, p?.displayName ?? id ?? '', p?.objectId ?? '', pr.fqn, pr.note]);
  }
  return { columns: cols('Role,PrincipalType,PrincipalDisplayName,PrincipalObjectId,PrincipalFQN,Notes'), rows };
}

function defineTable(db: KqlDatabase, c: CommandText, merge: 'create' | 'merge' | 'alter', must?: 'exist'): KqlTable {
  const name = c.name();
  const schema = parseSchema(c.parens());
  const props = c.withProps();
  if (c.rest()) throw syntaxError(`SYN0002: unexpected '${c.rest().slice(0, 30)}'`);
  const existing = db.tables.get(name);
  if (!existing) {
    if (must === 'exist') throw entityNotFound(name, 'Table');
    const t: KqlTable = { name, columns: schema, rows: [], folder: props.folder ?? '', docString: props.docstring ?? '', extents: 0 };
    db.tables.set(name, t);
    return t;
  }
  // An existing table is success and no change for .create table, even when the schema differs.
  if (merge === 'create') return existing;
  if (merge === 'merge') {
    for (const col of schema) {
      const have = existing.columns.find((x) => x.name === col.name);
      if (have && have.type !== col.type)
        throw badRequest(
          `Column '${col.name}' in table '${name}' has type '${have.type}'; .create-merge table cannot change it to '${col.type}'.`,
        );
      if (!have) {
        existing.columns.push(col);
        for (const r of existing.rows) r.push(null);
      }
    }
  } else {
    const old = existing.columns;
    existing.rows = existing.rows.map((r) =>
      schema.map((col) => {
        const i = old.findIndex((o) => o.name === col.name);
        return i < 0 ? null : convert(r[i], col.type);
      }),
    );
    existing.columns = schema;
  }
  if (props.folder !== undefined) existing.folder = props.folder;
  if (props.docstring !== undefined) existing.docString = props.docstring;
  return existing;
}

function ingestInline(db: KqlDatabase, c: CommandText): CommandResult {
  const split = c.text.indexOf('<|', c.pos);
  if (split < 0) throw syntaxError("SYN0002: '.ingest inline' expects '<|' followed by the data");
  const head = new CommandText(c.text.slice(c.pos, split));
  const name = head.name();
  const props = head.withProps();
  const table = db.tables.get(name);
  if (!table) throw entityNotFound(name, 'Table');
  let data = c.text.slice(split + 2).replace(/^[ \t]*\r?\n/, '');
  const format = (props.format ?? 'csv').toLowerCase();
  let records: unknown[][];
  if (format === 'json' || format === 'multijson') {
    records = data
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((l) => {
        const obj = JSON.parse(l);
        return table.columns.map((col) => obj[col.name]);
      });
  } else if (format === 'csv') {
    if (/^\s*\[/.test(data) && /\]\s*$/.test(data)) data = data.trim().replace(/^\[|\]$/g, '');
    records = parseCsv(data);
    if (props.ignorefirstrecord === 'true') records = records.slice(1);
  } else throw badRequest(`The ingestion format '${format}' is not supported for inline ingestion in the sandbox`);
  for (const rec of records) table.rows.push(table.columns.map((col, i) => convert(rec[i], col.type)));
  table.extents++;
  return {
    columns: cols('ExtentId:guid,ItemLoaded,Duration:timespan,HasErrors:bool,OperationId:guid'),
    rows: [[randomUUID(), `inproc:${randomUUID()}`, '00:00:00.0100000', false, randomUUID()]],
  };
}

function managePrincipals(engine: KqlEngine, caller: Caller, c: CommandText, add: boolean): CommandResult {
  const db = engine.requireDatabase(c.name());
  engine.authorize(caller, db, 'admin');
  const word = c.name().toLowerCase();
  const role = ROLE_WORDS[word];
  if (!role) throw syntaxError(`SYN0002: unknown database role '${word}'`);
  const fqns = splitTop(c.parens()).map(unquote);
  const note = unquote(c.rest());
  for (const fqn of fqns) {
    const m = /^aad(app|user|group)=([^;]+)(?:;(.+))?$/i.exec(fqn);
    if (!m) throw badRequest(`The principal '${fqn}' is not a valid principal name (expected aadapp=, aaduser= or aadgroup=)`);
    if (m[1]!.toLowerCase() !== 'group' && !engine.directory.find(m[2]))
      throw badRequest(`AAD principal '${fqn}' could not be resolved.`, 'Kusto.Data.Exceptions.PrincipalNotFoundException');
    const exists = db.principals.findIndex((p) => p.role === role && p.fqn.toLowerCase() === fqn.toLowerCase());
    if (add && exists < 0) db.principals.push({ role, fqn, note });
    if (!add && exists >= 0) db.principals.splice(exists, 1);
  }
  return showPrincipals(engine, db);
}

/** Runs a management command on /v1/rest/mgmt for the request's database. */
export function runCommand(engine: KqlEngine, caller: Caller, dbName: string | undefined, csl: string): CommandResult {
  const c = new CommandText(csl.trim());
  const db = () => engine.requireDatabase(dbName);
  const authorized = (d: KqlDatabase, action: Parameters<KqlEngine['authorize']>[2]) => (engine.authorize(caller, d, action), d);
  if (c.keyword('.create') && c.keyword('table')) return tableSchema(db(), [defineTable(authorized(db(), 'write'), c, 'create')]);
  c.pos = 0;
  if (c.keyword('.create') && c.keyword('tables')) {
    const d = authorized(db(), 'write');
    return tableSchema(
      d,
      splitTop(c.rest()).map((entry) => defineTable(d, new CommandText(entry), 'create')),
    );
  }
  c.pos = 0;
  if (c.keyword('.create-merge') && c.keyword('table')) return tableSchema(db(), [defineTable(authorized(db(), 'write'), c, 'merge')]);
  c.pos = 0;
  if (c.keyword('.create-merge') && c.keyword('tables')) {
    const d = authorized(db(), 'write');
    return tableSchema(
      d,
      splitTop(c.rest()).map((entry) => defineTable(d, new CommandText(entry), 'merge')),
    );
  }
  c.pos = 0;
  if (c.keyword('.alter') && c.keyword('table')) return tableSchema(db(), [defineTable(authorized(db(), 'write'), c, 'alter', 'exist')]);
  c.pos = 0;
  if (c.keyword('.alter-merge') && c.keyword('table'))
    return tableSchema(db(), [defineTable(authorized(db(), 'write'), c, 'merge', 'exist')]);
  c.pos = 0;
  if (c.keyword('.drop') && c.keyword('table')) {
    const d = authorized(db(), 'write');
    const name = c.name();
    if (!d.tables.delete(name) && !c.keyword('ifexists')) throw entityNotFound(name, 'Table');
    return showTables(d, false);
  }
  c.pos = 0;
  if (c.keyword('.ingest') && c.keyword('inline') && c.keyword('into') && c.keyword('table'))
    return ingestInline(authorized(db(), 'ingest'), c);
  c.pos = 0;
  if (c.keyword('.create-or-alter') && c.keyword('function')) return defineFunction(authorized(db(), 'write'), c, 'createOrAlter');
  c.pos = 0;
  if (c.keyword('.create') && c.keyword('function')) return defineFunction(authorized(db(), 'write'), c, 'create');
  c.pos = 0;
  if (c.keyword('.alter') && c.keyword('function')) return defineFunction(authorized(db(), 'write'), c, 'alter');
  c.pos = 0;
  if (c.keyword('.drop') && c.keyword('function')) {
    const d = authorized(db(), 'write');
    const name = c.name();
    if (!d.functions.delete(name) && !c.keyword('ifexists')) throw entityNotFound(name, 'Function');
    return showFunctions(d);
  }
  c.pos = 0;
  if (c.keyword('.add') && c.keyword('database')) return managePrincipals(engine, caller, c, true);
  c.pos = 0;
  if (c.keyword('.drop') && c.keyword('database')) return managePrincipals(engine, caller, c, false);
  c.pos = 0;
  if ((c.keyword('.add') || c.keyword('.drop') || c.keyword('.set')) && c.keyword('cluster')) {
    throw badRequest(
      'Cluster-level security roles cannot be changed with management commands; use the resource manager (cluster principalAssignments).',
    );
  }
  c.pos = 0;
  if (c.keyword('.show')) return show(engine, caller, dbName, c);
  throw syntaxError(`SYN0002: A recognition error occurred in the command '${csl.trim().slice(0, 40)}'.`);
}

function show(engine: KqlEngine, caller: Caller, dbName: string | undefined, c: CommandText): CommandResult {
  const monitored = (name?: string) => {
    const d = engine.requireDatabase(name ?? dbName);
    engine.authorize(caller, d, 'monitor');
    return d;
  };
  if (c.keyword('tables')) return showTables(monitored(), c.keyword('details'));
  if (c.keyword('table')) {
    const d = monitored();
    const name = c.name();
    const t = d.tables.get(name);
    if (!t) throw entityNotFound(name, 'Table');
    if (c.keyword('schema')) return tableSchema(d, [t]);
    return {
      columns: cols('AttributeName,AttributeType,ExtentSize:long,CompressionRatio:real,IndexSize:long'),
      rows: t.columns.map((col) => [col.name, `System.${col.type}`, 0, 0, 0]),
    };
  }
  if (c.keyword('functions')) return showFunctions(monitored());
  if (c.keyword('function')) return showFunctions(monitored(), c.name());
  if (c.keyword('databases')) {
    const visible = [...engine.databases.values()].filter((d) => engine.database(d.name) && engine.actions(caller, d).size > 0);
    return {
      columns: cols(
        'DatabaseName,PersistentStorage,Version,IsCurrent:bool,DatabaseAccessMode,PrettyName,ReservedSlot1,DatabaseId:guid,InTransitionTo',
      ),
      rows: visible.map((d) => [
        d.name,
        '',
        'v1.0',
        d.name === dbName,
        'ReadWrite',
        d.name,
        null,
        '00000000-0000-0000-0000-000000000000',
        '',
      ]),
    };
  }
  if (c.keyword('database')) {
    let name: string | undefined;
    if (!/^principals\b/i.test(c.rest()) && !/^schema\b/i.test(c.rest())) name = c.name();
    if (c.keyword('principals')) return showPrincipals(engine, monitored(name));
    const d = monitored(name);
    return {
      columns: cols('DatabaseName,TableName,ColumnName,ColumnType'),
      rows: [...d.tables.values()].flatMap((t) => t.columns.map((col) => [d.name, t.name, col.name, `System.${col.type}`])),
    };
  }
  if (c.keyword('cluster') && c.keyword('principals')) {
    return {
      columns: cols('Role,PrincipalType,PrincipalDisplayName,PrincipalObjectId,PrincipalFQN,Notes'),
      rows: [...engine.clusterAssignments.values()].map((a) => [
        a.role,
        a.principalType,
        engine.directory.find(a.principalId)?.displayName ?? a.principalId,
        '',
        `aad${a.principalType === 'App' ? 'app' : a.principalType.toLowerCase()}=${a.principalId};${a.tenantId}`,
        '',
      ]),
    };
  }
  if (c.keyword('version'))
    return {
      columns: cols('BuildVersion,BuildTime:datetime,ServiceType,ProductVersion'),
      rows: [['1.0.9999.0', '2026-01-01T00:00:00Z', 'Engine', 'KustoSandbox_1.0']],
    };
  throw syntaxError(`SYN0002: unknown .show command '${c.text.slice(0, 40)}'`);
}
