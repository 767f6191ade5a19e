import type { ParameterValues } from '../params.js';
import type { RdlDataSet, RdlModel } from '../rdl.js';
import { evaluate, usesRowFields, type EvalScope, type Value } from './expressions.js';
import { dataSetRows } from './filters.js';
import { renderHierarchy } from './tablix.js';

/** A line of a laid-out page. */
export type Line =
  | { kind: 'text'; text: string; title?: boolean }
  | { kind: 'header'; table: string; cells: string[] }
  | { kind: 'row'; table: string; cells: string[] };

export interface Page {
  number: number;
  header: string[];
  lines: Line[];
  footer: string[];
}

export interface TableData {
  name: string;
  dataSet?: RdlDataSet;
  /** The heading rows (a table's header row; a matrix's column headers), repeated on each page. */
  heads: string[][];
  rows: string[][];
  /** The data set's fields and the filtered rows' values (CSV and XML). */
  fieldNames: string[];
  records: Array<Record<string, string>>;
}

export interface Rendered {
  reportName: string;
  executionTime: Date;
  userId: string;
  language: string;
  parameters: Map<string, ParameterValues>;
  texts: Array<{ name: string; text: string }>;
  tables: TableData[];
  pages: Page[];
  pageWidthIn: number;
  pageHeightIn: number;
}

/** Splits a line at spaces so that no piece is longer than `width` characters (a longer word is cut). */
function wrap(line: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of line.split(' ')) {
    let w = word;
    while (w.length > width) {
      if (cur) out.push(cur);
      out.push(w.slice(0, width));
      w = w.slice(width);
      cur = '';
    }
    if (!cur) cur = w;
    else if (cur.length + 1 + w.length <= width) cur += ` ${w}`;
    else {
      out.push(cur);
      cur = w;
    }
  }
  out.push(cur);
  return out;
}

/** A size like "8.5in", "21cm", "612pt" in inches. */
function inches(size: string | undefined, fallback: number): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(in|cm|mm|pt|pc)\s*$/.exec(size ?? '');
  if (!m) return fallback;
  const n = Number(m[1]);
  return { in: n, cm: n / 2.54, mm: n / 25.4, pt: n / 72, pc: n / 6 }[m[2] as 'in']!;
}

/**
 * Evaluates the report and lays it out on pages; `linesPerPage` follows the page height (device info may change it).
 * `live` holds rows fetched from a data source for some data sets; the others use the rows the definition carries.
 */
