import { escapeXml as esc } from '../xml.js';
import type { Line, Page, Rendered } from './layout.js';
import { zip } from './zip.js';

const CT = 'http://schemas.openxmlformats.org/package/2006/content-types';
const REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Everything a page shows, in reading order, as plain lines (header, body, footer). */
function pageText(page: Page): string[] {
  const body = page.lines.map((l) => (l.kind === 'text' ? l.text : l.cells.join('\t')));
  return [...page.header, ...body, ...page.footer];
}

const csvCell = (v: string, delimiter: string) => (v.includes(delimiter) || /["\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * CSV: each data region's rows with the data set's fields as the header (device info FieldDelimiter, NoHeader,
 * Qualifier default), regions separated by a blank line; UTF-8 with a byte order mark.
 */
export function renderCsv(r: Rendered, settings: Record<string, string>): Buffer {
  const d = settings.FieldDelimiter ?? ',';
  const blocks = r.tables.map((t) => {
    const lines = settings.NoHeader === 'true' ? [] : [t.fieldNames.map((f) => csvCell(f, d)).join(d)];
    for (const rec of t.records) lines.push(t.fieldNames.map((f) => csvCell(rec[f] ?? '', d)).join(d));
    return lines.join('\r\n');
  });
  if (!blocks.length) blocks.push(r.texts.map((x) => csvCell(x.name, d)).join(d) + '\r\n' + r.texts.map((x) => csvCell(x.text, d)).join(d));
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${blocks.join('\r\n\r\n')}\r\n`, 'utf8')]);
}

/** An XML name from text (spaces and other characters encoded as _xHHHH_, like the service). */
function xmlName(s: string): string {
  const out = s.replace(/[^A-Za-z0-9_.-]/g, (c) => `_x${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}_`);
  return /^[A-Za-z_]/.test(out) ? out : `_${out}`;
}

/** XML: the report element (text boxes as attributes), then each data region with a Details element per row. */
export function renderXml(r: Rendered): Buffer {
  const attrs = r.texts.map((t) => ` ${xmlName(t.name)}="${esc(t.text)}"`).join('');
  const regions = r.tables
    .map(
      (t) =>
        `  <${xmlName(t.name)}>\n    <Details_Collection>\n${t.records.map((rec) => `      <Details${t.fieldNames.map((f) => ` ${xmlName(f)}="${esc(rec[f] ?? '')}"`).join('')} />`).join('\n')}\n    </Details_Collection>\n  </${xmlName(t.name)}>`,
    )
    .join('\n');
  return Buffer.from(
    `<?xml version="1.0" encoding="utf-8"?>\n<Report xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${esc(xmlName(r.reportName))} ${esc(xmlName(r.reportName))}.xsd" Name="${esc(r.reportName)}"${attrs} xmlns="${esc(xmlName(r.reportName))}">\n${regions}\n</Report>\n`,
    'utf8',
  );
}

/** HTML of the pages (the MHTML body and the viewer). */
export function renderHtml(r: Rendered, pages: Page[]): string {
  const lineHtml = (l: Line) =>
    l.kind === 'text'
      ? `<p${l.title ? ' class="title"' : ''}>${esc(l.text)}</p>`
      : `<tr>${l.cells.map((c) => (l.kind === 'header' ? `<th>${esc(c)}</th>` : `<td>${esc(c)}</td>`)).join('')}</tr>`;
  const pageHtml = (p: Page) => {
    let body = '';
    let inTable = false;
    for (const l of p.lines) {
      if (l.kind !== 'text' && !inTable) {
        body += '<table>';
        inTable = true;
      }
      if (l.kind === 'text' && inTable) {
        body += '</table>';
        inTable = false;
      }
      body += lineHtml(l);
    }
    if (inTable) body += '</table>';
    return `<div class="page" data-page="${p.number}"><header>${p.header.map((h) => `<div>${esc(h)}</div>`).join('')}</header><main>${body}</main><footer>${p.footer.map((f) => `<div>${esc(f)}</div>`).join('')}</footer></div>`;
  };
  return `<!DOCTYPE html><html lang="${esc(r.language)}"><head><meta charset="utf-8"><title>${esc(r.reportName)}</title><style>body{font-family:Segoe UI,Helvetica,Arial,sans-serif;font-size:10pt}.page{border-bottom:1px solid #ccc;padding:12px 0}.title{font-size:16pt;font-weight:bold}table{border-collapse:collapse}th,td{padding:2px 8px;text-align:left}th{border-bottom:1px solid #333}header,footer{color:#555;font-size:9pt}</style></head><body>${pages.map(pageHtml).join('')}</body></html>`;
}

