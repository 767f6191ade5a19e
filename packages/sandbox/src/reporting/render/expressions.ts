import type { ParameterValues } from '../params.js';

/** What an expression can see: built-in fields, parameters, and the current row's fields. */
export interface EvalScope {
  reportName: string;
  executionTime: Date;
  userId: string;
  language: string;
  renderFormat: string;
  parameters: Map<string, ParameterValues>;
  fields?: Record<string, string>;
  page?: { number: number; total: number };
}

type Value = string | Array<string | null> | null;

/** ExecutionTime as the en-US renderers show it: 1/15/2025 10:30:00 AM (UTC). */
function usDateTime(d: Date): string {
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

class ExpressionError extends Error {}

/**
 * Evaluates the expression subset reports use in text: string and number literals, `&` and `+` concatenation,
 * Globals!*, User!*, Parameters!X.Value/.Label/.Count, Fields!X.Value and Join/Format/CStr/UCase/LCase/Trim/Now/Today.
 * A literal (no leading '=') is its own text; what cannot be evaluated renders as #Error, like the service.
 */
export function evaluate(expr: string, scope: EvalScope): string {
  if (!expr.startsWith('=')) return expr;
  try {
    const v = new Parser(expr.slice(1), scope).parse();
    return show(v);
  } catch (err) {
    if (err instanceof ExpressionError) return '#Error';
    throw err;
  }
}

/** Evaluates an expression to a value (filters compare lists). */
export function evaluateValue(expr: string, scope: EvalScope): Value {
  if (!expr.startsWith('=')) return expr;
  try {
    return new Parser(expr.slice(1), scope).parse();
  } catch (err) {
    if (err instanceof ExpressionError) return '#Error';
    throw err;
  }
}

function show(v: Value): string {
  if (v === null) return '';
  if (Array.isArray(v)) throw new ExpressionError('a multi-value parameter needs Join');
  return v;
}

class Parser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly scope: EvalScope,
  ) {}

  parse(): Value {
    const v = this.concat();
    this.ws();
    if (this.i < this.s.length) throw new ExpressionError(`unexpected '${this.s.slice(this.i)}'`);
    return v;
  }

  private ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private concat(): Value {
    let left = this.term();
    for (;;) {
      this.ws();
      const op = this.s[this.i];
      if (op !== '&' && op !== '+') return left;
      this.i++;
      const right = this.term();
      if (
        op === '+' &&
        typeof left === 'string' &&
        typeof right === 'string' &&
        left !== '' &&
        right !== '' &&
        Number.isFinite(Number(left)) &&
        Number.isFinite(Number(right))
      )
        left = String(Number(left) + Number(right));
      else left = show(left) + show(right);
    }
  }

  private args(): Value[] {
    this.ws();
    if (this.s[this.i] !== '(') return [];
    this.i++;
    const out: Value[] = [];
    this.ws();
    if (this.s[this.i] === ')') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.concat());
      this.ws();
      const c = this.s[this.i++];
      if (c === ')') return out;
      if (c !== ',') throw new ExpressionError('expected , or )');
    }
  }

  private term(): Value {
    this.ws();
    const c = this.s[this.i];
    if (c === '"') {
      let out = '';
      this.i++;
      for (;;) {
        if (this.i >= this.s.length) throw new ExpressionError('unterminated string');
        const ch = this.s[this.i++]!;
        if (ch === '"') {
          if (this.s[this.i] === '"') {
            out += '"';
            this.i++;
          } else return out;
        } else out += ch;
      }
    }
    if (c === '(') {
      this.i++;
      const v = this.concat();
      this.ws();
      if (this.s[this.i++] !== ')') throw new ExpressionError('expected )');
      return v;
    }
    const num = /^-?\d+(\.\d+)?/.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      return num[0];
    }
    const id = /^([A-Za-z_]\w*)(!([A-Za-z_]\w*)(\.([A-Za-z_]\w*))?)?/.exec(this.s.slice(this.i));
    if (!id) throw new ExpressionError('expected a term');
    this.i += id[0].length;
    const [, head, , member, , prop] = id;
    if (member !== undefined) return this.collection(head!, member, prop);
    return this.call(head!, this.args());
  }

  private collection(head: string, member: string, prop: string | undefined): Value {
    const sc = this.scope;
    switch (head) {
      case 'Globals':
        switch (member) {
          case 'ExecutionTime':
            return usDateTime(sc.executionTime);
          case 'ReportName':
            return sc.reportName;
          case 'ReportFolder':
            return '';
          case 'ReportServerUrl':
            return '';
          case 'PageNumber':
          case 'OverallPageNumber':
            if (!sc.page) throw new ExpressionError('page fields are for page headers and footers');
            return String(sc.page.number);
          case 'TotalPages':
          case 'OverallTotalPages':
            if (!sc.page) throw new ExpressionError('page fields are for page headers and footers');
            return String(sc.page.total);
          case 'PageName':
            return '';
          case 'RenderFormat':
            return prop === 'IsInteractive' ? 'False' : sc.renderFormat;
          default:
            throw new ExpressionError(`unknown Globals!${member}`);
        }
      case 'User':
        if (member === 'UserID') return sc.userId;
        if (member === 'Language') return sc.language;
        throw new ExpressionError(`unknown User!${member}`);
      case 'Parameters': {
        const p = sc.parameters.get(member);
        if (!p) throw new ExpressionError(`unknown parameter ${member}`);
        if (prop === 'Count') return String(p.values.length);
        if (prop === 'IsMultiValue') return p.parameter.multiValue ? 'True' : 'False';
        const list = prop === 'Label' ? p.labels : p.values;
        return p.parameter.multiValue ? list : (list[0] ?? null);
      }
      case 'Fields':
        if (!sc.fields) throw new ExpressionError('Fields are only in scope inside a data region');
        if (!(member in sc.fields)) throw new ExpressionError(`unknown field ${member}`);
        return sc.fields[member] ?? null;
      default:
        throw new ExpressionError(`unknown collection ${head}`);
    }
  }

  private call(name: string, args: Value[]): Value {
    const str = (v: Value | undefined) => show(v ?? null);
    switch (name.toLowerCase()) {
      case 'join': {
        const list = args[0];
        return (Array.isArray(list) ? list : [list ?? null]).map((x) => x ?? '').join(args[1] === undefined ? ' ' : str(args[1]));
      }
      case 'cstr':
      case 'format':
      case 'formatdatetime':
      case 'formatnumber':
        return str(args[0]);
      case 'ucase':
        return str(args[0]).toUpperCase();
      case 'lcase':
        return str(args[0]).toLowerCase();
      case 'trim':
        return str(args[0]).trim();
      case 'now':
        return usDateTime(new Date());
      case 'today':
        return usDateTime(new Date(new Date().toISOString().slice(0, 10))).replace(/ .*$/, ' 12:00:00 AM');
      case 'nothing':
        return null;
      case 'true':
        return 'True';
      case 'false':
        return 'False';
      default:
        throw new ExpressionError(`unsupported function ${name}`);
    }
  }
}
