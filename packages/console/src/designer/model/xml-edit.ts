// Edits of the lossless XML tree (xml.ts): attributes, text, children added and removed laid out like their
// siblings, and new elements built from a compact description. Only the nodes an edit touches are written anew.

import { elements, escapeAttr, escapeText, type XElement, type XNode } from './xml.js';

/** Makes an element from parts; children given as nodes. Its tags are written fresh. */
function makeElement(name: string, attrs: Record<string, string> = {}, children: XNode[] = []): XElement {
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

/**
 * Lays out a made element (and its made descendants) one element per line at `indent` and deeper, leaving text-only
 * elements on one line. Elements read from a document keep their layout.
 */
function reindent(el: XElement, indent: string): void {
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
