// Generates clients/python/svc_client/_operations.py from the OpenAPI document: typed models (TypedDicts),
// one sync and one async method per operationId, pagers for paged lists, and the operation table.
// The output depends only on the document, so regenerating an unchanged document changes nothing.

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };

export const PYTHON_OPERATIONS_PATH = 'clients/python/svc_client/_operations.py';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const KEYWORDS = new Set([
  'from',
  'import',
  'class',
  'def',
  'return',
  'global',
  'lambda',
  'pass',
  'in',
  'is',
  'not',
  'and',
  'or',
  'with',
  'as',
  'async',
  'await',
  'type',
]);

/** camelCase, kebab-case or snake_case → snake_case. */
export function snake(name: string): string {
  return name
    .replace(/[-\s]+/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
const pascal = (name: string) =>
  snake(name)
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const pyIdent = (name: string) => (KEYWORDS.has(snake(name)) ? `${snake(name)}_` : snake(name));
const pyStr = (s: string) => JSON.stringify(s);

/** One documented operation, as the generator sees it. */
export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  pathParams: Array<{ name: string; required: boolean }>;
  query: Array<{ name: string; schema: Schema }>;
  headers: Array<{ name: string; schema: Schema; required: boolean }>;
  body?: { schema: Schema; required: boolean };
  status: string;
  kind: 'json' | 'text' | 'binary' | 'sse' | 'redirect';
  result?: Schema;
}

/** The operations of a document, sorted by operationId. */
export function operationsOf(doc: Doc): Operation[] {
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${p} has no operationId`);
      const params: any[] = op.parameters ?? [];
      // A browser step (sign-in with the identity provider) succeeds with a redirect: its method answers the Location.
      const codes = Object.keys(op.responses ?? {});
      const status = codes.filter((s) => s.startsWith('2')).sort()[0] ?? codes.filter((s) => s.startsWith('3')).sort()[0];
      if (!status) throw new Error(`${op.operationId} documents no success response`);
      const content: Record<string, { schema?: Schema }> = op.responses[status].content ?? {};
      const kind = status.startsWith('3')
        ? 'redirect'
        : content['application/json']
          ? 'json'
          : content['text/event-stream']
            ? 'sse'
            : content['application/octet-stream']
              ? 'binary'
              : 'text';
      const pathOrder = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: p,
        summary: op.summary ?? op.operationId,
        pathParams: pathOrder.map((name) => ({ name, required: true })),
        query: params.filter((x) => x.in === 'query').map((x) => ({ name: x.name, schema: x.schema ?? {} })),
        headers: params.filter((x) => x.in === 'header').map((x) => ({ name: x.name, schema: x.schema ?? {}, required: !!x.required })),
        body: op.requestBody
          ? { schema: op.requestBody.content['application/json'].schema, required: !!op.requestBody.required }
          : undefined,
        status,
        kind,
        result: content['application/json']?.schema,
      });
    }
  }
  return ops.sort((a, b) => a.id.localeCompare(b.id));
}

/** How the core turns a success body into the method's result. */
export function shapeOf(op: Operation): { envelope: boolean; unwrap: string | null; paged: boolean } {
  if (op.kind !== 'json' || !op.result) return { envelope: false, unwrap: null, paged: false };
  const props = Object.keys(op.result.properties ?? {});
  const envelope = props.includes('ok');
  // A key marked x-client-context (context beside a list, added later) does not change what the method answers.
  const rest = props.filter((k) => k !== 'ok' && k !== 'nextCursor' && !op.result!.properties[k]?.['x-client-context']);
  const paged = props.includes('nextCursor');
  const unwrap = envelope && rest.length === 1 && !op.result.additionalProperties ? rest[0]! : null;
  return { envelope, unwrap, paged: paged && unwrap !== null && op.result.properties[unwrap].type === 'array' };
}

/** Emits TypedDicts for named and inline object schemas and answers Python type expressions. */
class Models {
  readonly defs: string[] = [];
  private readonly taken = new Set<string>();

  constructor(private readonly doc: Doc) {}

  named(): void {
    for (const name of Object.keys(this.doc.components?.schemas ?? {}).sort()) {
      this.taken.add(name);
    }
    for (const name of Object.keys(this.doc.components?.schemas ?? {}).sort())
      this.object(name, this.doc.components!.schemas![name]!, true);
  }

  /** The Python type of a schema; inline objects become TypedDicts named after `hint`. */
  type(s: Schema | undefined, hint: string): string {
    if (!s || Object.keys(s).filter((k) => k !== 'description').length === 0) return 'Any';
    if (s.$ref) return s.$ref.split('/').pop();
    if (s.anyOf || s.oneOf) {
      const parts: Schema[] = s.anyOf ?? s.oneOf;
      if (parts.every((p) => Array.isArray(p.enum)))
        return `Literal[${parts
          .flatMap((p) => p.enum)
          .map((v) => pyLiteral(v))
          .join(', ')}]`;
      const types = [...new Set(parts.map((p, i) => this.type(p, `${hint}${i}`)))];
      return types.length === 1 ? types[0]! : `Union[${types.join(', ')}]`;
    }
    if (Array.isArray(s.enum)) return `Literal[${s.enum.map((v: unknown) => pyLiteral(v)).join(', ')}]`;
    if (s.const !== undefined) return `Literal[${pyLiteral(s.const)}]`;
    const t = Array.isArray(s.type) ? s.type : [s.type];
    if (t.length > 1) return `Union[${t.map((x: string) => this.type({ ...s, type: x }, hint)).join(', ')}]`;
    switch (t[0]) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${this.type(s.items, `${hint}Item`)}]`;
      case 'object':
        if (s.properties && Object.keys(s.properties).length) return this.object(this.fresh(hint), s, false);
        if (s.additionalProperties && typeof s.additionalProperties === 'object')
          return `Dict[str, ${this.type(s.additionalProperties, `${hint}Value`)}]`;
        return 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }

  private fresh(hint: string): string {
    let name = hint;
    for (let i = 2; this.taken.has(name); i++) name = `${hint}${i}`;
    this.taken.add(name);
    return name;
  }

  /** A functional TypedDict (keys such as `from` are not identifiers). */
  object(name: string, s: Schema, isNamed: boolean, omit: string[] = []): string {
    const required = new Set<string>(s.required ?? []);
    const fields = Object.keys(s.properties ?? {})
      .filter((k) => !omit.includes(k))
      .map((k) => {
        const t = this.type(s.properties[k], `${name}${pascal(k)}`);
        return `    ${pyStr(k)}: ${required.has(k) ? pyStr(t) : `NotRequired[${pyStr(t)}]`},`;
      });
    const doc = s.description ? `${name}.__doc__ = ${pyStr(s.description)}\n` : '';
    const text = fields.length
      ? `${name} = TypedDict(${pyStr(name)}, {\n${fields.join('\n')}\n})\n${doc}`
      : `${name} = TypedDict(${pyStr(name)}, {})\n${doc}`;
    this.defs.push(text);
    if (isNamed) this.taken.add(name);
    return name;
  }

  /** A TypedDict for a body or result, named after the operation. */
  forOperation(s: Schema, name: string, omit: string[] = []): string {
    if (s.$ref) return this.type(s, name);
    if (s.type === 'object' && s.properties) return this.object(this.fresh(name), s, false, omit);
    return this.type(s, name);
  }
}

