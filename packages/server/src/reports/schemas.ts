import { Type } from '@sinclair/typebox';
import { describedPattern, Id, VISIBLE_CHARACTER } from '../http/schemas.js';
import { Gate } from '../install/schemas.js';
import { EXPORT_FORMATS } from './report-service.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const PaginatedReportSchema = Type.Object(
  {
    id: Type.String({ description: 'the report id in the reporting service' }),
    workspaceId: Type.String({ description: 'the service workspace' }),
    groupId: Type.String({ description: 'the reporting-service workspace (group) the service workspace is bound to' }),
    name: Type.String(),
    reportType: Type.String({ description: 'PaginatedReport' }),
    format: Nullable(Type.String({ description: 'RDL for paginated reports, when the reporting service says' })),
    datasetId: Nullable(
      Type.String({
        description:
          'the source semantic model: the reporting service’s own, else the model the report’s data sources name (sobe_wowvirtualserver-<id>); null for a report over other sources',
      }),
    ),
    description: Type.String(),
    modifiedDateTime: Nullable(
      Type.String({ description: 'last change, from the reporting service’s admin API; null when metadataGate says why' }),
    ),
    modifiedBy: Nullable(Type.String({ description: 'who changed it last, from the admin API; null when metadataGate says why' })),
    metadataGate: Type.Optional(
      Type.Ref(Gate, {
        description: 'present when modifiedDateTime and modifiedBy could not be read: the tenant setting the admin API needs',
      }),
    ),
    webUrl: Type.String({ description: 'the report in the reporting app (rdlreports viewer)' }),
    embedUrl: Nullable(Type.String({ description: 'rdlEmbed address for an embed token' })),
  },
  {
    $id: 'PaginatedReport',
    examples: [
      {
        id: '5b218778-e7a5-4d73-8187-f10824047715',
        workspaceId: 'c1d0c8a2-8d5e-4a4c-9b9a-0f7a0f2a2d11',
        groupId: 'f089354e-8366-4e18-aea3-4cb4a3a50b48',
        name: 'Floor revenue',
        reportType: 'PaginatedReport',
        format: 'RDL',
        datasetId: '8a0d5f8e-2f7b-4b8e-9d51-3c8e1b0f6a21',
        description: '',
        modifiedDateTime: '2026-11-23T09:58:12Z',
        modifiedBy: 'ana.lopez@contoso.com',
        webUrl: 'https://app.powerbi.com/groups/f089354e-8366-4e18-aea3-4cb4a3a50b48/rdlreports/5b218778-e7a5-4d73-8187-f10824047715',
        embedUrl:
          'https://app.powerbi.com/rdlEmbed?reportId=5b218778-e7a5-4d73-8187-f10824047715&groupId=f089354e-8366-4e18-aea3-4cb4a3a50b48',
      },
    ],
  },
);

export const ReportParameterSchema = Type.Object(
  {
    name: Type.String(),
    dataType: Type.String({ description: 'Boolean, DateTime, Integer, Float or String' }),
    prompt: Type.String(),
    nullable: Type.Boolean(),
    allowBlank: Type.Boolean(),
    multiValue: Type.Boolean(),
    hidden: Type.Boolean(),
    defaultValues: Type.Array(Type.String()),
    validValues: Type.Array(Type.Object({ value: Type.String(), label: Type.String() })),
    validValuesDataSet: Type.Optional(Type.String({ description: 'valid values come from this data set at render time' })),
  },
  { $id: 'ReportParameter' },
);

export const ReportExportSchema = Type.Object(
  {
    id: Type.String({ description: 'opaque export id (not a GUID)' }),
    reportId: Type.String(),
    reportName: Nullable(Type.String()),
    status: Type.String({ description: 'NotStarted, Running, Succeeded, Failed or Undefined' }),
    percentComplete: Type.Number({ minimum: 0, maximum: 100 }),
    createdDateTime: Nullable(Type.String()),
    lastActionDateTime: Nullable(Type.String()),
    fileExtension: Nullable(Type.String({ description: 'e.g. .pdf' })),
    expirationTime: Nullable(Type.String({ description: 'the file can be fetched until then' })),
  },
  {
    $id: 'ReportExport',
    examples: [
      {
        id: 'Mi9C5419iUzI1NiIsInR5cCI6IkpXVCJ9PS4=',
        reportId: '5b218778-e7a5-4d73-8187-f10824047715',
        reportName: 'Floor revenue',
        status: 'Running',
        percentComplete: 40,
        createdDateTime: '2026-11-23T10:00:00Z',
        lastActionDateTime: '2026-11-23T10:00:02Z',
        fileExtension: '.pdf',
        expirationTime: '2026-11-24T10:00:00Z',
      },
    ],
  },
);

