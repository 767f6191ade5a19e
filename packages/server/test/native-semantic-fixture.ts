import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SemanticModelContent } from '../src/item-types/semantic-model.js';

// A small catalog for the semantic model on the reporting service (issue 20): a warehouse with seeded tables, a semantic
// model over them, a paginated report over the model (a DAX FILTER the sandbox evaluates), and a KQL database with a KQL
// dashboard (stored-only where the data platform is absent).

export const APP = 'app-push-model';
export const MODEL_NAME = 'Floor Push Model';

const RDL = `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition" xmlns:rd="http://schemas.microsoft.com/SQLServer/reporting/reportdesigner">
  <Description>Machines of one zone.</Description>
  <DataSources>
    <DataSource Name="FloorModel">
      <ConnectionProperties>
        <DataProvider>PBIDATASET</DataProvider>
        <ConnectString>Data Source=pbiazure://\${bi.apiHost}/;Initial Catalog=sobe_wowvirtualserver-\${item:floor-model.id};Integrated Security=ClaimsToken</ConnectString>
      </ConnectionProperties>
    </DataSource>
  </DataSources>
  <DataSets>
    <DataSet Name="Machines">
      <Query>
        <DataSourceName>FloorModel</DataSourceName>
        <QueryParameters><QueryParameter Name="Zone"><Value>=Parameters!Zone.Value</Value></QueryParameter></QueryParameters>
        <CommandText>EVALUATE FILTER('Machines', 'Machines'[Zone] = @Zone)</CommandText>
      </Query>
      <Fields>
        <Field Name="MachineId"><DataField>Machines[Machine Id]</DataField></Field>
        <Field Name="Zone"><DataField>Machines[Zone]</DataField></Field>
        <Field Name="CoinIn"><DataField>Machines[Coin In]</DataField></Field>
      </Fields>
    </DataSet>
  </DataSets>
  <ReportSections>
    <ReportSection>
      <Body>
        <ReportItems>
          <Tablix Name="MachineTable">
            <TablixBody>
              <TablixColumns><TablixColumn><Width>2in</Width></TablixColumn><TablixColumn><Width>2in</Width></TablixColumn></TablixColumns>
              <TablixRows>
                <TablixRow><Height>0.25in</Height><TablixCells>
                  <TablixCell><CellContents><Textbox Name="M"><Paragraphs><Paragraph><TextRuns><TextRun><Value>=Fields!MachineId.Value</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></CellContents></TablixCell>
                  <TablixCell><CellContents><Textbox Name="C"><Paragraphs><Paragraph><TextRuns><TextRun><Value>=Fields!CoinIn.Value</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></CellContents></TablixCell>
                </TablixCells></TablixRow>
              </TablixRows>
            </TablixBody>
            <TablixColumnHierarchy><TablixMembers><TablixMember /><TablixMember /></TablixMembers></TablixColumnHierarchy>
            <TablixRowHierarchy><TablixMembers><TablixMember><Group Name="Details" /></TablixMember></TablixMembers></TablixRowHierarchy>
            <DataSetName>Machines</DataSetName>
          </Tablix>
        </ReportItems>
        <Height>2in</Height>
      </Body>
      <Width>6in</Width>
      <Page><PageHeight>11in</PageHeight><PageWidth>8.5in</PageWidth></Page>
    </ReportSection>
  </ReportSections>
  <ReportParameters>
    <ReportParameter Name="Zone"><DataType>String</DataType><DefaultValue><Values><Value>North</Value></Values></DefaultValue><Prompt>Zone</Prompt></ReportParameter>
  </ReportParameters>
</Report>
`;

const APP_JSON = {
  id: APP,
  displayName: 'Push Model',
  summary: 'A warehouse, a semantic model over it, a paginated report and a KQL dashboard.',
  description: 'Test app of the semantic model on the reporting service where the data platform is absent.',
  version: '1.0.0',
  items: [
    {
      key: 'floor-warehouse',
      itemType: 'warehouse',
      displayName: 'FloorWarehouse',
      description: 'Machines.',
      content: 'items/floor-warehouse.json',
    },
    {
      key: 'floor-model',
      itemType: 'semantic-model',
      displayName: MODEL_NAME,
      description: 'Machines and zones.',
      content: 'items/floor-model.json',
    },
    {
      key: 'floor-report',
      itemType: 'report',
      displayName: 'Machines By Zone',
      description: 'Machines of a zone.',
      content: 'items/floor-report.json',
    },
    {
      key: 'floor-kql',
      itemType: 'kql-database',
      displayName: 'FloorTelemetry',
      description: 'Meter events.',
      content: 'items/floor-kql.json',
    },
    {
      key: 'floor-kql-dashboard',
      itemType: 'kql-dashboard',
      displayName: 'Live Meters',
      description: 'Meter tiles.',
      content: 'items/floor-kql-dashboard.json',
    },
    {
      key: 'zone-model',
      itemType: 'semantic-model',
      displayName: 'Zone Push Model',
      description: 'Zones.',
      content: 'items/zone-model.json',
    },
    {
      key: 'floor-dashboard',
      itemType: 'dashboard',
      displayName: 'Floor Tiles',
      description: 'Model tiles.',
      content: 'items/floor-dashboard.json',
    },
    {
      key: 'meter-kql-dashboard',
      itemType: 'kql-dashboard',
      displayName: 'Meter Board',
      description: 'More meter tiles.',
      content: 'items/meter-kql-dashboard.json',
    },
  ],
  edges: [
    { from: 'zone-model', to: 'floor-warehouse', kind: 'reads-from' },
    { from: 'floor-dashboard', to: 'floor-model', kind: 'visualizes' },
    { from: 'meter-kql-dashboard', to: 'floor-kql', kind: 'visualizes' },
    { from: 'floor-model', to: 'floor-warehouse', kind: 'reads-from' },
    { from: 'floor-report', to: 'floor-model', kind: 'visualizes' },
    { from: 'floor-kql-dashboard', to: 'floor-kql', kind: 'visualizes' },
  ],
};

