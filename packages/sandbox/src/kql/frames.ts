import { randomUUID } from 'node:crypto';
import type { CommandResult } from './commands.js';
import type { ResultTable } from './query.js';
import { DOTNET_TYPE, toWire, type KqlType } from './values.js';

const wireRows = (t: ResultTable) => t.rows.map((r) => t.columns.map((c) => toWire(r[c.name], c.type)));
const v1Columns = (columns: Array<{ name: string; type: KqlType }>) =>
  columns.map((c) => ({ ColumnName: c.name, DataType: DOTNET_TYPE[c.type], ColumnType: c.type }));

/** A management command's V1 response: one table, Table_0. */
export function v1Command(result: CommandResult) {
  return { Tables: [{ TableName: 'Table_0', Columns: v1Columns(result.columns), Rows: result.rows }] };
}

/** A query's V1 response: the result, extended properties, query status, and the table of contents last. */
export function v1Query(result: ResultTable, activityId: string, clientRequestId: string) {
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  return {
    Tables: [
      { TableName: 'Table_0', Columns: v1Columns(result.columns), Rows: wireRows(result) },
      {
        TableName: 'Table_1',
        Columns: [{ ColumnName: 'Value', DataType: 'String', ColumnType: 'string' }],
        Rows: [[JSON.stringify({ Visualization: null, Title: null })]],
      },
      {
        TableName: 'Table_2',
        Columns: [
          'Timestamp:DateTime:datetime',
          'Severity:Int32:int',
          'SeverityName:String:string',
          'StatusCode:Int32:int',
          'StatusDescription:String:string',
          'Count:Int32:int',
          'RequestId:Guid:guid',
          'ActivityId:Guid:guid',
          'SubActivityId:Guid:guid',
          'ClientActivityId:String:string',
        ].map((s) => {
          const [ColumnName, DataType, ColumnType] = s.split(':');
          return { ColumnName, DataType, ColumnType };
        }),
        Rows: [
          [new Date().toISOString(), 4, 'Info', 0, 'Query completed successfully', 1, activityId, activityId, activityId, clientRequestId],
        ],
      },
      {
        TableName: 'Table_3',
        Columns: [
          { ColumnName: 'Ordinal', DataType: 'Int64', ColumnType: 'long' },
          { ColumnName: 'Kind', DataType: 'String', ColumnType: 'string' },
          { ColumnName: 'Name', DataType: 'String', ColumnType: 'string' },
          { ColumnName: 'Id', DataType: 'String', ColumnType: 'string' },
          { ColumnName: 'PrettyName', DataType: 'String', ColumnType: 'string' },
        ],
        Rows: [
          [0, 'QueryResult', 'PrimaryResult', ids[0], ''],
          [1, 'QueryProperties', '@ExtendedProperties', ids[1], ''],
          [2, 'QueryStatus', 'QueryStatus', ids[2], ''],
        ],
      },
    ],
  };
}

/** A query's V2 response: DataSetHeader, QueryProperties, PrimaryResult, QueryCompletionInformation, DataSetCompletion. */
export function v2Query(result: ResultTable, activityId: string, clientRequestId: string) {
  return [
    { FrameType: 'DataSetHeader', IsProgressive: false, Version: 'v2.0', IsFragmented: false, ErrorReportingPlacement: 'InData' },
    {
      FrameType: 'DataTable',
      TableId: 0,
      TableKind: 'QueryProperties',
      TableName: '@ExtendedProperties',
      Columns: [
        { ColumnName: 'TableId', ColumnType: 'int' },
        { ColumnName: 'Key', ColumnType: 'string' },
        { ColumnName: 'Value', ColumnType: 'dynamic' },
      ],
      Rows: [[1, 'Visualization', { Visualization: null, Title: null, XColumn: null, Series: null, YColumns: null }]],
    },
    {
      FrameType: 'DataTable',
      TableId: 1,
      TableKind: 'PrimaryResult',
      TableName: 'PrimaryResult',
      Columns: result.columns.map((c) => ({ ColumnName: c.name, ColumnType: c.type })),
      Rows: wireRows(result),
    },
    {
      FrameType: 'DataTable',
      TableId: 2,
      TableKind: 'QueryCompletionInformation',
      TableName: 'QueryCompletionInformation',
      Columns: [
        'Timestamp:datetime',
        'ClientRequestId:string',
        'ActivityId:guid',
        'SubActivityId:guid',
        'ParentActivityId:guid',
        'Level:int',
        'LevelName:string',
        'StatusCode:int',
        'StatusCodeName:string',
        'EventType:int',
        'EventTypeName:string',
        'Payload:string',
      ].map((s) => {
        const [ColumnName, ColumnType] = s.split(':');
        return { ColumnName, ColumnType };
      }),
      Rows: [
        [
          new Date().toISOString(),
          clientRequestId,
          activityId,
          activityId,
          activityId,
          4,
          'Info',
          0,
          'S_OK (0)',
          4,
          'QueryInfo',
          JSON.stringify({ Count: 1, Text: 'Query completed successfully' }),
        ],
      ],
    },
    { FrameType: 'DataSetCompletion', HasErrors: false, Cancelled: false },
  ];
}
