// Checks an expression as it is typed, with the report language the reporting emulator renders with (its parser and
// evaluator, pure code): syntax, the fields, parameters and built-in fields it names, functions and their arguments.

import { AGGREGATES } from '../../../../sandbox/src/reporting/render/expr/aggregates.js';
import { evaluateNode } from '../../../../sandbox/src/reporting/render/expr/evaluator.js';
import { CONSTANTS, FUNCTIONS } from '../../../../sandbox/src/reporting/render/expr/functions.js';
import { type Node, parse } from '../../../../sandbox/src/reporting/render/expr/parser.js';
import type { EvalScope } from '../../../../sandbox/src/reporting/render/expr/scope.js';
import { CompileError } from '../../../../sandbox/src/reporting/render/expr/values.js';
import type { ParameterDef } from './params.js';

/** The built-in fields (Globals and User), as SPEC.md lists them. */
export const BUILT_IN_FIELDS = [
  'Globals!ExecutionTime',
  'Globals!ReportName',
  'Globals!ReportFolder',
  'Globals!OverallPageNumber',
  'Globals!OverallTotalPages',
  'Globals!PageNumber',
  'Globals!TotalPages',
  'User!UserID',
  'User!Language',
] as const;

/** The report language's functions by category, for the expression editor's lists. */
export const FUNCTION_CATEGORIES: Record<string, string[]> = {
  Aggregate: ['Sum', 'Avg', 'Count', 'CountDistinct', 'CountRows', 'Min', 'Max', 'First', 'Last', 'StDev', 'Var', 'RowNumber', 'Previous'],
  Text: [
    'Format',
    'FormatNumber',
    'FormatCurrency',
    'FormatPercent',
    'Left',
    'Right',
    'Mid',
    'Len',
    'UCase',
    'LCase',
    'Trim',
    'Replace',
    'InStr',
    'Join',
    'Split',
  ],
  'Date & Time': [
    'Now',
    'Today',
    'DateAdd',
    'DateDiff',
    'DatePart',
    'Year',
    'Month',
    'Day',
    'MonthName',
    'WeekdayName',
    'FormatDateTime',
    'CDate',
  ],
  Math: ['Round', 'Abs', 'Ceiling', 'Floor', 'Sqrt', 'Pow'],
  'Program flow': ['IIf', 'If', 'Switch', 'Choose'],
  Inspection: ['IsNothing', 'IsNumeric', 'IsDate'],
  Conversion: ['CStr', 'CInt', 'CDbl', 'CDec', 'CBool', 'CLng'],
};

/** What an expression may name: the report's parameters, and the fields of the data set in scope. */
export interface ExpressionContext {
  parameters: ParameterDef[];
  /** Fields in scope (a data region's data set, or the report's only data set). */
  fields: string[];
  /** Data sets and data regions an aggregate's scope argument may name. */
  scopes: string[];
  /** In the page header or footer: page numbers are allowed. */
  page?: boolean;
}

export interface ExpressionProblem {
  message: string;
  /** 0-based offset in the expression text, when known. */
  at?: number;
}

const COLLECTIONS = ['parameters', 'fields', 'globals', 'user', 'reportitems'];
const KNOWN_CALLS = new Set([...Object.keys(FUNCTIONS), ...AGGREGATES, 'if', 'rownumber', 'previous', 'iif', 'switch', 'choose']);

/** Names the expression calls as functions that the language does not know (dotted names are left to the evaluator). */
function unknownCalls(n: Node, out: string[]): void {
  if (n.k === 'call') {
    if (n.fn.k === 'id') {
      const name = n.fn.name.toLowerCase();
      if (!KNOWN_CALLS.has(name) && !COLLECTIONS.includes(name) && !(name in CONSTANTS)) out.push(n.fn.name);
    } else unknownCalls(n.fn, out);
    for (const a of n.args) unknownCalls(a, out);
  } else if (n.k === 'member') unknownCalls(n.obj, out);
  else if (n.k === 'un') unknownCalls(n.e, out);
  else if (n.k === 'bin') {
    unknownCalls(n.l, out);
    unknownCalls(n.r, out);
  }
}

/** Every Collection!Member the expression names. */
function bangs(n: Node, out: Array<{ coll: string; member: string }>): void {
  if (n.k === 'bang') out.push({ coll: n.coll, member: n.member });
  else if (n.k === 'call') {
    bangs(n.fn, out);
    for (const a of n.args) bangs(a, out);
  } else if (n.k === 'member') bangs(n.obj, out);
  else if (n.k === 'un') bangs(n.e, out);
  else if (n.k === 'bin') {
    bangs(n.l, out);
    bangs(n.r, out);
  }
}

