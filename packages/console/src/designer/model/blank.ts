// Create from scratch: a blank report (a title, a page header and footer on a Letter page), or one with a table
// for each chosen table of a semantic model.

import { ensureModelField, type ModelColumn } from './data.js';
import { insertElement } from './items.js';
import { RD_NS, RDL_NS, RdlDocument } from './report.js';
import { tableSpec } from './tablix-make.js';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const box = (name: string, value: string, top: string, height: string, width: string, run = '', indent = '') =>
  `<Textbox Name="${name}">
            <CanGrow>true</CanGrow>
            <KeepTogether>true</KeepTogether>
            <Paragraphs>
              <Paragraph>
                <TextRuns>
                  <TextRun>
                    <Value>${value}</Value>
                    <Style>${run}</Style>
                  </TextRun>
                </TextRuns>
                <Style />
              </Paragraph>
            </Paragraphs>
            <Top>${top}</Top>
            <Left>0in</Left>
            <Height>${height}</Height>
            <Width>${width}</Width>
            <Style>
              <PaddingLeft>2pt</PaddingLeft>
              <PaddingRight>2pt</PaddingRight>
              <PaddingTop>2pt</PaddingTop>
              <PaddingBottom>2pt</PaddingBottom>
            </Style>
          </Textbox>`.replace(/\n/g, `\n${indent}`);

/** A blank report: a title in the body, the report name in the page header, page numbers in the footer. */
export function blankReport(title: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="${RDL_NS}" xmlns:rd="${RD_NS}">
  <AutoRefresh>0</AutoRefresh>
  <ReportSections>
    <ReportSection>
      <Body>
        <ReportItems>
          ${box('Title', xml(title), '0in', '0.4in', '6.5in', '<FontSize>16pt</FontSize><FontWeight>Bold</FontWeight>')}
        </ReportItems>
        <Height>2in</Height>
        <Style />
      </Body>
      <Width>6.5in</Width>
      <Page>
        <PageHeader>
          <Height>0.4in</Height>
          <PrintOnFirstPage>true</PrintOnFirstPage>
          <PrintOnLastPage>true</PrintOnLastPage>
          <ReportItems>
            ${box('ReportNameBox', '=Globals!ReportName', '0.05in', '0.3in', '6.5in', '<FontSize>9pt</FontSize><Color>#555555</Color>', '  ')}
          </ReportItems>
          <Style />
        </PageHeader>
        <PageFooter>
          <Height>0.4in</Height>
          <PrintOnFirstPage>true</PrintOnFirstPage>
          <PrintOnLastPage>true</PrintOnLastPage>
          <ReportItems>
            ${box('PageNumberBox', '="Page " &amp; Globals!PageNumber &amp; " of " &amp; Globals!TotalPages', '0.05in', '0.3in', '6.5in', '<FontSize>9pt</FontSize>', '  ')}
          </ReportItems>
          <Style />
        </PageFooter>
        <PageHeight>11in</PageHeight>
        <PageWidth>8.5in</PageWidth>
        <LeftMargin>1in</LeftMargin>
        <RightMargin>1in</RightMargin>
        <TopMargin>1in</TopMargin>
        <BottomMargin>1in</BottomMargin>
        <Style />
      </Page>
    </ReportSection>
  </ReportSections>
  <Language>en-US</Language>
  <rd:ReportUnitType>Inch</rd:ReportUnitType>
</Report>
`;
}

/** A report with a table per chosen model table, each showing its columns (header row and a row per record). */
export function reportFromModel(
  title: string,
  model: { name: string; apiHost: string; datasetId: string },
  tables: Array<{ name: string; columns: ModelColumn[] }>,
): string {
  const doc = RdlDocument.parse(blankReport(title));
  let top = 0.6;
  for (const t of tables) {
    const fields = t.columns.map((c) => ensureModelField(doc, model, c));
    const dataSet = fields[0]?.dataSet;
    const { spec } = tableSpec(doc, {
      dataSet,
      columns: fields.map((f, i) => ({ header: t.columns[i]!.column, value: `=Fields!${f.field}.Value` })),
      bounds: { top, left: 0, width: 6.5, height: 0.5 },
    });
    insertElement(doc, 'body', spec, top + 0.5);
    top += 0.8;
  }
  return doc.toString();
}
