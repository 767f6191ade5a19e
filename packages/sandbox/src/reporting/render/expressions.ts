import { evaluateNode } from './expr/evaluator.js';
import { type Node, parse } from './expr/parser.js';
import type { EvalScope } from './expr/scope.js';
import { CompileError, ExpressionError, display, isoDate, numberText, type Value } from './expr/values.js';

export type { EvalScope, Row } from './expr/scope.js';
export type { Value } from './expr/values.js';

/**
 * The render cannot go on: an expression the service would not compile or process. The message is the service's
 * processing error (rsProcessingAborted) with the expression's own error and code; the export job fails with it.
 */
export class ReportProcessingError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(`An error has occurred during report processing. (rsProcessingAborted) ${detail} (${code})`);
  }
}

/** Where an expression sits, as the service names it: "Value expression for the textrun 'Title.Paragraphs[0].TextRuns[0]'". */
export type Where = string;

const parsed = new Map<string, Node | CompileError>();

function tree(src: string): Node {
  let t = parsed.get(src);
  if (t === undefined) {
    try {
      t = parse(src);
    } catch (err) {
      if (!(err instanceof CompileError)) throw err;
      t = err;
    }
    if (parsed.size > 5000) parsed.clear();
    parsed.set(src, t);
  }
  if (t instanceof CompileError) throw t;
  return t;
}

/** The processing error for a compile error at `where`. */
function processingError(err: CompileError, where: Where): ReportProcessingError {
  const sentence = err.code === 'rsCompilerErrorInExpression' ? `contains an error: ${err.detail}` : err.detail;
  return new ReportProcessingError(err.code, `The ${where} ${sentence}`);
}

/**
 * Evaluates an expression to a typed value. A literal (no leading '=') is its own text. Undefined stands for a runtime
 * error (#Error); a compile error throws ReportProcessingError.
 */
export function evaluateTyped(expr: string, scope: EvalScope, where: Where = 'Value expression'): Value | undefined {
  if (!expr.startsWith('=')) return expr;
  try {
    return evaluateNode(tree(expr.slice(1)), scope);
  } catch (err) {
    if (err instanceof ExpressionError) return undefined;
    if (err instanceof CompileError) throw processingError(err, where);
    throw err;
  }
}

/** Evaluates an expression where a runtime error also stops the processing (parameter defaults and valid values). */
export function evaluateStrict(expr: string, scope: EvalScope, where: Where): Value {
  if (!expr.startsWith('=')) return expr;
  try {
    return evaluateNode(tree(expr.slice(1)), scope);
  } catch (err) {
    if (err instanceof ExpressionError)
      throw new ReportProcessingError('rsRuntimeErrorInExpression', `The ${where} contains an error: ${err.message}`);
    if (err instanceof CompileError) throw processingError(err, where);
    throw err;
  }
}

/** Evaluates an expression to the text a text box shows; a runtime error shows #Error, like the service. */
export function evaluate(expr: string, scope: EvalScope, where?: Where): string {
  const v = evaluateTyped(expr, scope, where);
  if (v === undefined || Array.isArray(v)) return '#Error';
  return display(v);
}

/** A value as data text: what query parameters and filters compare (dates in ISO form, True/False, numbers). */
export function dataText(v: Value): string | null {
  if (v === null) return null;
  if (v instanceof Date) return isoDate(v);
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return v.map((x) => dataText(x) ?? '').join(',');
  return v;
}

/** Evaluates an expression to data text, a list for a multi-value result (filters and query parameters). */
export function evaluateValue(expr: string, scope: EvalScope, where?: Where): string | Array<string | null> | null {
  const v = evaluateTyped(expr, scope, where);
  if (v === undefined) return '#Error';
  return Array.isArray(v) ? v.map(dataText) : dataText(v);
}

/** Whether an expression reads the current row's fields outside an aggregate (a data region's detail row). */
export function usesRowFields(expr: string): boolean {
  if (!expr.startsWith('=')) return false;
  let t: Node;
  try {
    t = tree(expr.slice(1));
  } catch {
    return /Fields!/i.test(expr);
  }
  const walk = (n: Node, inAggregate: boolean): boolean => {
    switch (n.k) {
      case 'bang':
        return !inAggregate && n.coll.toLowerCase() === 'fields';
      case 'member':
        return walk(n.obj, inAggregate);
      case 'un':
        return walk(n.e, inAggregate);
      case 'bin':
        return walk(n.l, inAggregate) || walk(n.r, inAggregate);
      case 'call': {
        const name = n.fn.k === 'id' ? n.fn.name.toLowerCase() : '';
        const agg = /^(sum|avg|count|countdistinct|countrows|min|max|first|last|stdev|var|previous)$/.test(name);
        if (n.fn.k === 'id' && name === 'fields') return !inAggregate;
        return walk(n.fn, inAggregate) || n.args.some((a) => walk(a, inAggregate || agg));
      }
      default:
        return false;
    }
  };
  return walk(t, false) || /\bRowNumber\s*\(/i.test(expr);
}
