import type { ParameterValues } from '../../params.js';
import { AGGREGATES, aggregate, previous, rowNumber } from './aggregates.js';
import { DATE_INTERVALS } from './dates.js';
import { CONSTANTS, FUNCTIONS, method } from './functions.js';
import { binary, unary } from './operators.js';
import type { Node } from './parser.js';
import type { EvalScope } from './scope.js';
import { CompileError, ExpressionError, parseDate, toBool, toInt, type Value } from './values.js';

const notDeclared = (name: string) => new CompileError('rsCompilerErrorInExpression', `[BC30451] Name '${name}' is not declared.`);
const notMember = (name: string, of: string) =>
  new CompileError('rsCompilerErrorInExpression', `[BC30456] '${name}' is not a member of '${of}'.`);

/** Namespaces and modules a qualified call may name (Microsoft.VisualBasic.Strings.Left, Math.Round, DateTime.Now …). */
const QUALIFIERS =
  /^(system\.|microsoft\.visualbasic\.)?(strings\.|dateandtime\.|conversion\.|interaction\.|information\.|datetime\.|convert\.)?/;

/** Renderer extension names of Globals!RenderFormat.Name, by export format. */
const RENDER_NAMES: Record<string, string> = { DOCX: 'WORDOPENXML', XLSX: 'EXCELOPENXML', ACCESSIBLEPDF: 'PDF', PNG: 'IMAGE' };

/** A dotted name (Math.Round) when the node is one, lower-cased. */
function dotted(n: Node): string | undefined {
  if (n.k === 'id') return n.name.toLowerCase();
  if (n.k === 'member') {
    const head = dotted(n.obj);
    return head === undefined ? undefined : `${head}.${n.name.toLowerCase()}`;
  }
  return undefined;
}

const KNOWN_ROOTS = new Set([
  'math',
  'system',
  'microsoft',
  'strings',
  'dateandtime',
  'conversion',
  'interaction',
  'information',
  'datetime',
  'convert',
  'dateinterval',
  'dateformat',
  'comparemethod',
  'tristate',
  'firstdayofweek',
]);

/** A parameter's values typed by its data type (DateTime → Date, Integer/Float → number, Boolean → boolean). */
function typed(p: ParameterValues, v: string | null): Value {
  if (v === null) return null;
  switch (p.parameter.dataType) {
    case 'Integer':
    case 'Float':
      return Number(v);
    case 'Boolean':
      return v === 'True';
    case 'DateTime':
      return parseDate(v) ?? v;
    default:
      return v;
  }
}

/** Evaluates a parsed expression in a scope. */
export function evaluateNode(n: Node, scope: EvalScope): Value {
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'un':
      return unary(n.op, evaluateNode(n.e, scope));
    case 'bin': {
      if (n.op === 'andalso') return toBool(evaluateNode(n.l, scope)) ? toBool(evaluateNode(n.r, scope)) : false;
      if (n.op === 'orelse') return toBool(evaluateNode(n.l, scope)) ? true : toBool(evaluateNode(n.r, scope));
      return binary(n.op, evaluateNode(n.l, scope), evaluateNode(n.r, scope));
    }
    case 'bang':
      return collection(n.coll, n.member, undefined, scope);
    case 'id':
      return name(n.name);
    case 'member':
      return member(n, scope);
    case 'call':
      return call(n, scope);
  }
}

function name(id: string): Value {
  const lower = id.toLowerCase();
  if (lower in CONSTANTS) return CONSTANTS[lower]!;
  const fn = FUNCTIONS[lower];
  if (fn && fn[0] === 0) return fn[2]([]);
  if (['parameters', 'fields', 'globals', 'user', 'reportitems'].includes(lower))
    throw new CompileError('rsCompilerErrorInExpression', `[BC30455] ${id} needs a member (${id}!Name).`);
  throw notDeclared(id);
}

function member(n: Extract<Node, { k: 'member' }>, scope: EvalScope): Value {
  const obj = n.obj;
  if (obj.k === 'bang') return collection(obj.coll, obj.member, n.name, scope);
  const path = dotted(n);
  const root = path?.split('.')[0];
  if (path && root === 'code') throw codeRefused(n.name);
  if (path && root && KNOWN_ROOTS.has(root)) {
    const bare = path.replace(QUALIFIERS, '');
    if (bare in CONSTANTS) return CONSTANTS[bare]!;
    if (bare.startsWith('dateinterval.') && bare.slice(13) in DATE_INTERVALS) return DATE_INTERVALS[bare.slice(13)]!;
    const fn = FUNCTIONS[bare.replace(/^math\.(?!min$|max$)/, '')];
    if (fn && fn[0] === 0) return fn[2]([]);
    throw notMember(n.name, path.slice(0, path.lastIndexOf('.')));
  }
  return method(evaluateNode(obj, scope), n.name, []);
}

