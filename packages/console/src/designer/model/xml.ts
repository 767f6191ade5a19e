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
