import type { ColumnDef } from './ast.js';
import { FIXED_ROLES, type SqlDatabase } from './state.js';

/** A computed relation: its columns and rows. */
export interface Relation {
  columns: ColumnDef[];
  rows: unknown[][];
}

const col = (name: string, type = 'nvarchar'): ColumnDef => ({ name, type, nullable: true });
const ROLE_ID_BASE = 16384;

/** The catalog views the sandbox answers (INFORMATION_SCHEMA and a few sys views), or undefined. */
export function catalogView(db: SqlDatabase, schema: string, name: string): Relation | undefined {
  const objects = [...db.schemas.values()].flatMap((s) => [...s.objects.values()].map((o) => ({ s, o })));
  const tablesAndViews = objects.filter(({ o }) => o.kind !== 'constraint');
  switch (`${schema}.${name}`.toLowerCase()) {
    case 'information_schema.tables':
      return {
        columns: [col('TABLE_CATALOG'), col('TABLE_SCHEMA'), col('TABLE_NAME'), col('TABLE_TYPE')],
        rows: tablesAndViews.map(({ s, o }) => [db.name, s.name, o.name, o.kind === 'view' ? 'VIEW' : 'BASE TABLE']),
      };
    case 'information_schema.views':
      return {
        columns: [col('TABLE_CATALOG'), col('TABLE_SCHEMA'), col('TABLE_NAME'), col('VIEW_DEFINITION')],
        rows: tablesAndViews
          .filter(({ o }) => o.kind === 'view')
          .map(({ s, o }) => [db.name, s.name, o.name, o.kind === 'view' ? o.text : null]),
      };
    case 'information_schema.columns':
      return {
        columns: [
          col('TABLE_SCHEMA'),
          col('TABLE_NAME'),
          col('COLUMN_NAME'),
          col('ORDINAL_POSITION', 'int'),
          col('DATA_TYPE'),
          col('IS_NULLABLE'),
        ],
        rows: tablesAndViews.flatMap(({ s, o }) =>
          o.kind === 'table'
            ? o.columns.map((c, i) => [s.name, o.name, c.name, i + 1, c.type, c.nullable ? 'YES' : 'NO'])
            : o.kind === 'view'
              ? o.columns.map((c, i) => [s.name, o.name, c, i + 1, null, 'YES'])
              : [],
        ),
      };
    case 'information_schema.schemata':
      return { columns: [col('CATALOG_NAME'), col('SCHEMA_NAME')], rows: [...db.schemas.values()].map((s) => [db.name, s.name]) };
    case 'sys.schemas':
      return { columns: [col('name'), col('schema_id', 'int')], rows: [...db.schemas.values()].map((s) => [s.name, s.id]) };
    case 'sys.objects':
    case 'sys.tables':
    case 'sys.views': {
      const kind = name.toLowerCase() === 'tables' ? 'table' : name.toLowerCase() === 'views' ? 'view' : undefined;
      const code = (k: string) => (k === 'table' ? 'U' : k === 'view' ? 'V' : 'PK');
      const listed = objects.filter(({ o }) => !kind || o.kind === kind);
      if (kind === 'table') {
        return {
          columns: [col('name'), col('object_id', 'int'), col('schema_id', 'int'), col('type'), col('is_external', 'bit')],
          rows: listed.map(({ s, o }) => [o.name, o.id, s.id, 'U', o.kind === 'table' && o.external ? 1 : 0]),
        };
      }
      return {
        columns: [col('name'), col('object_id', 'int'), col('schema_id', 'int'), col('type')],
        rows: listed.map(({ s, o }) => [o.name, o.id, s.id, code(o.kind)]),
      };
    }
    case 'sys.sql_modules':
      return {
        columns: [col('object_id', 'int'), col('definition')],
        rows: objects.flatMap(({ o }) => (o.kind === 'view' ? [[o.id, o.text]] : [])),
      };
    case 'sys.external_data_sources':
      return {
        columns: [col('name'), col('data_source_id', 'int'), col('location'), col('type_desc')],
        rows: [...db.dataSources.values()].map((d) => [d.name, d.id, d.location ?? null, d.type]),
      };
    case 'sys.external_file_formats':
      return {
        columns: [col('name'), col('file_format_id', 'int'), col('format_type')],
        rows: [...db.fileFormats.values()].map((f) => [f.name, f.id, f.type]),
      };
    case 'sys.external_tables':
      return {
        columns: [
          col('name'),
          col('object_id', 'int'),
          col('schema_id', 'int'),
          col('location'),
          col('data_source_id', 'int'),
          col('file_format_id', 'int'),
        ],
        rows: objects.flatMap(({ s, o }) =>
          o.kind === 'table' && o.external
            ? [
                [
                  o.name,
                  o.id,
                  s.id,
                  o.external.location,
                  db.dataSources.get(o.external.dataSource.toLowerCase())?.id ?? null,
                  db.fileFormats.get(o.external.fileFormat.toLowerCase())?.id ?? null,
                ],
              ]
            : [],
        ),
      };
    case 'sys.database_principals':
      return {
        columns: [col('name'), col('principal_id', 'int'), col('type'), col('type_desc')],
        rows: [
          ...[...db.users.values()].map((u) => [u.name, u.id, u.type, u.type === 'E' ? 'EXTERNAL_USER' : 'SQL_USER']),
          ...FIXED_ROLES.map((r, i) => [r, ROLE_ID_BASE + i, 'R', 'DATABASE_ROLE']),
        ],
      };
    case 'sys.database_role_members':
      return {
        columns: [col('role_principal_id', 'int'), col('member_principal_id', 'int')],
        rows: FIXED_ROLES.flatMap((r, i) => [...(db.roles.get(r) ?? [])].map((m) => [ROLE_ID_BASE + i, db.users.get(m)?.id ?? null])),
      };
    default:
      return undefined;
  }
}