/** Problems of an expression (a value not starting with '=' is literal text and has none). */
export function checkExpression(value: string, ctx: ExpressionContext): ExpressionProblem[] {
  if (!value.startsWith('=')) return [];
  let tree: Node;
  try {
    tree = parse(value.slice(1));
  } catch (err) {
    if (err instanceof CompileError) return [{ message: err.detail }];
    throw err;
  }
  const problems: ExpressionProblem[] = [];
  const named: Array<{ coll: string; member: string }> = [];
  bangs(tree, named);
  const params = new Set(ctx.parameters.map((p) => p.name));
  for (const { coll, member } of named) {
    const c = coll.toLowerCase();
    if (c === 'fields' && !ctx.fields.includes(member))
      problems.push({
        message: `Fields!${member}: no field of that name in scope${ctx.fields.length ? ` (${ctx.fields.join(', ')})` : ''}`,
      });
    if (c === 'parameters' && !params.has(member))
      problems.push({ message: `Parameters!${member}: the report has no parameter of that name` });
    if (
      (c === 'globals' || c === 'user') &&
      !BUILT_IN_FIELDS.some((f) => f === `${coll}!${member}`) &&
      member !== 'RenderFormat' &&
      member !== 'PageName'
    )
      problems.push({ message: `${coll}!${member} is not a built-in field` });
    if (c === 'globals' && !ctx.page && /PageNumber|TotalPages/.test(member))
      problems.push({ message: `Globals!${member} is allowed only in the page header or footer` });
  }
  const calls: string[] = [];
  unknownCalls(tree, calls);
  for (const f of calls) problems.push({ message: `${f} is not a function of the report language` });
  if (problems.length) return problems;
  // The same evaluation the renderer makes, over one empty row: what would not compile there is a problem here.
  const row = Object.fromEntries(ctx.fields.map((f) => [f, '']));
  const scope: EvalScope = {
    reportName: 'Report',
    executionTime: new Date(),
    user: { userId: 'user@example.com', language: 'en-US' },
    renderFormat: 'PDF',
    parameters: new Map(
      ctx.parameters.map((p) => [
        p.name,
        { parameter: { name: p.name, dataType: p.dataType, multiValue: p.multiValue } as never, values: [], labels: [] },
      ]),
    ),
    fields: row,
    fieldNames: ctx.fields,
    rows: [row],
    scopes: new Map(ctx.scopes.map((s) => [s, { rows: [row], fieldNames: ctx.fields, dataSet: true }])),
    ...(ctx.page ? { page: { number: 1, total: 1 } } : {}),
    reportItems: () => '',
  };
  try {
    evaluateNode(tree, scope);
  } catch (err) {
    if (err instanceof CompileError) problems.push({ message: err.detail });
  }
  return problems;
}

/** What an expression of an item may name: the fields of its data region's data set (else the only one), the page in headers. */
export function contextFor(
  doc: { find(name: string): import('./xml.js').XElement | undefined; root: import('./xml.js').XElement },
  sets: Array<{ name: string; fields: Array<{ name: string }> }>,
  parameters: ParameterDef[],
  itemName?: string,
): ExpressionContext {
  const el = itemName ? doc.find(itemName) : undefined;
  let dataSet: string | undefined;
  let page = false;
  const regions: string[] = [];
  for (let up = el; up; up = up.parent) {
    const local = up.name.slice(up.name.indexOf(':') + 1);
    if (local === 'Tablix' && !dataSet) {
      const ds = up.children.find((c) => c.kind === 'el' && c.name === 'DataSetName');
      dataSet =
        ds && ds.kind === 'el'
          ? ds.children
              .map((c) => (c.kind === 'text' ? c.raw : ''))
              .join('')
              .trim()
          : undefined;
    }
    if (local === 'Tablix') regions.push(up.attrs.Name ?? '');
    if (local === 'PageHeader' || local === 'PageFooter') page = true;
  }
  const set = sets.find((s) => s.name === dataSet) ?? (sets.length === 1 ? sets[0] : undefined);
  return { parameters, fields: set?.fields.map((f) => f.name) ?? [], scopes: [...sets.map((s) => s.name), ...regions], page };
}