function pyLiteral(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null) return 'None';
  return JSON.stringify(v);
}

interface MethodPlan {
  op: Operation;
  name: string;
  pager?: string;
  args: string[];
  pathArgs: string;
  queryArgs: string;
  headerArgs: string;
  bodyArg: string;
  returns: string;
  pageItem?: string;
  doc: string;
}

function plan(op: Operation, models: Models): MethodPlan {
  const name = snake(op.id);
  const shape = shapeOf(op);
  const args: string[] = ['self'];
  for (const p of op.pathParams) args.push(`${pyIdent(p.name)}: str`);
  let bodyArg = 'None';
  if (op.body) {
    const t = models.forOperation(op.body.schema, `${pascal(op.id)}Body`);
    args.push(op.body.required ? `body: ${t}` : `body: Optional[${t}] = None`);
    bodyArg = 'body';
  }
  const kw: string[] = [];
  for (const q of op.query) kw.push(`${pyIdent(q.name)}: Optional[${models.type(q.schema, pascal(q.name))}] = None`);
  for (const h of op.headers) kw.push(h.required ? `${pyIdent(h.name)}: str` : `${pyIdent(h.name)}: Optional[str] = None`);
  if (kw.length) args.push('*', ...kw);
  let returns: string;
  let pageItem: string | undefined;
  if (op.kind === 'text' || op.kind === 'redirect') returns = 'str';
  else if (op.kind === 'binary') returns = 'bytes';
  else if (op.kind === 'sse') returns = 'ServerSentEvent';
  else if (!op.result) returns = 'Any';
  else if (!shape.envelope) returns = models.forOperation(op.result, `${pascal(op.id)}Result`);
  else if (shape.unwrap) {
    const prop = op.result.properties[shape.unwrap];
    if (shape.paged) {
      pageItem = models.type(prop.items, `${pascal(op.id)}Item`);
      returns = `Page[${pageItem}]`;
    } else if (prop.type === 'array') returns = models.type(prop, `${pascal(op.id)}Result`);
    else returns = models.forOperation(prop, `${pascal(op.id)}Result`);
  } else returns = models.forOperation(op.result, `${pascal(op.id)}Result`, ['ok']);
  const dict = (items: Array<{ name: string }>) => `{${items.map((x) => `${pyStr(x.name)}: ${pyIdent(x.name)}`).join(', ')}}`;
  const pager = shape.paged ? `iter_${snake(op.id).replace(/^list_/, '')}` : undefined;
  return {
    op,
    name,
    pager,
    args,
    returns,
    pageItem,
    bodyArg,
    pathArgs: dict(op.pathParams),
    queryArgs: op.query.length ? dict(op.query) : 'None',
    headerArgs: op.headers.length ? dict(op.headers) : 'None',
    doc: `${op.summary.replace(/\s+/g, ' ').replace(/"""/g, "'''")} (${op.method} ${op.path}).`,
  };
}