export function layout(
  model: RdlModel,
  base: Omit<EvalScope, 'fields' | 'page'>,
  settings: Record<string, string>,
  live?: Map<string, Array<Record<string, string>>>,
): Rendered {
  const heightIn =
    settings.UseReportPageSize === 'false' ? inches(settings.PageHeight, 11) : inches(settings.PageHeight ?? model.pageHeight, 11);
  const widthIn = inches(settings.PageWidth ?? model.pageWidth, 8.5);
  const linesPerPage = Math.max(3, Math.floor((heightIn - 1.8) * 4));
  const body: Line[] = [];
  const texts: Rendered['texts'] = [];
  // Rows of each data set (filters applied) and of each data region, for aggregates with a scope argument.
  const scopes: NonNullable<EvalScope['scopes']> = new Map();
  for (const ds of model.dataSets)
    scopes.set(ds.name, { rows: dataSetRows(ds, base, live), fieldNames: ds.fields.map((f) => f.name), dataSet: true });
  for (const t of model.tables) {
    const set = scopes.get(t.dataSetName);
    scopes.set(t.name, { rows: set?.rows ?? [], fieldNames: set?.fieldNames ?? [], dataSet: false });
  }
  const bodyBoxes = model.textboxes.filter((t) => t.region === 'body');
  const where = (name: string, i: number) => `Value expression for the textrun '${name}.Paragraphs[${i}].TextRuns[0]'`;
  // ReportItems!X.Value: a body text box's value, evaluated once (on first reference when another box reads it).
  const itemValues = new Map<string, Value>();
  const reportItems = (name: string): Value | undefined => {
    const tb = bodyBoxes.find((t) => t.name === name);
    if (!tb) return undefined;
    if (!itemValues.has(name)) {
      itemValues.set(name, null);
      const v = tb.paragraphs.map((p, i) => evaluate(p, scope, where(tb.name, i))).join('\n');
      itemValues.set(name, v);
    }
    return itemValues.get(name)!;
  };
  const scope: EvalScope = { ...base, scopes, reportItems };
  for (const tb of bodyBoxes) {
    const text = reportItems(tb.name) as string;
    texts.push({ name: tb.name, text });
    const title = tb.name === bodyBoxes[0]?.name;
    // Text wraps at the page's width (Helvetica averages about half its size per character).
    const perLine = Math.max(20, Math.floor(((widthIn - 1) * 72) / ((title ? 14 : 10) * 0.5)));
    for (const [i, line] of text
      .split('\n')
      .flatMap((l) => wrap(l, perLine))
      .entries())
      body.push({ kind: 'text', text: line, title: title && i === 0 });
  }
  const tables: TableData[] = model.tables.map((t) => {
    const ds = model.dataSets.find((d) => d.name === t.dataSetName);
    const records = scopes.get(t.name)!.rows;
    const fieldNames = ds?.fields.map((f) => f.name) ?? [];
    const cellWhere = (r: number, c: number) =>
      `Value expression for the textrun '${t.cellNames?.[r]?.[c] || `${t.name}.Cell[${r}][${c}]`}.Paragraphs[0].TextRuns[0]'`;
    // Rows outside the detail (headers, totals) see all the region's rows: their aggregates read them.
    const regionScope: EvalScope = { ...scope, rows: records, fieldNames };
    if (t.hierarchy) {
      const { heads, rows } = renderHierarchy({ ...t, hierarchy: t.hierarchy }, records, regionScope, fieldNames);
      return { name: t.name, dataSet: ds, heads, rows, fieldNames, records };
    }
    const [head = [], ...rest] = t.rows;
    const headers = head.map((c, j) => evaluate(c, regionScope, cellWhere(0, j)));
    const rows = rest.flatMap((r, k) =>
      r.some(usesRowFields)
        ? records.map((rec, index) =>
            r.map((c, j) =>
              evaluate(c, { ...regionScope, fields: rec, rows: [rec], region: { rows: records, index } }, cellWhere(k + 1, j)),
            ),
          )
        : [r.map((c, j) => evaluate(c, regionScope, cellWhere(k + 1, j)))],
    );
    return { name: t.name, dataSet: ds, heads: [headers], rows, fieldNames, records };
  });
  for (const t of tables) {
    body.push({ kind: 'text', text: '' });
    for (const head of t.heads) body.push({ kind: 'header', table: t.name, cells: head });
    for (const r of t.rows) body.push({ kind: 'row', table: t.name, cells: r });
  }
  const chunks: Line[][] = [];
  for (let i = 0; i < Math.max(1, body.length); i += linesPerPage) chunks.push(body.slice(i, i + linesPerPage));
  const total = chunks.length;
  const region = (r: 'header' | 'footer', n: number) =>
    model.textboxes
      .filter((t) => t.region === r)
      .flatMap((tb) => tb.paragraphs.map((p, i) => evaluate(p, { ...scope, page: { number: n, total } }, where(tb.name, i))));
  const pages = chunks.map((lines, i) => {
    // A table continued on a new page repeats its heading rows.
    const first = lines[0];
    if (i > 0 && first?.kind === 'row') {
      const heads = body.filter((l) => l.kind === 'header' && l.table === first.table);
      if (heads.length) lines = [...heads, ...lines];
    }
    return { number: i + 1, header: region('header', i + 1), lines, footer: region('footer', i + 1) };
  });
  return {
    reportName: base.reportName,
    executionTime: base.executionTime,
    userId: base.user.userId,
    language: base.user.language,
    parameters: base.parameters,
    texts,
    tables,
    pages,
    pageWidthIn: widthIn,
    pageHeightIn: heightIn,
  };
}

/** The pages StartPage/EndPage select (1-based, inclusive; 0 or absent = all). */
export function selectPages(r: Rendered, settings: Record<string, string>): Page[] {
  const start = Math.max(1, Number(settings.StartPage) || 1);
  const end = Number(settings.EndPage) || r.pages.length;
  return r.pages.filter((p) => p.number >= start && p.number <= Math.min(end, r.pages.length));
}
