import type { XmlElement } from './xml.js';

/** 1-based line of an offset. */
export function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < src.length; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

/** Lines of every start tag in document order (the parser's pre-order), ignoring comments, CDATA and PIs. */
function startTagLines(src: string): number[] {
  const blanked = src.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g, (m) => m.replace(/[^\n]/g, ' '));
  const lines: number[] = [];
  let line = 1;
  let last = 0;
  for (const m of blanked.matchAll(/<[A-Za-z_]/g)) {
    for (let i = last; i < m.index; i++) if (blanked.charCodeAt(i) === 10) line++;
    last = m.index;
    lines.push(line);
  }
  return lines;
}

/** The line of each element's start tag, for a tree `parseXml` read from `src`. */
export function lineMap(root: XmlElement, src: string): Map<XmlElement, number> {
  const lines = startTagLines(src);
  const map = new Map<XmlElement, number>();
  let n = 0;
  const walk = (el: XmlElement) => {
    map.set(el, lines[n++] ?? 1);
    el.children.forEach(walk);
  };
  walk(root);
  return map;
}
