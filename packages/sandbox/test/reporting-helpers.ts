import assert from 'node:assert/strict';
import { call, sleep } from './helpers.js';
import type { Sandbox } from '../src/index.js';

const RDL_NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';

/** A small valid definition with one parameter, a data set and a table. */
export const simpleRdl = (title: string) => `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="${RDL_NS}">
  <DataSources><DataSource Name="Db"><ConnectionProperties><DataProvider>SQL</DataProvider><ConnectString>Data Source=old.example.net;Initial Catalog=sales</ConnectString></ConnectionProperties></DataSource></DataSources>
  <DataSets><DataSet Name="Rows"><Query><DataSourceName>Db</DataSourceName><CommandText>SELECT Name, Total FROM dbo.T</CommandText></Query>
    <Fields><Field Name="Name"><DataField>Name</DataField></Field><Field Name="Total"><DataField>Total</DataField></Field></Fields></DataSet></DataSets>
  <ReportSections><ReportSection>
    <Body><ReportItems><Textbox Name="T"><Paragraphs><Paragraph><TextRuns><TextRun><Value>${title}</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></ReportItems><Height>2in</Height></Body>
    <Width>6in</Width><Page><PageHeight>11in</PageHeight><PageWidth>8.5in</PageWidth></Page>
  </ReportSection></ReportSections>
  <ReportParameters><ReportParameter Name="Top"><DataType>Integer</DataType><DefaultValue><Values><Value>10</Value></Values></DefaultValue><Prompt>Top</Prompt></ReportParameter></ReportParameters>
</Report>
`;

/** Base of the group routes and a token of the service identity for the reporting API audience. */
export async function reportingApi(sb: Sandbox, principal?: string) {
  const token = await sb.admin.token({ principal, audience: 'https://analysis.windows.net/powerbi/api' });
  return { token, group: `${sb.env.SVC_BI_API_URL}/v1.0/myorg/groups/${sb.ids.platformWorkspaceId}` };
}

/** POST an .rdl as multipart/form-data to the import call. */
export async function importRdl(url: string, token: string, rdl: string | Buffer, filename = 'file.rdl') {
  const form = new FormData();
  form.append('file0', new Blob([typeof rdl === 'string' ? rdl : new Uint8Array(rdl)]), filename);
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Polls an import until it leaves Publishing. */
export async function waitImport(group: string, token: string, id: string) {
  for (let i = 0; i < 100; i++) {
    const r = await call(`${group}/imports/${id}`, { token });
    assert.equal(r.status, 200);
    if (r.body.importState !== 'Publishing') return r.body;
    await sleep(30);
  }
  throw new Error('the import did not finish');
}

/** Checks a PDF's structure (header, xref offsets land on `n 0 obj`, trailer) and answers its text strings. */
export function parsePdf(buf: Buffer): { pages: number; text: string; objects: number } {
  const s = buf.toString('latin1');
  assert.ok(s.startsWith('%PDF-1.4\n'), 'starts with the PDF header');
  assert.ok(s.trimEnd().endsWith('%%EOF'));
  const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(s)![1]);
  assert.equal(s.slice(startxref, startxref + 4), 'xref');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(s.slice(startxref))!;
  assert.equal(first, '0');
  const entries = s
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  assert.equal(entries[0], '0000000000 65535 f ');
  entries.slice(1).forEach((e, i) => {
    assert.match(e, /^\d{10} 00000 n $/);
    const off = Number(e.slice(0, 10));
    assert.equal(s.slice(off, off + `${i + 1} 0 obj`.length), `${i + 1} 0 obj`, `xref entry ${i + 1} points at its object`);
  });
  assert.match(s, new RegExp(`trailer\\n<< /Size ${count} /Root \\d+ 0 R`));
  for (const m of s.matchAll(/<< \/Length (\d+)[^>]*>>\nstream\n/g)) {
    const start = m.index! + m[0].length;
    assert.equal(s.slice(start + Number(m[1]), start + Number(m[1]) + 10), '\nendstream', 'stream lengths are exact');
  }
  const text = [...s.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1')).join('\n');
  return { pages: (s.match(/\/Type \/Page\b/g) ?? []).length, text, objects: Number(count) - 1 };
}

/** Reads a stored zip through its central directory; checks each local header and CRC; answers name → bytes. */
export function unzip(buf: Buffer): Map<string, Buffer> {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end > 0, 'has an end of central directory record');
  const n = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < n; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'central directory entry');
    const crc = buf.readUInt32LE(p + 16);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    assert.equal(buf.readUInt32LE(local), 0x04034b50, `local header of ${name}`);
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(dataStart, dataStart + size);
    assert.equal(crc32(data), crc, `CRC of ${name}`);
    out.set(name, data);
    p += 46 + nameLen + extra + comment;
  }
  return out;
}

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Starts an export and polls it (honouring Retry-After) to the file. */
export async function exportFile(group: string, token: string, reportId: string, request: unknown) {
  const start = await call(`${group}/reports/${reportId}/ExportTo`, { token, json: request });
  assert.equal(start.status, 202, JSON.stringify(start.body));
  const seen: string[] = [];
  let status = start.body;
  for (let i = 0; i < 50 && status.status !== 'Succeeded' && status.status !== 'Failed'; i++) {
    const poll = await call(`${group}/reports/${reportId}/exports/${encodeURIComponent(start.body.id)}`, { token });
    status = poll.body;
    seen.push(`${poll.status}:${status.status}:${poll.headers.get('retry-after') ?? '-'}`);
    if (poll.status === 202) await sleep(Number(poll.headers.get('retry-after')) * 1000 || 50);
  }
  if (status.status !== 'Succeeded')
    return { start: start.body, status, seen, res: undefined as unknown as Response, bytes: Buffer.alloc(0) };
  const res = await fetch(status.resourceLocation, { headers: { authorization: `Bearer ${token}` } });
  return { start: start.body, status, seen, res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A definition with a table over a data set added to the body: a header row of the field names, a detail row of their values. */
export function withTable(rdl: string, dataSet: string, fields: string[]): string {
  const cell = (name: string, value: string) =>
    `<TablixCell><CellContents><Textbox Name="${name}"><Paragraphs><Paragraph><TextRuns><TextRun><Value>${value}</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></CellContents></TablixCell>`;
  const tablix =
    `<Tablix Name="${dataSet}Table"><TablixBody><TablixColumns>${fields.map(() => '<TablixColumn><Width>2in</Width></TablixColumn>').join('')}</TablixColumns><TablixRows>` +
    `<TablixRow><Height>0.25in</Height><TablixCells>${fields.map((f) => cell(`H_${f}`, f)).join('')}</TablixCells></TablixRow>` +
    `<TablixRow><Height>0.25in</Height><TablixCells>${fields.map((f) => cell(`D_${f}`, `=Fields!${f}.Value`)).join('')}</TablixCells></TablixRow>` +
    `</TablixRows></TablixBody><DataSetName>${dataSet}</DataSetName></Tablix>`;
  return rdl.replace('</ReportItems><Height>', `${tablix}</ReportItems><Height>`);
}
