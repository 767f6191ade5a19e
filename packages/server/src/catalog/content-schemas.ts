import { Type, type Static, type TSchema } from '@sinclair/typebox';

// The shape of each item type's content file (catalog/README.md). Cross-item rules live in validate-*.ts.

const Name = Type.String({ minLength: 1 });
const Key = Type.String({ pattern: '^[a-z0-9-]+$' });
const Column = Type.Object({ name: Name, type: Name });
const Row = Type.Array(Type.Unknown());

/** Notebook content: cells, the default lakehouse, and what the code reads and writes. */
export const NotebookContent = Type.Object({
  language: Type.Union([Type.Literal('python'), Type.Literal('sql')]),
  cells: Type.Array(Type.Object({ kind: Type.Union([Type.Literal('code'), Type.Literal('markdown')]), source: Name }), { minItems: 1 }),
  lakehouse: Type.Optional(Key),
  reads: Type.Optional(Type.Array(Key)),
  writes: Type.Optional(Type.Array(Key)),
});

/** A lakehouse table: its folder, Spark columns and seed rows. */
export const LakehouseTable = Type.Object({ name: Name, folder: Name, columns: Type.Array(Column, { minItems: 1 }), seedRows: Type.Optional(Type.Array(Row)) });
/** Lakehouse content: tables and declared file folders. */
export const LakehouseContent = Type.Object({ tables: Type.Array(LakehouseTable, { minItems: 1 }), files: Type.Optional(Type.Array(Name)) });

/** A KQL table: columns and seed rows. */
export const KqlTable = Type.Object({ name: Name, columns: Type.Array(Column, { minItems: 1 }), seedRows: Type.Optional(Type.Array(Row)) });
/** KQL database or eventhouse content: the database, its tables and functions. */
export const KqlDatabaseContent = Type.Object({
  database: Type.String({ pattern: '^[A-Za-z0-9_.-]+$' }),
  eventhouse: Type.Optional(Key),
  tables: Type.Array(KqlTable, { minItems: 1 }),
  functions: Type.Optional(Type.Array(Type.Object({ name: Name, parameters: Type.String({ pattern: '^\\(.*\\)$' }), body: Name, docstring: Type.Optional(Type.String()) }))),
});

/** KQL queryset content: saved queries over a KQL database of the app. */
export const KqlQuerysetContent = Type.Object({ database: Key, queries: Type.Array(Type.Object({ name: Name, text: Name }), { minItems: 1 }) });

const SearchField: TSchema = Type.Object({ name: Name, type: Name, key: Type.Optional(Type.Boolean()) }, { additionalProperties: true });
/** Search index content: the index body and its documents. */
export const SearchIndexContent = Type.Object({
  index: Type.Object({ name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,127}$' }), fields: Type.Array(SearchField, { minItems: 1 }) }, { additionalProperties: true }),
  documents: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});

const TmslColumn = Type.Object({ name: Name, dataType: Name, sourceColumn: Name }, { additionalProperties: true });
const TmslPartition = Type.Object(
  { name: Name, mode: Type.Optional(Type.String()), source: Type.Object({ type: Type.Literal('entity'), entityName: Name, schemaName: Type.Optional(Name), expressionSource: Type.Optional(Name) }, { additionalProperties: true }) },
  { additionalProperties: true },
);
const TmslTable = Type.Object(
  {
    name: Name,
    columns: Type.Array(TmslColumn, { minItems: 1 }),
    partitions: Type.Array(TmslPartition, { minItems: 1 }),
    measures: Type.Optional(Type.Array(Type.Object({ name: Name, expression: Name }, { additionalProperties: true }))),
  },
  { additionalProperties: true },
);
/** Semantic model content: the source lakehouse or warehouse and the model.bim document. */
export const SemanticModelContent = Type.Object({
  source: Key,
  model: Type.Object(
    {
      compatibilityLevel: Type.Literal(1604),
      model: Type.Object(
        {
          tables: Type.Array(TmslTable, { minItems: 1 }),
          expressions: Type.Optional(Type.Array(Type.Object({ name: Name, kind: Type.Literal('m'), expression: Type.Union([Name, Type.Array(Type.String())]) }, { additionalProperties: true }))),
          relationships: Type.Optional(Type.Array(Type.Object({ name: Name, fromTable: Name, fromColumn: Name, toTable: Name, toColumn: Name }, { additionalProperties: true }))),
        },
        { additionalProperties: true },
      ),
    },
    { additionalProperties: true },
  ),
});

/** The comparison operators of an activator condition. */
export const ACTIVATOR_OPERATORS = ['>', '<', '==', '!=', '>=', '<='] as const;
/** Activator content: the watched table and its triggers. */
export const ActivatorContent = Type.Object({
  source: Key,
  table: Name,
  triggers: Type.Array(
    Type.Object({
      name: Name,
      condition: Type.Object({ column: Name, operator: Type.Union(ACTIVATOR_OPERATORS.map((o) => Type.Literal(o))), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) }),
      action: Type.Object({ kind: Type.Union([Type.Literal('email'), Type.Literal('teams')]), receiver: Name, message: Type.Optional(Type.String()) }),
    }),
    { minItems: 1 },
  ),
});