/** MHTML: a MIME multipart/related message whose root part is the HTML rendering. */
export function renderMhtml(r: Rendered, pages: Page[]): Buffer {
  const boundary = `----=_NextPart_${r.executionTime.getTime().toString(16)}`;
  const html = Buffer.from(renderHtml(r, pages), 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  const subject = /^[\x20-\x7e]*$/.test(r.reportName) ? r.reportName : `=?utf-8?B?${Buffer.from(r.reportName).toString('base64')}?=`;
  return Buffer.from(
    [
      'MIME-Version: 1.0',
      `Subject: ${subject}`,
      `Date: ${r.executionTime.toUTCString()}`,
      `Content-Type: multipart/related; boundary="${boundary}"; type="text/html"`,
      '',
      'This is a multi-part message in MIME format.',
      '',
      `--${boundary}`,
      'Content-Type: text/html; charset="utf-8"',
      'Content-Transfer-Encoding: base64',
      'Content-Location: report.html',
      '',
      html,
      '',
      `--${boundary}--`,
      '',
    ].join('\r\n'),
    'utf8',
  );
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** DOCX: a WordprocessingML package with the pages as paragraphs and tables, pages separated by page breaks. */
export function renderDocx(r: Rendered, pages: Page[]): Buffer {
  const run = (t: string, bold = false) => `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${esc(t)}</w:t></w:r>`;
  const para = (t: string, bold = false, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${run(t, bold)}</w:p>`;
  const body = pages
    .map((p, i) => {
      let xml = p.header.map((h) => para(h)).join('');
      let rows: string[] = [];
      const flush = () => {
        if (rows.length)
          xml += `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr>${rows.join('')}</w:tbl>`;
        rows = [];
      };
      for (const l of p.lines) {
        if (l.kind === 'text') {
          flush();
          xml += para(l.text, Boolean(l.title), l.title ? 'Title' : undefined);
        } else
          rows.push(
            `<w:tr>${l.cells.map((c) => `<w:tc><w:tcPr><w:tcW w:w="0" w:type="auto"/></w:tcPr>${para(c, l.kind === 'header')}</w:tc>`).join('')}</w:tr>`,
          );
      }
      flush();
      xml += p.footer.map((f) => para(f)).join('');
      if (i < pages.length - 1) xml += '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
      return xml;
    })
    .join('');
  const wPt = Math.round(r.pageWidthIn * 1440);
  const hPt = Math.round(r.pageHeightIn * 1440);
  const document = `${XML_HEAD}<w:document xmlns:w="${W}"><w:body>${body}<w:sectPr><w:pgSz w:w="${wPt}" w:h="${hPt}"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720" w:header="360" w:footer="360" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  const styles = `${XML_HEAD}<w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Segoe UI" w:hAnsi="Segoe UI"/><w:sz w:val="20"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style></w:styles>`;
  return zip(
    [
      {
        name: '[Content_Types].xml',
        data: `${XML_HEAD}<Types xmlns="${CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
      },
      {
        name: '_rels/.rels',
        data: `${XML_HEAD}<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="${OFFICE_DOC}" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
      },
      { name: 'docProps/core.xml', data: coreProps(r) },
      { name: 'word/document.xml', data: document },
      {
        name: 'word/_rels/document.xml.rels',
        data: `${XML_HEAD}<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
      },
      { name: 'word/styles.xml', data: styles },
    ],
    r.executionTime,
  );
}

function coreProps(r: Rendered): string {
  return `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${esc(r.reportName)}</dc:title><dc:creator>${esc(r.userId)}</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${r.executionTime.toISOString().replace(/\.\d+Z$/, 'Z')}</dcterms:created></cp:coreProperties>`;
}

/** A1-style column letters. */
const col = (i: number): string =>
  i < 26 ? String.fromCharCode(65 + i) : col(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26));

