// A lossless XML tree: every node keeps the exact text it was parsed from, so a document serializes back to the
// same string, and an edit changes only the nodes it touches (the rest of the file stays byte for byte).

/** Text between tags (entities kept as written), a CDATA section, a comment or a processing instruction. */
export interface XText {
  kind: 'text' | 'cdata' | 'comment' | 'pi';
  raw: string;
}

/** An element: its start tag and end tag as written, its attributes (decoded) and its children. */
export interface XElement {
  kind: 'el';
  name: string;
  /** The start tag as written (`<Textbox Name="A">`, or the whole `<Style />` of an empty element). */
  open: string;
  /** The end tag as written; empty for an empty-element tag. */
  close: string;
  attrs: Record<string, string>;
  children: XNode[];
  /** 1-based line of the start tag in the text it was parsed from (0 for a node made by an edit). */
  line: number;
  /** The element that holds this one (none for the root). */
  parent?: XElement;
}

export type XNode = XElement | XText;

/** A document: what precedes the root (declaration, comments), the root, and what follows it. */
export interface XDoc {
  prolog: string;
  root: XElement;
  epilog: string;
}

/** A fault of the text: not well-formed XML at a line. */
export class XmlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /[A-Za-z_][\w.:-]*/y;
const SPACE = /\s/;

