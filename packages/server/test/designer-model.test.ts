// The report designer's document model (packages/console/src/designer/model): every catalog and seeded definition
// reads and writes back byte for byte; an edit changes only what it touches; what the designer makes passes the
// service's RDL checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RdlDocument } from '../../console/src/designer/model/report.js';
import { parseXml, serialize, XmlSyntaxError } from '../../console/src/designer/model/xml.js';
import {
  alignItems,
  deleteItems,
  insertItem,
  moveItems,
  setHidden,
  setStyle,
  setTextboxValue,
  styleOf,
  textboxValue,
} from '../../console/src/designer/model/items.js';
import { apply, redo, startHistory, undo } from '../../console/src/designer/model/history.js';
import { blankReport, reportFromModel } from '../../console/src/designer/model/blank.js';
import { catalogDefinitions, refusals } from './designer-helpers.js';

/** The lines two texts differ in (a simple line-by-line comparison, enough for one-place edits). */
function changedLines(a: string, b: string): { removed: string[]; added: string[] } {
  const x = a.split('\n');
  const y = b.split('\n');
  let s = 0;
  while (s < x.length && s < y.length && x[s] === y[s]) s++;
  let e = 0;
  while (e < x.length - s && e < y.length - s && x[x.length - 1 - e] === y[y.length - 1 - e]) e++;
  return { removed: x.slice(s, x.length - e), added: y.slice(s, y.length - e) };
}

test('every catalog and seeded definition opens and saves unchanged, byte for byte', () => {
  const defs = catalogDefinitions();
  assert.ok(defs.length >= 4, 'the catalog has a paginated report and the sandbox seeds three');
  for (const d of defs) {
    assert.equal(RdlDocument.parse(d.text).toString(), d.text, d.name);
    // An undo stack over it gives back the same text too.
    const h = apply(startHistory(d.text), RdlDocument.parse, () => {});
    assert.equal(h.present, d.text);
    assert.equal(h.past.length, 0, 'no change, no step');
  }
});

test('a definition edited elsewhere (comments, CDATA, single quotes, references, CRLF) opens unchanged', () => {
  const text =
    '\ufeff<?xml version="1.0" encoding="utf-8"?>\r\n<!-- edited in Report Builder -->\r\n<Report xmlns="http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition" xmlns:rd=\'http://schemas.microsoft.com/SQLServer/reporting/reportdesigner\'>\r\n  <Description><![CDATA[a < b & c]]></Description>\r\n  <Code>Public Function F() As String\r\n  Return "&#x41;&amp;&lt;"\r\nEnd Function</Code>\r\n  <?designer keep?>\r\n  <ReportSections><ReportSection><Body><Height  >1in</Height ></Body><Width>1in</Width><Page/></ReportSection></ReportSections>\r\n</Report>\r\n';
  assert.equal(RdlDocument.parse(text.slice(1)).toString(), text.slice(1));
  assert.equal(serialize(parseXml(text.slice(1))), text.slice(1));
});

test('text that is not well-formed is refused with its line', () => {
  for (const [text, line, re] of [
    ['<Report>\n<A>\n</B>\n</Report>', 3, /<\/B> closes <A>/],
    ['<Report>\n  <A x="1" x="2"/>\n</Report>', 2, /duplicate attribute/],
    ['<Report>\n\n  a & b\n</Report>', 3, /bare &/],
    ['<Report>\n  &nbsp;\n</Report>', 2, /unknown entity/],
    ['<Report>', 1, /not closed/],
  ] as const) {
    assert.throws(
      () => parseXml(text),
      (e: unknown) => e instanceof XmlSyntaxError && e.line === line && re.test(e.message),
      text,
    );
  }
});

test('changing one text box of each catalog report changes only its Value line; the definition still passes the checks', async () => {
  for (const d of catalogDefinitions()) {
    const doc = RdlDocument.parse(d.text);
    const box = doc.items('body').find((i) => i.kind === 'Textbox') ?? doc.allItems().find((i) => i.kind === 'Textbox');
    assert.ok(box, `${d.name} has a text box`);
    const before = textboxValue(box.el);
    setTextboxValue(box.el, 'Changed in the designer & saved');
    const after = doc.toString();
    const diff = changedLines(d.text, after);
    assert.equal(diff.added.length, 1, `${d.name}: ${JSON.stringify(diff)}`);
    assert.match(diff.added[0]!, /Changed in the designer &amp; saved/);
    assert.ok(diff.removed.join('\n').includes(before.replace(/&/g, '&amp;').split('\n')[0]!.slice(0, 20)), d.name);
    assert.deepEqual(await refusals(after, false), [], d.name);
    assert.equal(textboxValue(RdlDocument.parse(after).find(box.name)!), 'Changed in the designer & saved');
  }
});

