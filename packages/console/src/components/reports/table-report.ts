// A formatted-table report over one table of a semantic model: the scope of the reporting service's own web authoring.

import { typeNameOf } from '../../designer/model/data.js';

const NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';
const RD = 'http://schemas.microsoft.com/SQLServer/reporting/reportdesigner';

export interface TableColumn {
  name: string;
  dataType?: string;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** An RDL name: letters, digits and underscores, starting with a letter. */
const rdlName = (s: string, i: number) => {
  const n = s.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '');
  return n ? `${n.slice(0, 60)}` : `Column${i + 1}`;
};
function textbox(name: string, value: string, style: string): string {
  return `<Textbox Name="${name}"><CanGrow>true</CanGrow><KeepTogether>true</KeepTogether><Paragraphs><Paragraph><TextRuns><TextRun><Value>${value}</Value><Style>${style}</Style></TextRun></TextRuns><Style /></Paragraph></Paragraphs><Style><Border><Color>LightGrey</Color><Style>Solid</Style></Border><PaddingLeft>2pt</PaddingLeft><PaddingRight>2pt</PaddingRight><PaddingTop>2pt</PaddingTop><PaddingBottom>2pt</PaddingBottom></Style></Textbox>`;
}

/** The RDL of a one-table report: a title, a header row and a detail row per column, page number and run time in the footer. */
export function tableReport(opts: { title: string; apiHost: string; datasetId: string; table: string; columns: TableColumn[] }): string {
  const seen = new Set<string>();
  const cols = opts.columns.map((c, i) => {
    let field = rdlName(c.name, i);
    while (seen.has(field)) field = `${field}_${i + 1}`;
    seen.add(field);
    return { ...c, field };
  });
  const width = Math.max(2, Math.min(cols.length * 1.4, 10));
  const colWidth = (width / cols.length).toFixed(2);
  const quotedTable = `'${opts.table.replace(/'/g, "''")}'`;
  const header = cols
    .map(
      (c) =>
        `<TablixCell><CellContents>${textbox(`hdr_${c.field}`, xml(c.name), '<FontWeight>Bold</FontWeight><Color>White</Color>').replace('<Style><Border>', '<Style><BackgroundColor>#1F3864</BackgroundColor><Border>')}</CellContents></TablixCell>`,
    )
    .join('');
  const detail = cols
    .map(
      (c) =>
        `<TablixCell><CellContents>${textbox(`val_${c.field}`, `=Fields!${c.field}.Value`, '<FontSize>9pt</FontSize>')}</CellContents></TablixCell>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="${NS}" xmlns:rd="${RD}">
  <Description>${xml(`Formatted table of ${opts.table}`)}</Description>
  <DataSources>
    <DataSource Name="SemanticModel">
      <ConnectionProperties>
        <DataProvider>PBIDATASET</DataProvider>
        <ConnectString>Data Source=pbiazure://${xml(opts.apiHost)}/;Initial Catalog=sobe_wowvirtualserver-${xml(opts.datasetId)};Integrated Security=ClaimsToken</ConnectString>
      </ConnectionProperties>
    </DataSource>
  </DataSources>
  <DataSets>
    <DataSet Name="TableRows">
      <Query>
        <DataSourceName>SemanticModel</DataSourceName>
        <CommandText>${xml(`EVALUATE ${quotedTable}`)}</CommandText>
      </Query>
      <Fields>
${cols.map((c) => `        <Field Name="${c.field}"><DataField>${xml(`${opts.table}[${c.name}]`)}</DataField><rd:TypeName>${typeNameOf(c.dataType)}</rd:TypeName></Field>`).join('\n')}
      </Fields>
    </DataSet>
  </DataSets>
  <ReportSections>
    <ReportSection>
      <Body>
        <ReportItems>
          ${textbox('Title', xml(opts.title), '<FontSize>16pt</FontSize><FontWeight>Bold</FontWeight>')
            .replace(/<Border>.*?<\/Border>/, '')
            .replace(
              '</Textbox>',
              '<Top>0in</Top><Left>0in</Left><Height>0.4in</Height><Width>' + width.toFixed(2) + 'in</Width></Textbox>',
            )}
          <Tablix Name="Table">
            <TablixBody>
              <TablixColumns>${cols.map(() => `<TablixColumn><Width>${colWidth}in</Width></TablixColumn>`).join('')}</TablixColumns>
              <TablixRows>
                <TablixRow><Height>0.3in</Height><TablixCells>${header}</TablixCells></TablixRow>
                <TablixRow><Height>0.25in</Height><TablixCells>${detail}</TablixCells></TablixRow>
              </TablixRows>
            </TablixBody>
            <TablixColumnHierarchy><TablixMembers>${cols.map(() => '<TablixMember />').join('')}</TablixMembers></TablixColumnHierarchy>
            <TablixRowHierarchy><TablixMembers><TablixMember><KeepWithGroup>After</KeepWithGroup><RepeatOnNewPage>true</RepeatOnNewPage></TablixMember><TablixMember><Group Name="Details" /></TablixMember></TablixMembers></TablixRowHierarchy>
            <DataSetName>TableRows</DataSetName>
            <Top>0.5in</Top><Left>0in</Left><Height>0.55in</Height><Width>${width.toFixed(2)}in</Width>
          </Tablix>
        </ReportItems>
        <Height>1.2in</Height>
      </Body>
      <Width>${width.toFixed(2)}in</Width>
      <Page>
        <PageFooter>
          <Height>0.35in</Height><PrintOnFirstPage>true</PrintOnFirstPage><PrintOnLastPage>true</PrintOnLastPage>
          <ReportItems>${textbox('Footer', '="Page " &amp; Globals!PageNumber &amp; " of " &amp; Globals!TotalPages &amp; " · " &amp; Globals!ExecutionTime', '<FontSize>8pt</FontSize>').replace(/<Border>.*?<\/Border>/, '')}</ReportItems>
        </PageFooter>
        <PageHeight>11in</PageHeight><PageWidth>${Math.max(8.5, width + 1).toFixed(1)}in</PageWidth>
        <LeftMargin>0.5in</LeftMargin><RightMargin>0.5in</RightMargin><TopMargin>0.5in</TopMargin><BottomMargin>0.5in</BottomMargin>
      </Page>
    </ReportSection>
  </ReportSections>
  <rd:ReportUnitType>Inch</rd:ReportUnitType>
</Report>
`;
}
