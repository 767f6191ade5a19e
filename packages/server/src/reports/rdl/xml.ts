// A minimal, strict XML reader (elements, attributes, text, CDATA, comments, PIs, the five entities and character references).
// Enough to check that an RDL file is well-formed and to walk it; no DTDs, no namespace resolution beyond prefixes.

/** An element: its qualified name, attributes, child elements and concatenated text. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /[A-Za-z_][\w.:-]*/y;

/** Parses `src` as an XML document; throws an Error with the offset of the first fault. */
export function parseXml(src: string): XmlElement {
  let i = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (msg: string): never => {
    throw new Error(`${msg} at offset ${i}`);
  };
  const decode = (s: string) =>
    s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);|&/g, (_m, e: string | undefined) => {
      if (!e) return fail('bare & (use &amp;)');
      if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
      if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
      return ENTITIES[e] ?? fail(`unknown entity &${e};`);
    });
  const skipMisc = () => {
    for (;;) {
      while (/\s/.test(src[i] ?? '')) i++;
      if (src.startsWith('<?', i)) i = closeAt('?>');
      else if (src.startsWith('<!--', i)) i = closeAt('-->');
      else if (src.startsWith('<!DOCTYPE', i)) fail('DOCTYPE is not allowed');
      else return;
    }
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
  const element = (): XmlElement => {
    if (src[i] !== '<') fail('expected <');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      while (/\s/.test(src[i] ?? '')) i++;
      if (src.startsWith('/>', i)) return (i += 2), el;
      if (src[i] === '>') break;
      const attr = name();
      while (/\s/.test(src[i] ?? '')) i++;
      if (src[i] !== '=') fail(`attribute ${attr} has no value`);
      i++;
      while (/\s/.test(src[i] ?? '')) i++;
      const q = src[i];
      if (q !== '"' && q !== "'") fail(`attribute ${attr} value is not quoted`);
      const end = src.indexOf(q!, i + 1);
      if (end < 0) fail('unterminated attribute value');
      if (attr in el.attrs) fail(`duplicate attribute ${attr}`);
      el.attrs[attr] = decode(src.slice(i + 1, end));
      i = end + 1;
    }
    i++;
    for (;;) {
      if (i >= src.length) fail(`element <${el.name}> is not closed`);
      if (src.startsWith('</', i)) {
        i += 2;
        const close = name();
        if (close !== el.name) fail(`</${close}> closes <${el.name}>`);
        while (/\s/.test(src[i] ?? '')) i++;
        if (src[i] !== '>') fail('expected >');
        i++;
        return el;
      }
      if (src.startsWith('<!--', i)) i = closeAt('-->');
      else if (src.startsWith('<![CDATA[', i)) {
        const start = i + 9;
        i = closeAt(']]>');
        el.text += src.slice(start, i - 3);
      } else if (src.startsWith('<?', i)) i = closeAt('?>');
      else if (src[i] === '<') el.children.push(element());
      else {
        const next = src.indexOf('<', i);
        const end = next < 0 ? src.length : next;
        el.text += decode(src.slice(i, end));
        i = end;
      }
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i < src.length) fail('content after the root element');
  return root;
}

/** The local part of a qualified name (`rd:ReportID` → `ReportID`). */
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The child elements of `el` with local name `name`. */
export const kids = (el: XmlElement | undefined, name: string) => el?.children.filter((c) => localName(c.name) === name) ?? [];

/** The first child element of `el` with local name `name`. */
export const kid = (el: XmlElement | undefined, name: string) => kids(el, name)[0];
