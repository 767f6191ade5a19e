/** Report definitions seeded in the platform workspace: real RDL 2016/01 with data sources, data sets, parameters, a table and text. */

const NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';
const RD = 'http://schemas.microsoft.com/SQLServer/reporting/reportdesigner';

interface Column {
  header: string;
  field: string;
}

function textbox(name: string, value: string, extra = ''): string {
  return `<Textbox Name="${name}"><CanGrow>true</CanGrow><KeepTogether>true</KeepTogether><Paragraphs><Paragraph><TextRuns><TextRun><Value>${value}</Value><Style>${extra}</Style></TextRun></TextRuns><Style /></Paragraph></Paragraphs><Style><PaddingLeft>2pt</PaddingLeft></Style></Textbox>`;
}

function tablix(name: string, dataSet: string, columns: Column[]): string {
  const cols = columns.map(() => '<TablixColumn><Width>1.5in</Width></TablixColumn>').join('');
  const cells = (row: (c: Column, i: number) => string) =>
    columns.map((c, i) => `<TablixCell><CellContents>${row(c, i)}</CellContents></TablixCell>`).join('');
  const members = columns.map(() => '<TablixMember />').join('');
  return `<Tablix Name="${name}">
          <TablixBody>
            <TablixColumns>${cols}</TablixColumns>
            <TablixRows>
              <TablixRow><Height>0.25in</Height><TablixCells>${cells((c, i) => textbox(`${name}_H${i}`, c.header, '<FontWeight>Bold</FontWeight>'))}</TablixCells></TablixRow>
              <TablixRow><Height>0.25in</Height><TablixCells>${cells((c) => textbox(`${name}_${c.field}`, `=Fields!${c.field}.Value`))}</TablixCells></TablixRow>
            </TablixRows>
          </TablixBody>
          <TablixColumnHierarchy><TablixMembers>${members}</TablixMembers></TablixColumnHierarchy>
          <TablixRowHierarchy><TablixMembers><TablixMember><KeepWithGroup>After</KeepWithGroup></TablixMember><TablixMember><Group Name="Details" /></TablixMember></TablixMembers></TablixRowHierarchy>
          <DataSetName>${dataSet}</DataSetName>
          <Top>0.6in</Top><Height>0.5in</Height><Width>${(columns.length * 1.5).toFixed(1)}in</Width>
        </Tablix>`;
}

function report(opts: {
  description: string;
  dataSources: string;
  dataSets: string;
  parameters: string;
  title: string;
  body: string;
  reportId: string;
}): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report MustUnderstand="df" xmlns="${NS}" xmlns:rd="${RD}" xmlns:df="${NS}/defaultfontfamily">
  <df:DefaultFontFamily>Segoe UI</df:DefaultFontFamily>
  <Description>${opts.description}</Description>
  <AutoRefresh>0</AutoRefresh>
  <DataSources>${opts.dataSources}</DataSources>
  <DataSets>${opts.dataSets}</DataSets>
  <ReportSections>
    <ReportSection>
      <Body>
        <ReportItems>
          ${textbox('Title', opts.title, '<FontSize>16pt</FontSize>')}
          ${opts.body}
        </ReportItems>
        <Height>2in</Height>
        <Style />
      </Body>
      <Width>7.5in</Width>
      <Page>
        <PageHeader>
          <Height>0.4in</Height><PrintOnFirstPage>true</PrintOnFirstPage><PrintOnLastPage>true</PrintOnLastPage>
          <ReportItems>${textbox('HeaderName', '=Globals!ReportName')}</ReportItems>
        </PageHeader>
        <PageFooter>
          <Height>0.4in</Height><PrintOnFirstPage>true</PrintOnFirstPage><PrintOnLastPage>true</PrintOnLastPage>
          <ReportItems>${textbox('FooterPage', '="Page " &amp; Globals!PageNumber &amp; " of " &amp; Globals!TotalPages &amp; " - run " &amp; Globals!ExecutionTime &amp; " by " &amp; User!UserID')}</ReportItems>
        </PageFooter>
        <PageHeight>11in</PageHeight>
        <PageWidth>8.5in</PageWidth>
        <LeftMargin>0.5in</LeftMargin><RightMargin>0.5in</RightMargin><TopMargin>0.5in</TopMargin><BottomMargin>0.5in</BottomMargin>
        <Style />
      </Page>
    </ReportSection>
  </ReportSections>
  <ReportParameters>${opts.parameters}</ReportParameters>
  <Language>en-US</Language>
  <rd:ReportUnitType>Inch</rd:ReportUnitType>
  <rd:ReportID>${opts.reportId}</rd:ReportID>