function codeRefused(member: string) {
  return new CompileError(
    'rsCompilerErrorInExpression',
    `[BC30456] '${member}' is not a member of 'Code': the sandbox does not run a report's custom code (Code.*) or custom assemblies.`,
  );
}

function call(n: Extract<Node, { k: 'call' }>, scope: EvalScope): Value {
  const fn = n.fn;
  // Parameters!X.Value(0), Parameters!X.Label(1): an element of a multi-value parameter.
  if (fn.k === 'member' && fn.obj.k === 'bang') {
    if (/^(value|label)$/i.test(fn.name)) return index(collection(fn.obj.coll, fn.obj.member, fn.name, scope), n.args, scope);
    // A method of a built-in field's value: Globals!ExecutionTime.ToString("yyyy").
    const target = collection(fn.obj.coll, fn.obj.member, undefined, scope);
    return method(
      target,
      fn.name,
      n.args.map((a) => evaluateNode(a, scope)),
    );
  }
  // Parameters("X"), Fields("X") …: the collection by a name given as a string.
  if (fn.k === 'id' && ['parameters', 'fields', 'globals', 'user', 'reportitems'].includes(fn.name.toLowerCase())) {
    const key = n.args.length === 1 ? evaluateNode(n.args[0]!, scope) : undefined;
    if (typeof key !== 'string') throw new CompileError('rsCompilerErrorInExpression', `[BC30057] ${fn.name} takes one name.`);
    const canonical = { parameters: 'Parameters', fields: 'Fields', globals: 'Globals', user: 'User', reportitems: 'ReportItems' }[
      fn.name.toLowerCase()
    ]!;
    return collection(canonical, key, undefined, scope);
  }
  const path = dotted(fn);
  if (path === undefined) {
    // A method of a value: Fields!X.Value.ToString("N2"), Today().AddDays(1) …
    if (fn.k === 'member')
      return method(
        evaluateNode(fn.obj, scope),
        fn.name,
        n.args.map((a) => evaluateNode(a, scope)),
      );
    return index(evaluateNode(fn, scope), n.args, scope);
  }
  const root = path.split('.')[0]!;
  if (root === 'code') throw codeRefused(fn.k === 'member' ? fn.name : path);
  if (fn.k === 'member' && !KNOWN_ROOTS.has(root)) {
    // x.Method(args) where x is a function without parentheses (Today.AddDays(1)) or an unknown name.
    return method(
      evaluateNode(fn.obj, scope),
      fn.name,
      n.args.map((a) => evaluateNode(a, scope)),
    );
  }
  const bare = path.replace(QUALIFIERS, '').replace(/^math\.(?!min$|max$)/, '');
  if (bare === 'if') return ifOperator(n.args, scope);
  if (bare === 'rownumber') return rowNumber(n.args, scope);
  if (bare === 'previous') return previous(n.args, scope, evaluateNode);
  if (
    (bare === 'min' || bare === 'max') &&
    n.args.length === 2 &&
    !(n.args[1]!.k === 'lit' && (typeof n.args[1]!.v === 'string' || n.args[1]!.v === null))
  )
    return FUNCTIONS[`math.${bare}`]![2](n.args.map((a) => evaluateNode(a, scope)));
  if (AGGREGATES.has(bare)) return aggregate(fn.k === 'id' ? fn.name : bare, n.args, scope, evaluateNode);
  const f = FUNCTIONS[bare];
  if (!f) {
    if (fn.k === 'member') throw notMember(fn.name, path.slice(0, path.lastIndexOf('.')));
    throw notDeclared(fn.k === 'id' ? fn.name : path);
  }
  if (n.args.length < f[0] || n.args.length > f[1])
    throw new CompileError(
      'rsCompilerErrorInExpression',
      `[BC30516] Overload resolution failed because no accessible '${fn.k === 'id' ? fn.name : bare}' accepts this number of arguments.`,
    );
  return f[2](n.args.map((a) => evaluateNode(a, scope)));
}

/** If(condition, a, b) evaluates one branch; If(a, b) is a when it is not Nothing, else b. */
function ifOperator(args: Node[], scope: EvalScope): Value {
  if (args.length === 2) {
    const a = evaluateNode(args[0]!, scope);
    return a === null ? evaluateNode(args[1]!, scope) : a;
  }
  if (args.length !== 3)
    throw new CompileError('rsCompilerErrorInExpression', "[BC33104] 'If' operator requires either two or three operands.");
  return evaluateNode(toBool(evaluateNode(args[0]!, scope)) ? args[1]! : args[2]!, scope);
}