/** The text of raw character data with entities and character references resolved. */
export function decode(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

/** Text escaped for element content. */
export const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text escaped for a double-quoted attribute value. */
export const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** Parses a document, keeping every character; throws XmlSyntaxError at the first fault. */
export function parseXml(src: string): XDoc {
  let i = 0;
  let line = 1;
  let lineAt = 0;
  const lineOf = (pos: number) => {
    for (; lineAt < pos; lineAt++) if (src.charCodeAt(lineAt) === 10) line++;
    return line;
  };
  const fail = (detail: string): never => {
    throw new XmlSyntaxError(lineOf(Math.min(i, src.length)), detail);
  };
  const closeAt = (end: string) => {
    const j = src.indexOf(end, i);
    if (j < 0) fail(`missing ${end}`);
    return j + end.length;
  };
  const name = () => {
    NAME.lastIndex = i;
    const m = NAME.exec(src);
    if (!m) fail('expected a name');
    i += m![0].length;
    return m![0];
  };
  const checkText = (raw: string, at: number) => {
    for (let k = raw.indexOf('&'); k >= 0; k = raw.indexOf('&', k + 1)) {
      const m = /^&(#x[0-9a-fA-F]+|#\d+|\w+);/.exec(raw.slice(k, k + 12));
      if (m && (m[1]!.startsWith('#') || ENTITIES[m[1]!] !== undefined)) continue;
      i = at + k;
      fail(m ? `unknown entity &${m[1]};` : 'bare & (use &amp;)');
    }
  };
  const misc = () => {
    const start = i;
    for (;;) {
      while (SPACE.test(src[i] ?? '')) i++;
      if (src.startsWith('<?', i)) i = closeAt('?>');
      else if (src.startsWith('<!--', i)) i = closeAt('-->');
      else if (src.startsWith('<!DOCTYPE', i)) fail('DOCTYPE is not allowed');
      else return src.slice(start, i);
    }
  };
  const element = (parent?: XElement): XElement => {
    const start = i;
    const at = lineOf(start);
    i++;
    const tag = name();
    const attrs: Record<string, string> = {};
    for (;;) {
      while (SPACE.test(src[i] ?? '')) i++;
      if (src.startsWith('/>', i)) {
        i += 2;
        return { kind: 'el', name: tag, open: src.slice(start, i), close: '', attrs, children: [], line: at, parent };
      }
      if (src[i] === '>') break;
      if (i >= src.length) fail(`element <${tag}> is not closed`);
      const attr = name();
      while (SPACE.test(src[i] ?? '')) i++;
      if (src[i] !== '=') fail(`attribute ${attr} has no value`);
      i++;
      while (SPACE.test(src[i] ?? '')) i++;
      const q = src[i];
      if (q !== '"' && q !== "'") fail(`attribute ${attr} value is not quoted`);
      const end = src.indexOf(q!, i + 1);
      if (end < 0) fail('unterminated attribute value');
      if (attr in attrs) fail(`duplicate attribute ${attr}`);
      const raw = src.slice(i + 1, end);
      if (raw.includes('<')) fail(`attribute ${attr} contains <`);
      checkText(raw, i + 1);
      attrs[attr] = decode(raw);
      i = end + 1;
    }
    i++;
    const el: XElement = { kind: 'el', name: tag, open: src.slice(start, i), close: '', attrs, children: [], line: at, parent };
    for (;;) {
      if (i >= src.length) fail(`element <${tag}> is not closed`);
      if (src.startsWith('</', i)) {
        const endStart = i;
        i += 2;
        const closing = name();
        if (closing !== tag) fail(`</${closing}> closes <${tag}>`);
        while (SPACE.test(src[i] ?? '')) i++;
        if (src[i] !== '>') fail('expected >');
        i++;
        el.close = src.slice(endStart, i);
        return el;
      }
      const from = i;
      if (src.startsWith('<!--', i)) {
        i = closeAt('-->');
        el.children.push({ kind: 'comment', raw: src.slice(from, i) });
      } else if (src.startsWith('<![CDATA[', i)) {
        i = closeAt(']]>');
        el.children.push({ kind: 'cdata', raw: src.slice(from, i) });
      } else if (src.startsWith('<?', i)) {
        i = closeAt('?>');
        el.children.push({ kind: 'pi', raw: src.slice(from, i) });
      } else if (src[i] === '<') el.children.push(element(el));
      else {
        const next = src.indexOf('<', i);
        i = next < 0 ? src.length : next;
        const raw = src.slice(from, i);
        checkText(raw, from);
        el.children.push({ kind: 'text', raw });
      }
    }
  };
  const prolog = misc();
  if (src[i] !== '<') fail('expected the root element');
  const root = element();
  const epilog = misc();
  if (i < src.length) fail('content after the root element');
  return { prolog, root, epilog };
}

/** The node as text: its own raw pieces, so an untouched node comes back exactly as it was read. */
export function serializeNode(n: XNode): string {
  if (n.kind !== 'el') return n.raw;
  let out = n.open;
  for (const c of n.children) out += serializeNode(c);
  return out + n.close;
}

/** The document as text. */
export const serialize = (d: XDoc) => d.prolog + serializeNode(d.root) + d.epilog;

/** The local part of a qualified name (`rd:TypeName` → `TypeName`). */
export const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Child elements, all or those with a local name. */
export const elements = (el: XElement | undefined, name?: string): XElement[] =>
  (el?.children ?? []).filter((c): c is XElement => c.kind === 'el' && (name === undefined || local(c.name) === name));

/** The first child element with a local name. */
export const child = (el: XElement | undefined, name: string): XElement | undefined => elements(el, name)[0];

/** A descendant by a path of local names (`child(child(el, a), b)` …). */
export const path = (el: XElement | undefined, ...names: string[]): XElement | undefined =>
  names.reduce<XElement | undefined>((e, n) => child(e, n), el);

/** Every descendant element with a local name, in document order. */
export function descendants(el: XElement, name: string): XElement[] {
  const out: XElement[] = [];
  const walk = (e: XElement) => {
    for (const c of elements(e)) {
      if (local(c.name) === name) out.push(c);
      walk(c);
    }
  };
  walk(el);
  return out;
}

/** The element's text content (text and CDATA children), decoded; undefined for no element. */
export function textOf(el: XElement | undefined): string | undefined {
  if (!el) return undefined;
  let s = '';
  for (const c of el.children) {
    if (c.kind === 'text') s += decode(c.raw);
    else if (c.kind === 'cdata') s += c.raw.slice(9, -3);
  }
  return s;
}

/** The trimmed text of a child element, or undefined. */
export const childText = (el: XElement | undefined, name: string) => textOf(child(el, name))?.trim();

/** The prefix of an element's name (`rd` of `rd:TypeName`), or ''. */
const prefixOf = (name: string) => (name.includes(':') ? name.slice(0, name.indexOf(':')) : '');

/** Makes an element from parts; children given as nodes. Its tags are written fresh. */
export function makeElement(name: string, attrs: Record<string, string> = {}, children: XNode[] = []): XElement {
  const el: XElement = { kind: 'el', name, open: '', close: '', attrs: { ...attrs }, children, line: 0 };
  for (const c of children) if (c.kind === 'el') c.parent = el;
  writeTags(el);
  return el;
}

/** Rewrites an element's tags from its name and attributes (an empty element as `<X />`). */
function writeTags(el: XElement): void {
  const a = Object.entries(el.attrs)
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  if (el.children.length === 0) {
    el.open = `<${el.name}${a} />`;
    el.close = '';
  } else {
    el.open = `<${el.name}${a}>`;
    el.close = `</${el.name}>`;
  }
}

/** Sets (or with undefined removes) an attribute; the start tag is rewritten, other attributes kept in order. */
export function setAttr(el: XElement, name: string, value: string | undefined): void {
  if (value === undefined) delete el.attrs[name];
  else el.attrs[name] = value;
  const empty = el.close === '';
  writeTags(el);
  if (!empty && el.children.length === 0) {
    el.open = el.open.replace(/ \/>$/, '>');
    el.close = `</${el.name}>`;
  }
}

/** Makes an empty-element tag a start and end tag pair, so children can be added. */
function open(el: XElement): void {
  if (el.close) return;
  el.open = el.open.replace(/\s*\/>$/, '>');
  el.close = `</${el.name}>`;
}

/** Replaces an element's content with text (escaped). */
export function setText(el: XElement, value: string): void {
  open(el);
  el.children = value ? [{ kind: 'text', raw: escapeText(value) }] : [];
}

/** The whitespace that indents an element: the text node before it, when that is whitespace ending a line. */
function indentBefore(parent: XElement, node: XNode): string | undefined {
  const i = parent.children.indexOf(node);
  const prev = parent.children[i - 1];
  if (prev?.kind === 'text' && /^\s*$/.test(prev.raw) && prev.raw.includes('\n')) return prev.raw.slice(prev.raw.lastIndexOf('\n') + 1);
  return undefined;
}

/** The indentation of an element's own start tag (undefined when it is not on a line of its own). */
const ownIndent = (el: XElement): string | undefined => (el.parent ? indentBefore(el.parent, el) : '');

/** The indentation of `parent`'s child elements, inferred from the text around them (undefined: inline). */
function childIndent(parent: XElement): string | undefined {
  for (const c of parent.children) if (c.kind === 'el') return indentBefore(parent, c);
  const own = ownIndent(parent);
  return own === undefined ? undefined : `${own}  `;
}

/**
 * Inserts a child element at an index among the parent's child elements (default: after the last), matching the
 * layout of its siblings: indented on its own line when they are, inline when they are inline.
 */
export function insertChild(parent: XElement, node: XElement, index?: number): void {
  node.parent = parent;
  const els = elements(parent);
  const indent = childIndent(parent);
  open(parent);
  const pretty = indent !== undefined;
  if (pretty) reindent(node, indent!);
  const at = index === undefined || index >= els.length ? undefined : els[index];
  if (at) {
    const pos = parent.children.indexOf(at);
    parent.children.splice(pos, 0, node, ...(pretty ? [{ kind: 'text' as const, raw: `\n${indent}` }] : []));
    return;
  }
  if (!els.length && pretty) {
    // The first child of an element that had none: on its own line, the end tag back at the element's own indent.
    const own = ownIndent(parent) ?? '';
    parent.children = [{ kind: 'text', raw: `\n${indent}` }, node, { kind: 'text', raw: `\n${own}` }];
    return;
  }
  const last = els[els.length - 1];
  const pos = last ? parent.children.indexOf(last) + 1 : parent.children.length;
  parent.children.splice(pos, 0, ...(pretty ? [{ kind: 'text' as const, raw: `\n${indent}` }] : []), node);
}

/** Removes a child element and the whitespace that indented it. */
export function removeChild(parent: XElement, node: XElement): void {
  const i = parent.children.indexOf(node);
  if (i < 0) return;
  const prev = parent.children[i - 1];
  const ws = prev?.kind === 'text' && /^\s*$/.test(prev.raw);
  parent.children.splice(ws ? i - 1 : i, ws ? 2 : 1);
  if (!elements(parent).length && parent.children.every((c) => c.kind === 'text' && /^\s*$/.test(c.raw))) parent.children = [];
}

/** Replaces a child node with another, in place. */
export function replaceChild(parent: XElement, old: XNode, node: XNode): void {
  const i = parent.children.indexOf(old);
  if (i < 0) return;
  parent.children[i] = node;
  if (node.kind === 'el') node.parent = parent;
}

/**
 * Lays out a made element (and its made descendants) one element per line at `indent` and deeper, leaving text-only
 * elements on one line. Elements read from a document keep their layout.
 */
export function reindent(el: XElement, indent: string): void {
  if (el.line !== 0) return;
  const kids = elements(el);
  if (!kids.length) return;
  const inner = `${indent}  `;
  const out: XNode[] = [];
  for (const k of kids) {
    reindent(k, inner);
    k.parent = el;
    out.push({ kind: 'text', raw: `\n${inner}` }, k);
  }
  out.push({ kind: 'text', raw: `\n${indent}` });
  el.children = out;
}

/** Parses a fragment (one element) into nodes that serialize as the given text. */
export function parseFragment(xml: string): XElement {
  return parseXml(xml).root;
}

/** Makes an element tree from a compact description: `[name, attrs?, ...children]` with strings as text. */
export type SpecPart = Record<string, string> | Spec | string | undefined | false;
export interface Spec extends Array<SpecPart> {
  0: string;
}

/** Builds elements from a Spec (marked as made, so insertChild lays them out). */
export function build(spec: Spec): XElement {
  const [name, ...rest] = spec as [string, ...SpecPart[]];
  let attrs: Record<string, string> = {};
  const children: XNode[] = [];
  for (const r of rest) {
    if (r === undefined || r === false) continue;
    if (typeof r === 'string') children.push({ kind: 'text', raw: escapeText(r) });
    else if (Array.isArray(r)) children.push(build(r));
    else attrs = r;
  }
  return makeElement(name, attrs, children);
}

/** A name with the same prefix as a sibling (`rd:` names keep their prefix). */
export const prefixed = (like: XElement, localName: string) => {
  const p = prefixOf(like.name);
  return p ? `${p}:${localName}` : localName;
};