test('items: insert every kind, move, align, style, hide and delete; undo and redo give back each text exactly', async () => {
  let h = startHistory(blankReport('Floor report'));
  const names: string[] = [];
  for (const kind of ['Textbox', 'Rectangle', 'Line', 'Image'] as const) {
    h = apply(h, RdlDocument.parse, (doc) => {
      names.push(
        insertItem(
          doc,
          'body',
          kind,
          { top: 1 + names.length * 0.6, left: 0.5, width: 2, height: 0.4 },
          { value: kind === 'Image' ? 'https://example.com/logo.png' : 'Hello' },
        ),
      );
    });
  }
  const inserted = h.present;
  assert.deepEqual(await refusals(inserted), []);
  let doc = RdlDocument.parse(inserted);
  assert.deepEqual(
    names.map((n) => doc.items('body').find((i) => i.name === n)?.kind),
    ['Textbox', 'Rectangle', 'Line', 'Image'],
  );
  h = apply(h, RdlDocument.parse, (d) => moveItems(d, [names[0]!], 0.25, 0.5));
  doc = RdlDocument.parse(h.present);
  const moved = doc.items('body').find((i) => i.name === names[0])!;
  assert.deepEqual([moved.left, moved.top], [0.75, 1.5]);
  h = apply(h, RdlDocument.parse, (d) => alignItems(d, [names[1]!, names[0]!, names[3]!], 'left'));
  doc = RdlDocument.parse(h.present);
  assert.deepEqual(
    doc
      .items('body')
      .filter((i) => names.includes(i.name))
      .map((i) => i.left),
    [0.5, 0.5, 0.5, 0.5],
  );
  h = apply(h, RdlDocument.parse, (d) => {
    const el = d.find(names[0]!)!;
    setStyle(el, 'FontWeight', 'Bold');
    setStyle(el, 'Color', '#1F3864');
    setStyle(el, 'TextAlign', 'Center');
    setStyle(el, 'BorderStyle', 'Solid');
    setStyle(el, 'BackgroundColor', 'LightYellow');
    setStyle(el, 'Format', 'N2');
    setHidden(el, '=Parameters!Hide.Value');
  });
  doc = RdlDocument.parse(h.present);
  const el = doc.find(names[0]!)!;
  assert.deepEqual(
    (['FontWeight', 'Color', 'TextAlign', 'BorderStyle', 'BackgroundColor', 'Format'] as const).map((p) => styleOf(el, p)),
    ['Bold', '#1F3864', 'Center', 'Solid', 'LightYellow', 'N2'],
  );
  assert.match(h.present, /<Visibility>\s*<Hidden>=Parameters!Hide.Value<\/Hidden>\s*<\/Visibility>/);
  h = apply(h, RdlDocument.parse, (d) => deleteItems(d, names));
  assert.equal(RdlDocument.parse(h.present).items('body').length, 1, 'only the title is left');
  assert.deepEqual(await refusals(h.present), []);
  // Undo walks back through each text exactly; redo forward again.
  const steps = h.past.length;
  let back = h;
  for (let i = 0; i < steps; i++) back = undo(back);
  assert.equal(back.present, blankReport('Floor report'));
  let fwd = back;
  for (let i = 0; i < steps; i++) fwd = redo(fwd);
  assert.equal(fwd.present, h.present);
});

test('a report from a model’s tables: a data source, a data set per table, a table each; it passes the checks', async () => {
  const text = reportFromModel(
    'Machines and KPIs',
    { name: 'CasinoFloorModel', apiHost: 'api.powerbi.com', datasetId: '11111111-2222-4333-8444-555555555555' },
    [
      {
        name: 'Machines',
        columns: [
          { table: 'Machines', column: 'machine_id', dataType: 'string' },
          { table: 'Machines', column: 'floor_zone', dataType: 'string' },
        ],
      },
      { name: 'Machine KPIs', columns: [{ table: 'Machine KPIs', column: 'coin_in', dataType: 'decimal' }] },
    ],
  );
  assert.deepEqual(await refusals(text), []);
  assert.equal(text.match(/<DataSource Name=/g)?.length, 1);
  assert.match(text, /<CommandText>EVALUATE 'Machine KPIs'<\/CommandText>/);
  assert.match(text, /<DataField>Machine KPIs\[coin_in\]<\/DataField>/);
  assert.equal(
    RdlDocument.parse(text)
      .items('body')
      .filter((i) => i.kind === 'Tablix').length,
    2,
  );
});
