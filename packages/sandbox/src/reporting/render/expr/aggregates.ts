import type { Node } from './parser.js';
import type { EvalScope, Row } from './scope.js';
import { compare } from './operators.js';
import { CompileError, ExpressionError, numericText, toNum, toStr, type Value } from './values.js';

/** Aggregate functions: the first argument is evaluated per row of the scope; an optional scope name comes last. */
export const AGGREGATES = new Set(['sum', 'avg', 'count', 'countdistinct', 'countrows', 'min', 'max', 'first', 'last', 'stdev', 'var']);

type Evaluate = (node: Node, scope: EvalScope) => Value;

/** The rows an aggregate reads: the named data set or data region, else the rows in scope, else the only data set. */
function rowsFor(name: string, scopeArg: Node | undefined, scope: EvalScope): { rows: Row[]; fieldNames?: string[] } {
  if (scopeArg) {
    if (scopeArg.k === 'lit' && scopeArg.v === null) return { rows: scope.rows ?? [], fieldNames: scope.fieldNames };
    if (scopeArg.k !== 'lit' || typeof scopeArg.v !== 'string')
      throw new CompileError(
        'rsInvalidAggregateScope',
        `has a scope parameter that is not valid for an aggregate function. The scope parameter must be set to a string constant that is equal to either the name of a containing group, the name of a containing data region, or the name of a dataset.`,
      );
    const named = scope.scopes?.get(scopeArg.v);
    if (!named)
      throw new CompileError(
        'rsInvalidAggregateScope',
        `has a scope parameter '${scopeArg.v}' that is not valid for an aggregate function. The scope parameter must be set to a string constant that is equal to either the name of a containing group, the name of a containing data region, or the name of a dataset.`,
      );
    return named;
  }
  if (scope.rows) return { rows: scope.rows, fieldNames: scope.fieldNames };
  const sets = [...(scope.scopes?.entries() ?? [])].filter(([, s]) => s.dataSet);
  if (sets.length === 1) return sets[0]![1];
  throw new CompileError(
    'rsMissingAggregateScope',
    `uses an aggregate expression without a scope. A scope is required for all aggregates used outside of a data region unless the report contains exactly one dataset. (${name})`,
  );
}

const numeric = (vs: Value[], name: string) =>
  vs.map((v) => {
    try {
      return toNum(v);
    } catch {
      throw new ExpressionError(
        `uses a numeric aggregate function (${name}) on data that is not numeric. Numeric aggregate functions (Sum, Avg, StDev, Var, StDevP, and VarP) can only aggregate numeric data.`,
      );
    }
  });

/** Evaluates an aggregate call over the rows of its scope. */
export function aggregate(name: string, args: Node[], scope: EvalScope, evaluate: Evaluate): Value {
  const n = name.toLowerCase();
  const [expr, scopeArg, ...extra] = n === 'countrows' ? [undefined, ...args] : args;
  if (extra.length || (n !== 'countrows' && !expr))
    throw new CompileError('rsCompilerErrorInExpression', `[BC30057] Too many or too few arguments to '${name}'.`);
  const { rows, fieldNames } = rowsFor(name, scopeArg, scope);
  if (n === 'countrows') return rows.length;
  const values = rows.map((fields) => evaluate(expr!, { ...scope, fields, fieldNames, rows: [fields] }));
  const present = values.filter((v) => v !== null);
  switch (n) {
    case 'count':
      return present.length;
    case 'countdistinct':
      return new Set(present.map((v) => (v instanceof Date ? `d${v.getTime()}` : `${typeof v}:${toStr(v)}`))).size;
    case 'first':
      return values[0] ?? null;
    case 'last':
      return values.at(-1) ?? null;
    case 'min':
    case 'max': {
      // Numeric text (a numeric field as the renderer receives it) compares as numbers.
      const asNumbers = present.every((v) => typeof v === 'number' || (typeof v === 'string' && numericText(v)));
      const order = (a: Value, b: Value) => (asNumbers ? toNum(a) - toNum(b) : compare(a, b));
      return present.reduce<Value>((acc, v) => (acc === null || (n === 'min' ? order(v, acc) < 0 : order(v, acc) > 0) ? v : acc), null);
    }
    case 'sum': {
      if (!present.length) return null;
      const ns = numeric(present, 'Sum');
      return Number(ns.reduce((a, b) => a + b, 0).toPrecision(15));
    }
    case 'avg': {
      if (!present.length) return null;
      const ns = numeric(present, 'Avg');
      return ns.reduce((a, b) => a + b, 0) / ns.length;
    }
    default: {
      const ns = numeric(present, n === 'stdev' ? 'StDev' : 'Var');
      if (ns.length < 2) return null;
      const mean = ns.reduce((a, b) => a + b, 0) / ns.length;
      const variance = ns.reduce((a, b) => a + (b - mean) ** 2, 0) / (ns.length - 1);
      return n === 'stdev' ? Math.sqrt(variance) : variance;
    }
  }
}

/** RowNumber(Nothing | scope): the running count of rows in the data region (or in the named scope, which holds it). */
export function rowNumber(args: Node[], scope: EvalScope): Value {
  if (args.length !== 1) throw new CompileError('rsCompilerErrorInExpression', "[BC30057] Too many or too few arguments to 'RowNumber'.");
  const a = args[0]!;
  if (!(a.k === 'lit' && (a.v === null || typeof a.v === 'string')))
    throw new CompileError(
      'rsInvalidAggregateScope',
      'has a scope parameter that is not valid for RowNumber. The scope parameter must be Nothing or a string constant naming a containing scope.',
    );
  if (typeof a.v === 'string' && !scope.scopes?.has(a.v))
    throw new CompileError('rsInvalidAggregateScope', `has a scope parameter '${a.v}' that is not valid for RowNumber.`);
  if (scope.region) return scope.region.index + 1;
  return (scope.rows ?? []).length;
}

/** Previous(expression): the expression's value on the data region's previous row; Nothing on the first. */
export function previous(args: Node[], scope: EvalScope, evaluate: Evaluate): Value {
  if (args.length !== 1) throw new CompileError('rsCompilerErrorInExpression', "[BC30057] Too many or too few arguments to 'Previous'.");
  if (!scope.region)
    throw new CompileError('rsInvalidPreviousAggregateUsage', 'uses the Previous function outside of a data region detail row.');
  const { rows, index } = scope.region;
  if (index === 0) return null;
  const fields = rows[index - 1]!;
  return evaluate(args[0]!, { ...scope, fields, rows: [fields], region: { rows, index: index - 1 } });
}