const Activity = Type.Object({ name: Name, type: Name, dependsOn: Type.Optional(Type.Array(Type.Unknown())), typeProperties: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: true });
/** Data pipeline content: the variant and its pipeline-content activities. */
export const PipelineContent = Type.Object({
  variant: Type.Union([Type.Literal('notebook'), Type.Literal('copy')]),
  notebook: Type.Optional(Key),
  lakehouse: Type.Optional(Key),
  description: Type.Optional(Type.String()),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  activities: Type.Array(Activity, { minItems: 1 }),
});

/** Eventstream content: the source, the event schema and where events land. */
export const EventstreamContent = Type.Object({
  source: Type.Object({ type: Type.Union([Type.Literal('CustomEndpoint'), Type.Literal('SampleData')]) }, { additionalProperties: true }),
  eventSchema: Type.Optional(Type.Array(Column)),
  destination: Type.Union([
    Type.Object({ database: Key, table: Name }),
    Type.Object({ lakehouse: Key, table: Name }),
    Type.Object({ customEndpoint: Name }),
  ]),
  retentionDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })),
});

/** Warehouse content: DDL, keyed seeds, dbt sources and models. */
export const WarehouseContent = Type.Object({
  ddl: Type.Array(Name, { minItems: 1 }),
  seeds: Type.Optional(Type.Array(Type.Object({ table: Name, key: Type.Array(Name, { minItems: 1 }), rows: Type.Array(Row, { minItems: 1 }) }))),
  modelSchema: Type.Optional(Name),
  models: Type.Optional(Type.Array(Type.Object({ name: Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), sql: Name }))),
  sources: Type.Optional(Type.Record(Type.String(), Type.Object({ schema: Name, lakehouse: Type.Optional(Key), tables: Type.Array(Name, { minItems: 1 }) }))),
});

/** Report content as stored in JSON: the RDL file and the semantic model it reads. */
export const ReportContent = Type.Object({ rdlFile: Type.String({ pattern: '\\.rdl$' }), semanticModel: Type.Optional(Key) });

/** KQL dashboard content: tiles of queries over a KQL database of the app. */
export const KqlDashboardContent = Type.Object({
  database: Key,
  tiles: Type.Array(Type.Object({ title: Name, query: Name, visual: Type.Optional(Type.String()) }), { minItems: 1 }),
  autoRefresh: Type.Optional(Type.String()),
});

/** Source types a mirroring.json may name. */
export const MIRROR_SOURCE_TYPES = ['Snowflake', 'AzureSqlDatabase', 'AzureSqlMI', 'AzurePostgreSql', 'CosmosDb', 'SqlServer2025', 'MSSQL', 'GenericMirror'] as const;
/** Mirrored database content: the connection to create and mirroring.json. */
export const MirroredDatabaseContent = Type.Object({
  connection: Type.Optional(Type.Object({ name: Name, server: Name, database: Name, authentication: Name })),
  mirroring: Type.Object({
    properties: Type.Object({
      source: Type.Object({ type: Type.Union(MIRROR_SOURCE_TYPES.map((t) => Type.Literal(t))), typeProperties: Type.Object({ connection: Name, database: Name }) }),
      target: Type.Object({ type: Type.Literal('MountedRelationalDatabase'), typeProperties: Type.Object({ defaultSchema: Name, format: Type.Literal('Delta') }) }),
      mountedTables: Type.Optional(Type.Array(Type.Object({ source: Type.Object({ typeProperties: Type.Object({ schemaName: Name, tableName: Name }) }) }))),
    }),
  }),
});

/** Content of a stored-only item: any JSON object. */
export const StoredContent = Type.Record(Type.String(), Type.Unknown());

/** The content schema of each item type; types without an entry are stored only (any JSON object). */
export const CONTENT_SCHEMAS: Readonly<Record<string, TSchema>> = {
  notebook: NotebookContent,
  lakehouse: LakehouseContent,
  'kql-database': KqlDatabaseContent,
  eventhouse: KqlDatabaseContent,
  'kql-queryset': KqlQuerysetContent,
  'search-index': SearchIndexContent,
  'semantic-model': SemanticModelContent,
  activator: ActivatorContent,
  'data-pipeline': PipelineContent,
  eventstream: EventstreamContent,
  warehouse: WarehouseContent,
  report: ReportContent,
  'kql-dashboard': KqlDashboardContent,
  'mirrored-database': MirroredDatabaseContent,
};

export type NotebookContent = Static<typeof NotebookContent>;
export type LakehouseContent = Static<typeof LakehouseContent>;
export type KqlDatabaseContent = Static<typeof KqlDatabaseContent>;
export type KqlQuerysetContent = Static<typeof KqlQuerysetContent>;
export type SearchIndexContent = { index: { name: string; fields: SearchField[]; [k: string]: unknown }; documents: Record<string, unknown>[] };
/** A search index field (other attributes pass through). */
export type SearchField = { name: string; type: string; key?: boolean; dimensions?: number; vectorSearchProfile?: string; [k: string]: unknown };
export type SemanticModelContent = Static<typeof SemanticModelContent>;
export type ActivatorContent = Static<typeof ActivatorContent>;
export type PipelineContent = Static<typeof PipelineContent>;
export type EventstreamContent = Static<typeof EventstreamContent>;
export type WarehouseContent = Static<typeof WarehouseContent>;
/** Report content as loaded: the JSON plus the RDL text read from `rdlFile`. */
export type ReportContent = Static<typeof ReportContent> & { rdl: string };
export type KqlDashboardContent = Static<typeof KqlDashboardContent>;
export type MirroredDatabaseContent = Static<typeof MirroredDatabaseContent>;