</Report>
`;
}

const SALES_ROWS: Array<[string, string, string, string]> = [
  ['West', 'Seattle', '2025-01-15', '1250.50'],
  ['West', 'Portland', '2025-01-18', '830.00'],
  ['East', 'Boston', '2025-01-20', '2210.75'],
  ['East', 'New York', '2025-02-02', '3105.20'],
  ['Central', 'Chicago', '2025-02-11', '1490.00'],
  ['Central', 'Denver', '2025-02-27', '975.40'],
  ['West', 'San Diego', '2025-03-04', '1630.10'],
  ['East', 'Atlanta', '2025-03-09', '1120.00'],
];

/** Sales by Region: inline XML data (rows travel in the definition), a multi-value Region filter and a date parameter. */
export function salesByRegionRdl(reportId: string): string {
  const rows = SALES_ROWS.map(([r, c, d, a]) => `&lt;Sale Region="${r}" City="${c}" OrderDate="${d}" Amount="${a}" /&gt;`).join('');
  return report({
    reportId,
    description: 'Sales by region and city for a date range.',
    title: '="Sales by Region: " &amp; Join(Parameters!Region.Value, ", ")',
    dataSources: `<DataSource Name="SalesData"><ConnectionProperties><DataProvider>XML</DataProvider><ConnectString /></ConnectionProperties><rd:DataSourceID>${reportId.slice(0, 8)}-0001-4000-8000-000000000001</rd:DataSourceID></DataSource>`,
    dataSets: `<DataSet Name="Sales">
      <Query><DataSourceName>SalesData</DataSourceName><CommandText>&lt;Query&gt;&lt;XmlData&gt;&lt;Sales&gt;${rows}&lt;/Sales&gt;&lt;/XmlData&gt;&lt;ElementPath&gt;Sales/Sale&lt;/ElementPath&gt;&lt;/Query&gt;</CommandText></Query>
      <Fields>
        <Field Name="Region"><DataField>Region</DataField><rd:TypeName>System.String</rd:TypeName></Field>
        <Field Name="City"><DataField>City</DataField><rd:TypeName>System.String</rd:TypeName></Field>
        <Field Name="OrderDate"><DataField>OrderDate</DataField><rd:TypeName>System.DateTime</rd:TypeName></Field>
        <Field Name="Amount"><DataField>Amount</DataField><rd:TypeName>System.Decimal</rd:TypeName></Field>
      </Fields>
      <Filters><Filter><FilterExpression>=Fields!Region.Value</FilterExpression><Operator>In</Operator><FilterValues><FilterValue>=Parameters!Region.Value</FilterValue></FilterValues></Filter></Filters>
    </DataSet>`,
    parameters: `<ReportParameter Name="Region">
      <DataType>String</DataType><MultiValue>true</MultiValue><Prompt>Region</Prompt>
      <DefaultValue><Values><Value>West</Value><Value>East</Value></Values></DefaultValue>
      <ValidValues><ParameterValues>
        <ParameterValue><Value>West</Value><Label>West</Label></ParameterValue>
        <ParameterValue><Value>East</Value><Label>East</Label></ParameterValue>
        <ParameterValue><Value>Central</Value><Label>Central</Label></ParameterValue>
      </ParameterValues></ValidValues>
    </ReportParameter>
    <ReportParameter Name="StartDate"><DataType>DateTime</DataType><Nullable>true</Nullable><Prompt>Start date</Prompt><DefaultValue><Values><Value>2025-01-01</Value></Values></DefaultValue></ReportParameter>`,
    body: `${textbox('Subtitle', '="From " &amp; Format(Parameters!StartDate.Value, "yyyy-MM-dd") &amp; " for " &amp; User!UserID')}
          ${tablix('SalesTable', 'Sales', [
            { header: 'Region', field: 'Region' },
            { header: 'City', field: 'City' },
            { header: 'Order date', field: 'OrderDate' },
            { header: 'Amount', field: 'Amount' },
          ])}`,
  });
}

/** Inventory Snapshot: a SQL source over the warehouse, an integer parameter, a boolean parameter and a table. */
export function inventoryRdl(reportId: string, server: string): string {
  return report({
    reportId,
    description: 'Stock on hand per warehouse and product.',
    title: '="Inventory for warehouse " &amp; Parameters!WarehouseId.Value',
    dataSources: `<DataSource Name="Warehouse"><ConnectionProperties><DataProvider>SQL</DataProvider><ConnectString>Data Source=${server};Initial Catalog=analytics</ConnectString></ConnectionProperties></DataSource>`,
    dataSets: `<DataSet Name="Stock">
      <Query><DataSourceName>Warehouse</DataSourceName><QueryParameters><QueryParameter Name="@WarehouseId"><Value>=Parameters!WarehouseId.Value</Value></QueryParameter></QueryParameters><CommandText>SELECT ProductName, Sku, OnHand, ReorderLevel FROM dbo.Stock WHERE WarehouseId = @WarehouseId</CommandText></Query>
      <Fields>
        <Field Name="ProductName"><DataField>ProductName</DataField></Field>
        <Field Name="Sku"><DataField>Sku</DataField></Field>
        <Field Name="OnHand"><DataField>OnHand</DataField></Field>
        <Field Name="ReorderLevel"><DataField>ReorderLevel</DataField></Field>
      </Fields>
    </DataSet>`,
    parameters: `<ReportParameter Name="WarehouseId"><DataType>Integer</DataType><Prompt>Warehouse</Prompt><DefaultValue><Values><Value>1</Value></Values></DefaultValue></ReportParameter>
    <ReportParameter Name="IncludeDiscontinued"><DataType>Boolean</DataType><Prompt>Include discontinued products</Prompt><DefaultValue><Values><Value>false</Value></Values></DefaultValue></ReportParameter>`,
    body: tablix('StockTable', 'Stock', [
      { header: 'Product', field: 'ProductName' },
      { header: 'SKU', field: 'Sku' },
      { header: 'On hand', field: 'OnHand' },
      { header: 'Reorder level', field: 'ReorderLevel' },
    ]),
  });
}

/** Customer List: a Power BI semantic model source (PBIDATASET), a required string parameter without default. */
export function customerListRdl(reportId: string, datasetId: string): string {
  return report({
    reportId,
    description: 'Customers of a segment, from the Customers semantic model.',
    title: '="Customers in segment " &amp; Parameters!Segment.Value',
    dataSources: `<DataSource Name="CustomersModel"><ConnectionProperties><DataProvider>PBIDATASET</DataProvider><ConnectString>Data Source=pbiazure://api.powerbi.com/;Identity Provider="https://login.microsoftonline.com/organizations, https://analysis.windows.net/powerbi/api, 00000000-0000-0000-0000-000000000000";Initial Catalog=sobe_wowvirtualserver-${datasetId};Integrated Security=ClaimsToken</ConnectString></ConnectionProperties></DataSource>`,
    dataSets: `<DataSet Name="Customers">
      <Query><DataSourceName>CustomersModel</DataSourceName><CommandText>EVALUATE FILTER('Customer', 'Customer'[Segment] = @Segment)</CommandText></Query>
      <Fields>
        <Field Name="CustomerName"><DataField>Customer[Name]</DataField></Field>
        <Field Name="Segment"><DataField>Customer[Segment]</DataField></Field>
        <Field Name="Country"><DataField>Customer[Country]</DataField></Field>
      </Fields>
    </DataSet>`,
    parameters: `<ReportParameter Name="Segment"><DataType>String</DataType><Prompt>Segment</Prompt>
      <ValidValues><ParameterValues><ParameterValue><Value>Enterprise</Value></ParameterValue><ParameterValue><Value>SMB</Value></ParameterValue><ParameterValue><Value>Consumer</Value></ParameterValue></ParameterValues></ValidValues>
    </ReportParameter>`,
    body: tablix('CustomerTable', 'Customers', [
      { header: 'Customer', field: 'CustomerName' },
      { header: 'Segment', field: 'Segment' },
      { header: 'Country', field: 'Country' },
    ]),
  });
}