export const DatasourceSchema = Type.Object(
  {
    name: Nullable(Type.String({ description: 'the RDL DataSource name, when the reporting service says' })),
    datasourceType: Nullable(Type.String()),
    connectionDetails: Type.Object({ server: Nullable(Type.String()), database: Nullable(Type.String()) }),
    datasourceId: Nullable(Type.String()),
    gatewayId: Nullable(Type.String()),
  },
  { $id: 'ReportDatasource' },
);

export const WorkspaceQuery = Type.Object(
  { workspaceId: Id('the service workspace whose bound reporting workspace holds the reports') },
  { additionalProperties: false },
);
export const ReportParams = Type.Object({ reportId: Id('report id') });
export const ExportParams = Type.Object({
  reportId: Id('report id'),
  exportId: Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9+/=._-]+$', description: 'the export id (URL-encoded)' }),
});

/** The longest RDL the service takes, in characters. */
const DEFINITION_MAX_LENGTH = 4_000_000;
export const Definition = Type.String({
  minLength: 1,
  maxLength: DEFINITION_MAX_LENGTH,
  description: 'the RDL (report definition XML, 2016/01 namespace)',
});
/**
 * The body limit of the routes that take a Definition (the service-wide SVC_BODY_LIMIT_BYTES is far smaller): a
 * definition of the longest length in UTF-8 bytes as JSON carries it, at the longest JSON.stringify writes a character
 * (\u00XX, six bytes), plus 64 KiB for the name and the JSON around it.
 */
export const DEFINITION_BODY_LIMIT = DEFINITION_MAX_LENGTH * 6 + 64 * 1024;
export const ReportName = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'report name (no \\ / : * ? " < > |), at least one visible character',
  pattern: describedPattern(
    `^(?=[\\s\\S]*${VISIBLE_CHARACTER})[^\\\\/:*?"<>|]+$`,
    'must contain a visible character and none of \\ / : * ? " < > |',
  ),
});

export const ExportRequest = Type.Object(
  {
    format: Type.Union(
      Object.keys(EXPORT_FORMATS).map((f) => Type.Literal(f)),
      { description: 'WORD and EXCEL travel as DOCX and XLSX' },
    ),
    parameterValues: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 200 }), value: Type.Union([Type.String({ maxLength: 4000 }), Type.Null()]) },
          { additionalProperties: false },
        ),
        { maxItems: 500, description: 'a multi-value parameter repeats its name once per value' },
      ),
    ),
    formatSettings: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z]{1,64}$' }), Type.String({ maxLength: 200 }), {
        description: 'device-info settings such as StartPage, EndPage, OutputFormat',
      }),
    ),
    effectiveIdentity: Type.Optional(
      Type.Object(
        {
          username: Type.String({
            minLength: 1,
            maxLength: 256,
            pattern: describedPattern('^\\S+$', 'must have no spaces'),
            description: 'the user principal name the export runs as; becomes User!UserID',
          }),
          roles: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 50, pattern: describedPattern('^[^,]+$', 'must not contain a comma') }), {
              maxItems: 50,
              description: 'row-level roles of the semantic model; default every role the model declares',
            }),
          ),
        },
        {
          additionalProperties: false,
          description: 'tenant admins only (scope admin; anyone else 403): export as this identity instead of your own user principal name',
        },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ format: 'PDF', parameterValues: [{ name: 'Floor', value: 'North' }] }] },
);

export const DatasourceUpdate = Type.Object(
  {
    updateDetails: Type.Array(
      Type.Object(
        {
          datasourceName: Type.String({ minLength: 1, maxLength: 200 }),
          connectionDetails: Type.Object(
            {
              server: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
              database: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        updateDetails: [
          {
            datasourceName: 'CasinoLakehouse',
            connectionDetails: { server: 'sql.example.datawarehouse.fabric.microsoft.com', database: 'casino' },
          },
        ],
      },
    ],
  },
);

export const REPORT_SCHEMAS = [PaginatedReportSchema, ReportParameterSchema, ReportExportSchema, DatasourceSchema];

export const PreviewRequestSchema = Type.Object(
  {
    definition: Definition,
    format: Type.Union([Type.Literal('PDF'), Type.Literal('IMAGE')], {
      description: 'PDF (every page), or IMAGE (PNG of the first page unless formatSettings say otherwise)',
    }),
    parameterValues: ExportRequest.properties.parameterValues,
    formatSettings: ExportRequest.properties.formatSettings,
  },
  { additionalProperties: false, examples: [{ definition: '<?xml version="1.0"?><Report …/>', format: 'IMAGE' }] },
);