export const MACHINE_ROWS = [
  ['M-101', 'North', 1250.5, 1],
  ['M-102', 'North', 310, 0],
  ['M-201', 'South', 990.25, 1],
];

const ITEMS: Record<string, unknown> = {
  'floor-warehouse': {
    ddl: [
      'CREATE SCHEMA floor',
      'CREATE TABLE floor.machines (machine_id varchar(20) NOT NULL, zone varchar(20) NOT NULL, coin_in decimal(12,2) NULL, active bit NULL)',
      'CREATE TABLE floor.zones (zone varchar(20) NOT NULL, manager varchar(50) NULL)',
    ],
    seeds: [
      { table: 'floor.machines', key: ['machine_id'], rows: MACHINE_ROWS },
      {
        table: 'floor.zones',
        key: ['zone'],
        rows: [
          ['North', 'Ana'],
          ['South', 'Bo'],
        ],
      },
    ],
  },
  'floor-model': {
    source: 'floor-warehouse',
    model: {
      compatibilityLevel: 1604,
      model: {
        tables: [
          {
            name: 'Machines',
            columns: [
              { name: 'Machine Id', dataType: 'string', sourceColumn: 'machine_id' },
              { name: 'Zone', dataType: 'string', sourceColumn: 'zone' },
              { name: 'Coin In', dataType: 'decimal', sourceColumn: 'coin_in' },
              { name: 'Active', dataType: 'boolean', sourceColumn: 'active' },
            ],
            partitions: [
              { name: 'Machines', mode: 'directQuery', source: { type: 'entity', entityName: 'machines', schemaName: 'floor' } },
            ],
            measures: [{ name: 'Total Coin In', expression: "SUM('Machines'[Coin In])" }],
          },
          {
            name: 'Zones',
            columns: [
              { name: 'Zone', dataType: 'string', sourceColumn: 'zone' },
              { name: 'Manager', dataType: 'string', sourceColumn: 'manager' },
            ],
            partitions: [{ name: 'Zones', mode: 'directQuery', source: { type: 'entity', entityName: 'zones', schemaName: 'floor' } }],
          },
        ],
        relationships: [{ name: 'machine-zone', fromTable: 'Machines', fromColumn: 'Zone', toTable: 'Zones', toColumn: 'Zone' }],
      },
    },
  },
  'floor-report': { rdlFile: 'reports/machines-by-zone.rdl', semanticModel: 'floor-model' },
  'floor-kql': {
    database: 'FloorTelemetry',
    tables: [
      {
        name: 'Meters',
        columns: [
          { name: 'MachineId', type: 'string' },
          { name: 'CoinIn', type: 'real' },
        ],
      },
    ],
  },
  'zone-model': {
    source: 'floor-warehouse',
    model: {
      compatibilityLevel: 1604,
      model: {
        tables: [
          {
            name: 'Zones',
            columns: [{ name: 'Zone', dataType: 'string', sourceColumn: 'zone' }],
            partitions: [{ name: 'Zones', source: { type: 'entity', entityName: 'zones', schemaName: 'floor' } }],
          },
        ],
      },
    },
  },
  'floor-dashboard': { tiles: [{ title: 'Coin in', visual: 'card', source: 'floor-model', measure: 'Total Coin In' }] },
  'meter-kql-dashboard': { database: 'floor-kql', tiles: [{ title: 'Meters', query: 'Meters | count' }] },
  'floor-kql-dashboard': { database: 'floor-kql', tiles: [{ title: 'Coin in', query: 'Meters | summarize sum(CoinIn) by MachineId' }] },
};

/** The semantic model's content. */
export const MODEL_CONTENT = ITEMS['floor-model'] as SemanticModelContent;

/** Writes the catalog (one app folder) to a new temporary folder; answers its path (SVC_CATALOG_DIR). */
export function writeCatalog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-push-catalog-'));
  const app = path.join(dir, APP);
  fs.mkdirSync(path.join(app, 'items'), { recursive: true });
  fs.mkdirSync(path.join(app, 'reports'));
  fs.writeFileSync(path.join(app, 'app.json'), JSON.stringify(APP_JSON, null, 2));
  for (const [key, content] of Object.entries(ITEMS))
    fs.writeFileSync(path.join(app, 'items', `${key}.json`), JSON.stringify(content, null, 2));
  fs.writeFileSync(path.join(app, 'reports', 'machines-by-zone.rdl'), RDL);
  return dir;
}
