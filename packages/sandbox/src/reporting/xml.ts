/** A parsed XML element: qualified name, local name, namespace, attributes, children, text and the line it starts on. */
export interface XmlElement {
  name: string;
  local: string;
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
  line: number;
}

/** A well-formedness error with the line it was found on. */
export class XmlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string, line: number): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    const v = ENTITIES[e];
    if (v === undefined) throw new XmlError(`unknown entity '${m}'`, line);
    return v;
  });
}

const NAME = /^[A-Za-z_][\w.\-]*(:[A-Za-z_][\w.\-]*)?/;

/** Parses a document (elements, attributes, text, CDATA, comments, processing instructions) resolving namespaces. */
export function parseXml(source: string): XmlElement {
  const text = source.replace(/^\uFEFF/, '');
  let i = 0;
  let line = 1;
  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (text.charCodeAt(k) === 10) line++;
    i = to;
  };
  const stack: Array<{ el: XmlElement; scope: Record<string, string> }> = [];
  let root: XmlElement | undefined;
  const resolveNs = (prefix: string, scope: Record<string, string>, at: number): string => {
    const uri = scope[prefix];
    if (uri === undefined) {
      if (prefix === '' || prefix === 'xml' || prefix === 'xmlns') return prefix === 'xml' ? 'http://www.w3.org/XML/1998/namespace' : '';
      throw new XmlError(`undeclared namespace prefix '${prefix}'`, at);
    }
    return uri;
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (chunk) {
      const top = stack[stack.length - 1];
      if (top) top.el.text += decode(chunk, line);
      else if (chunk.trim()) throw new XmlError('text outside the root element', line);
      advance(lt < 0 ? text.length : lt);
      if (lt < 0) break;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw new XmlError('unterminated comment', line);
      advance(end + 3);
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) throw new XmlError('unterminated CDATA section', line);
      const top = stack[stack.length - 1];
      if (!top) throw new XmlError('CDATA outside the root element', line);
      top.el.text += text.slice(i + 9, end);
      advance(end + 3);
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) throw new XmlError('unterminated processing instruction', line);
      advance(end + 2);
    } else if (text.startsWith('<!', i)) {
      const end = text.indexOf('>', i + 2);
      if (end < 0) throw new XmlError('unterminated declaration', line);
      advance(end + 1);
    } else if (text.startsWith('</', i)) {
      const m = NAME.exec(text.slice(i + 2));
      const top = stack.pop();
      if (!m || !top) throw new XmlError('unexpected closing tag', line);
      if (m[0] !== top.el.name)
        throw new XmlError(`closing tag </${m[0]}> does not match <${top.el.name}> opened on line ${top.el.line}`, line);
      const end = text.indexOf('>', i);
      if (end < 0 || text.slice(i + 2 + m[0].length, end).trim()) throw new XmlError(`malformed closing tag </${m[0]}>`, line);
      advance(end + 1);
    } else {
      const startLine = line;
      const m = NAME.exec(text.slice(i + 1));
      if (!m) throw new XmlError("'<' not followed by an element name", line);
      if (root && !stack.length) throw new XmlError(`a second root element <${m[0]}>`, line);
      let j = i + 1 + m[0].length;
      const raw: Record<string, string> = {};
      let selfClosing = false;
      for (;;) {
        const ws = /^\s*/.exec(text.slice(j))![0];
        j += ws.length;
        if (text.startsWith('/>', j)) {
          selfClosing = true;
          j += 2;
          break;
        }
        if (text[j] === '>') {
          j += 1;
          break;
        }
        if (j >= text.length) throw new XmlError(`unterminated start tag <${m[0]}>`, startLine);
        const a = /^([A-Za-z_][\w.\-]*(?::[A-Za-z_][\w.\-]*)?)\s*=\s*("([^"]*)"|'([^']*)')/.exec(text.slice(j));
        if (!a || !ws) throw new XmlError(`malformed attribute in <${m[0]}>`, startLine);
        if (a[1]! in raw) throw new XmlError(`duplicate attribute '${a[1]}' in <${m[0]}>`, startLine);
        raw[a[1]!] = decode(a[3] ?? a[4] ?? '', startLine);
        j += a[0].length;
      }
      const parentScope = stack[stack.length - 1]?.scope ?? {};
      const scope = { ...parentScope };
      const attrs: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) {
        if (k === 'xmlns') scope[''] = v;
        else if (k.startsWith('xmlns:')) scope[k.slice(6)] = v;
        attrs[k] = v;
      }
      const colon = m[0].indexOf(':');
      const prefix = colon < 0 ? '' : m[0].slice(0, colon);
      const el: XmlElement = {
        name: m[0],
        local: colon < 0 ? m[0] : m[0].slice(colon + 1),
        ns: resolveNs(prefix, scope, startLine),
        attrs,
        children: [],
        text: '',
        line: startLine,
      };
      const parent = stack[stack.length - 1];
      if (parent) parent.el.children.push(el);
      else root = el;
      advance(j);
      if (!selfClosing) stack.push({ el, scope });
    }
  }
  if (stack.length) throw new XmlError(`element <${stack[stack.length - 1]!.el.name}> is not closed`, stack[stack.length - 1]!.el.line);
  if (!root) throw new XmlError('the document has no root element', 1);
  return root;
}

/** The first child with a local name. */
export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  return el?.children.find((c) => c.local === local);
}

/** Every child with a local name. */
export function children(el: XmlElement | undefined, local: string): XmlElement[] {
  return el ? el.children.filter((c) => c.local === local) : [];
}

/** The text of a child path, trimmed (undefined when absent). */
export function textAt(el: XmlElement | undefined, ...path: string[]): string | undefined {
  let cur = el;
  for (const p of path) cur = child(cur, p);
  return cur ? cur.text.trim() : undefined;
}

/** Every descendant with a local name, in document order. */
export function descendants(el: XmlElement, local: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.local === local) out.push(c);
    descendants(c, local, out);
  }
  return out;
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