function syncMethod(m: MethodPlan): string {
  const call = `self._call(${pyStr(m.op.id)}, ${m.pathArgs}, query=${m.queryArgs}, headers=${m.headerArgs}, body=${m.bodyArg})`;
  const retType = m.op.kind === 'sse' ? 'Iterator[ServerSentEvent]' : m.returns;
  const body =
    m.op.kind === 'sse'
      ? `        return self._stream(${pyStr(m.op.id)}, ${m.pathArgs}, headers=${m.headerArgs})`
      : `        return ${call}  # type: ignore[no-any-return]`;
  let out = `    def ${m.name}(${m.args.join(', ')}) -> ${retType}:\n        """${m.doc}"""\n${body}\n`;
  if (m.pager) {
    const args = m.args.filter((a) => !a.startsWith('cursor:'));
    out +=
      `\n    def ${m.pager}(${args.join(', ')}) -> Iterator[${m.pageItem}]:\n        """Every entry of ${m.name}, page after page."""\n` +
      `        return self._paginate(${pyStr(m.op.id)}, ${m.pathArgs}, query=${m.queryArgs.replace(/"cursor": cursor(, )?/, '')})\n`;
  }
  return out;
}

function asyncMethod(m: MethodPlan): string {
  const call = `await self._call(${pyStr(m.op.id)}, ${m.pathArgs}, query=${m.queryArgs}, headers=${m.headerArgs}, body=${m.bodyArg})`;
  let out: string;
  if (m.op.kind === 'sse') {
    out = `    async def ${m.name}(${m.args.join(', ')}) -> AsyncIterator[ServerSentEvent]:\n        """${m.doc}"""\n        return await self._stream(${pyStr(m.op.id)}, ${m.pathArgs}, headers=${m.headerArgs})\n`;
  } else {
    out = `    async def ${m.name}(${m.args.join(', ')}) -> ${m.returns}:\n        """${m.doc}"""\n        return ${call}  # type: ignore[no-any-return]\n`;
  }
  if (m.pager) {
    const args = m.args.filter((a) => !a.startsWith('cursor:'));
    out +=
      `\n    def ${m.pager}(${args.join(', ')}) -> AsyncIterator[${m.pageItem}]:\n        """Every entry of ${m.name}, page after page."""\n` +
      `        return self._paginate(${pyStr(m.op.id)}, ${m.pathArgs}, query=${m.queryArgs.replace(/"cursor": cursor(, )?/, '')})\n`;
  }
  return out;
}

/** The text of the generated Python operations module. */
export function pythonOperations(doc: Doc): string {
  const models = new Models(doc);
  models.named();
  const ops = operationsOf(doc);
  const plans = ops.map((op) => plan(op, models));
  const table = plans.map((m) => {
    const s = shapeOf(m.op);
    return `    ${pyStr(m.op.id)}: Operation(${[pyStr(m.op.id), pyStr(m.op.method), pyStr(m.op.path), pyStr(m.name), m.pager ? pyStr(m.pager) : 'None', pyStr(m.op.kind), s.envelope ? 'True' : 'False', s.unwrap ? pyStr(s.unwrap) : 'None', s.paged ? 'True' : 'False'].join(', ')}),`;
  });
  const version = (doc as { info?: { version?: string } }).info?.version ?? '';
  return [
    '# Generated from openapi/openapi.json by scripts/gen-clients.ts. Do not edit: run `npm run gen:clients`.',
    '# fmt: off',
    '"""Operations of the Analytics Workspace Service: models, one method per operationId, and the operation table."""',
    'from __future__ import annotations',
    '',
    'from typing import Any, AsyncIterator, Dict, Iterator, List, Literal, NotRequired, Optional, TypedDict, Union',
    '',
    'from ._core import AsyncCore, Operation, Page, ServerSentEvent, SyncCore',
    '',
    `API_VERSION = ${pyStr(version)}`,
    '',
    '# Models',
    '',
    models.defs.join('\n'),
    '# The operation table: operationId → (method, path, Python method, pager, kind, envelope, unwrapped key, paged).',
    'OPERATIONS: Dict[str, Operation] = {',
    ...table,
    '}',
    '',
    '',
    'class Operations(SyncCore):',
    '    """Every documented operation, synchronous."""',
    '',
    '    OPERATIONS = OPERATIONS',
    '',
    plans.map(syncMethod).join('\n'),
    '',
    'class AsyncOperations(AsyncCore):',
    '    """Every documented operation, asynchronous."""',
    '',
    '    OPERATIONS = OPERATIONS',
    '',
    plans.map(asyncMethod).join('\n'),
  ].join('\n');
}