/** XLSX: a SpreadsheetML workbook with one worksheet per page (inline strings, numbers as numbers). */
export function renderXlsx(r: Rendered, pages: Page[]): Buffer {
  const sheets = pages.map((p) => {
    const rows = [
      ...p.header.map((h) => [h]),
      ...p.lines.map((l) => (l.kind === 'text' ? [l.text] : l.cells)),
      ...p.footer.map((f) => [f]),
    ];
    const xml = rows
      .map(
        (cells, ri) =>
          `<row r="${ri + 1}">${cells
            .map((c, ci) => {
              const ref = `${col(ci)}${ri + 1}`;
              return /^-?\d+(\.\d+)?$/.test(c)
                ? `<c r="${ref}"><v>${c}</v></c>`
                : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(c)}</t></is></c>`;
            })
            .join('')}</row>`,
      )
      .join('');
    return `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${xml}</sheetData></worksheet>`;
  });
  const names = pages.map((p) => `Page ${p.number}`);
  return zip(
    [
      {
        name: '[Content_Types].xml',
        data: `${XML_HEAD}<Types xmlns="${CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
      },
      {
        name: '_rels/.rels',
        data: `${XML_HEAD}<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="${OFFICE_DOC}" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
      },
      { name: 'docProps/core.xml', data: coreProps(r) },
      {
        name: 'xl/workbook.xml',
        data: `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${names.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: `${XML_HEAD}<Relationships xmlns="${REL}">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
      },
      ...sheets.map((data, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
    ],
    r.executionTime,
  );
}

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const THEME = `${XML_HEAD}<a:theme xmlns:a="${A}" name="Sandbox"><a:themeElements><a:clrScheme name="Sandbox"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F1F1F"/></a:dk2><a:lt2><a:srgbClr val="EEEEEE"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6><a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme><a:fontScheme name="Sandbox"><a:majorFont><a:latin typeface="Segoe UI"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Segoe UI"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Sandbox"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst><a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`;

const EMPTY_TREE = `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`;

/** PPTX: a PresentationML package (master, layout, theme) with one slide per page holding the page's text. */
export function renderPptx(r: Rendered, pages: Page[]): Buffer {
  const cx = Math.round(r.pageWidthIn * 914400);
  const cy = Math.round(r.pageHeightIn * 914400);
  const slide = (p: Page) => {
    const paras =
      pageText(p)
        .map((t) => `<a:p><a:r><a:rPr lang="${esc(r.language)}" sz="1000" dirty="0"/><a:t>${esc(t)}</a:t></a:r></a:p>`)
        .join('') || '<a:p><a:endParaRPr lang="en-US"/></a:p>';
    return `${XML_HEAD}<p:sld xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:cSld><p:spTree>${EMPTY_TREE}<p:sp><p:nvSpPr><p:cNvPr id="2" name="Page ${p.number}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="457200"/><a:ext cx="${cx - 914400}" cy="${cy - 914400}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr wrap="square"/><a:lstStyle/>${paras}</p:txBody></p:sp></p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
  };
  const rels = (items: Array<[string, string]>) =>
    `${XML_HEAD}<Relationships xmlns="${REL}">${items.map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`).join('')}</Relationships>`;
  const master = `${XML_HEAD}<p:sldMaster xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:cSld><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld><p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`;
  const layoutXml = `${XML_HEAD}<p:sldLayout xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}" type="blank" preserve="1"><p:cSld name="Blank"><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;
  const presentation = `${XML_HEAD}<p:presentation xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>${pages.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`).join('')}</p:sldIdLst><p:sldSz cx="${cx}" cy="${cy}"/><p:notesSz cx="${cy}" cy="${cx}"/></p:presentation>`;
  return zip(
    [
      {
        name: '[Content_Types].xml',
        data: `${XML_HEAD}<Types xmlns="${CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/><Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"/><Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/><Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/><Override PartName="/ppt/presProps.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presProps+xml"/><Override PartName="/ppt/viewProps.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.viewProps+xml"/><Override PartName="/ppt/tableStyles.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml"/>${pages.map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`).join('')}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
      },
      {
        name: '_rels/.rels',
        data: `${XML_HEAD}<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="${OFFICE_DOC}" Target="ppt/presentation.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
      },
      { name: 'docProps/core.xml', data: coreProps(r) },
      { name: 'ppt/presentation.xml', data: presentation },
      {
        name: 'ppt/_rels/presentation.xml.rels',
        data: rels([
          ['slideMaster', 'slideMasters/slideMaster1.xml'],
          ...pages.map((_, i): [string, string] => ['slide', `slides/slide${i + 1}.xml`]),
          ['theme', 'theme/theme1.xml'],
          ['presProps', 'presProps.xml'],
          ['viewProps', 'viewProps.xml'],
          ['tableStyles', 'tableStyles.xml'],
        ]),
      },
      { name: 'ppt/presProps.xml', data: `${XML_HEAD}<p:presentationPr xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"/>` },
      { name: 'ppt/viewProps.xml', data: `${XML_HEAD}<p:viewPr xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"/>` },
      { name: 'ppt/tableStyles.xml', data: `${XML_HEAD}<a:tblStyleLst xmlns:a="${A}" def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>` },
      { name: 'ppt/slideMasters/slideMaster1.xml', data: master },
      {
        name: 'ppt/slideMasters/_rels/slideMaster1.xml.rels',
        data: rels([
          ['slideLayout', '../slideLayouts/slideLayout1.xml'],
          ['theme', '../theme/theme1.xml'],
        ]),
      },
      { name: 'ppt/slideLayouts/slideLayout1.xml', data: layoutXml },
      { name: 'ppt/slideLayouts/_rels/slideLayout1.xml.rels', data: rels([['slideMaster', '../slideMasters/slideMaster1.xml']]) },
      { name: 'ppt/theme/theme1.xml', data: THEME },
      ...pages.flatMap((p, i) => [
        { name: `ppt/slides/slide${i + 1}.xml`, data: slide(p) },
        { name: `ppt/slides/_rels/slide${i + 1}.xml.rels`, data: rels([['slideLayout', '../slideLayouts/slideLayout1.xml']]) },
      ]),
    ],
    r.executionTime,
  );
}