function index(v: Value, args: Node[], scope: EvalScope): Value {
  if (args.length !== 1) throw new CompileError('rsCompilerErrorInExpression', '[BC30057] An index takes one argument.');
  const i = toInt(evaluateNode(args[0]!, scope));
  if (!Array.isArray(v)) {
    if (typeof v === 'string') return v.charAt(i);
    throw new ExpressionError('Object variable or With block variable not set.');
  }
  if (i < 0 || i >= v.length) throw new ExpressionError('Index was outside the bounds of the array.');
  return v[i]!;
}

const PAGE_FIELDS = ['PageName', 'PageNumber', 'OverallPageNumber', 'TotalPages', 'OverallTotalPages'];

const pageOnly = (member: string) =>
  new CompileError(
    'rsCompilerErrorInExpression',
    `[BC30451] Globals!${member} can only be used in a page header or footer (it is not declared in the report body).`,
  );

/** Parameters!, Fields!, Globals!, User! and ReportItems! members, with an optional property (.Value, .Label …). */
function collection(coll: string, key: string, prop: string | undefined, scope: EvalScope): Value {
  const p = prop?.toLowerCase();
  switch (coll.toLowerCase()) {
    case 'globals': {
      if (key === 'RenderFormat') {
        const name = RENDER_NAMES[scope.renderFormat.toUpperCase()] ?? scope.renderFormat.toUpperCase();
        if (p === 'name') return name;
        if (p === 'isinteractive') return name === 'RPL' || name === 'HTML5' || name === 'HTML4.0';
        if (p === 'deviceinfo') return null;
        throw notMember(prop ?? 'RenderFormat', 'RenderFormat');
      }
      const page = scope.page;
      if (PAGE_FIELDS.includes(key) && !page) throw pageOnly(key);
      const values: Record<string, () => Value> = {
        ExecutionTime: () => scope.executionTime,
        ReportName: () => scope.reportName,
        ReportFolder: () => '',
        ReportServerUrl: () => '',
        PageName: () => '',
        PageNumber: () => page!.number,
        OverallPageNumber: () => page!.number,
        TotalPages: () => page!.total,
        OverallTotalPages: () => page!.total,
      };
      const f = values[key];
      if (!f) throw notMember(key, 'Globals');
      return prop === undefined ? f() : method(f(), prop, []);
    }
    case 'user':
      if (key !== 'UserID' && key !== 'Language') throw notMember(key, 'User');
      return ((v) => (prop === undefined ? v : method(v, prop, [])))(key === 'UserID' ? scope.user.userId : scope.user.language);
    case 'parameters': {
      const pv = scope.parameters.get(key);
      if (!pv)
        throw new CompileError(
          'rsParameterReference',
          `refers to a non-existing report parameter '${key}'. Letters in the names of parameters must use the correct case.`,
        );
      if (p === 'count') return pv.values.length;
      if (p === 'ismultivalue') return pv.parameter.multiValue;
      if (p !== undefined && p !== 'value' && p !== 'label') throw notMember(prop!, 'Parameter');
      const list: Value[] = p === 'label' ? pv.labels : pv.values.map((v) => typed(pv, v));
      return pv.parameter.multiValue ? list : (list[0] ?? null);
    }
    case 'fields': {
      let fields = scope.fields;
      let names = scope.fieldNames;
      if (!fields) {
        // Outside a data region a field reads the first row of the report's only data set.
        const sets = [...(scope.scopes?.values() ?? [])].filter((s) => s.dataSet);
        if (sets.length !== 1) throw fieldRef(key);
        fields = sets[0]!.rows[0] ?? {};
        names = sets[0]!.fieldNames;
      }
      if (names && !names.includes(key)) throw fieldRef(key);
      if (p === 'ismissing') return !(key in fields);
      if (p !== undefined && p !== 'value') throw notMember(prop!, 'Field');
      // A source's null reaches the renderer as empty text: it reads as Nothing.
      const v = fields[key];
      return v === undefined || v === '' ? null : v;
    }
    case 'reportitems': {
      const v = scope.reportItems?.(key);
      if (v === undefined)
        throw new CompileError(
          'rsReportItemReference',
          `refers to the report item '${key}'. Report item expressions can only refer to other report items within the same grouping scope or a containing grouping scope.`,
        );
      if (p !== undefined && p !== 'value') throw notMember(prop!, 'ReportItem');
      return v;
    }
    default:
      throw new CompileError(
        'rsCompilerErrorInExpression',
        `[BC30451] Name '${coll}' is not declared: the sandbox evaluates the Parameters, Fields, Globals, User and ReportItems collections.`,
      );
  }
}

const fieldRef = (key: string) =>
  new CompileError(
    'rsFieldReference',
    `refers to the field '${key}'. Report item expressions can only refer to fields within the current dataset scope or, if inside an aggregate, the specified dataset scope. Letters in the names of fields must use the correct case.`,
  );
