import type { ParameterValues } from '../params.js';
import type { RdlDataSet, RdlModel } from '../rdl.js';
import { evaluate, evaluateValue, type EvalScope } from './expressions.js';

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
  headers: string[];
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

function rowsOf(ds: RdlDataSet, scope: EvalScope, live?: Map<string, Array<Record<string, string>>>): Array<Record<string, string>> {
  return (live?.get(ds.name) ?? ds.rows)
    .map((raw) => Object.fromEntries(ds.fields.map((f) => [f.name, raw[f.dataField] ?? ''])))
    .filter((rec) =>
      ds.filters.every((f) => {
        const left = evaluateValue(f.expression, { ...scope, fields: rec });
        const rights = f.values.flatMap((v) => {
          const x = evaluateValue(v, { ...scope, fields: rec });
          return Array.isArray(x) ? x : [x];
        });
        const l = Array.isArray(left) ? left[0] : left;
        switch (f.operator) {
          case 'Equal':
          case 'In':
            return rights.some((r) => r === l);
          case 'NotEqual':
            return rights.every((r) => r !== l);
          case 'Like':
            return rights.some((r) =>
              new RegExp(
                `^${String(r)
                  .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                  .replace(/\*/g, '.*')}$`,
                'i',
              ).test(String(l)),
            );
          default:
            return true;
        }
      }),
    );
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
  for (const tb of model.textboxes.filter((t) => t.region === 'body')) {
    const text = tb.paragraphs.map((p) => evaluate(p, base)).join('\n');
    texts.push({ name: tb.name, text });
    const title = tb.name === model.textboxes.find((t) => t.region === 'body')?.name;
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
    const records = ds ? rowsOf(ds, base, live) : [];
    const [head = [], ...rest] = t.rows;
    const headers = head.map((c) => evaluate(c, base));
    const rows = rest.flatMap((r) =>
      r.some((c) => /Fields!/.test(c))
        ? records.map((rec) => r.map((c) => evaluate(c, { ...base, fields: rec })))
        : [r.map((c) => evaluate(c, base))],
    );
    return { name: t.name, dataSet: ds, headers, rows, fieldNames: ds?.fields.map((f) => f.name) ?? [], records };
  });
  for (const t of tables) {
    body.push({ kind: 'text', text: '' });
    body.push({ kind: 'header', table: t.name, cells: t.headers });
    for (const r of t.rows) body.push({ kind: 'row', table: t.name, cells: r });
  }
  const chunks: Line[][] = [];
  for (let i = 0; i < Math.max(1, body.length); i += linesPerPage) chunks.push(body.slice(i, i + linesPerPage));
  const total = chunks.length;
  const region = (r: 'header' | 'footer', n: number) =>
    model.textboxes
      .filter((t) => t.region === r)
      .flatMap((tb) => tb.paragraphs.map((p) => evaluate(p, { ...base, page: { number: n, total } })));
  const pages = chunks.map((lines, i) => {
    // A table continued on a new page repeats its header row.
    const first = lines[0];
    if (i > 0 && first?.kind === 'row') {
      const head = body.find((l) => l.kind === 'header' && l.table === first.table);
      if (head) lines = [head, ...lines];
    }
    return { number: i + 1, header: region('header', i + 1), lines, footer: region('footer', i + 1) };
  });
  return {
    reportName: base.reportName,
    executionTime: base.executionTime,
    userId: base.userId,
    language: base.language,
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
