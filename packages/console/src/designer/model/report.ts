// An RDL definition open for editing: the lossless tree and what the designer reads from it (regions, report items
// with their positions, names). Edits live in the files beside this one and change the tree in place.

import { child, childText, descendants, elements, local, parseXml, serialize, textOf, type XDoc, type XElement } from './xml.js';
import { build, insertChild, removeChild, setText } from './xml-edit.js';
import { toInches } from './units.js';

export const RDL_NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';
export const RD_NS = 'http://schemas.microsoft.com/SQLServer/reporting/reportdesigner';

/** The report item elements of RDL 2016 (Tablix stands for table, matrix and list). */
export const ITEM_KINDS = [
  'Textbox',
  'Tablix',
  'Rectangle',
  'Image',
  'Line',
  'Chart',
  'Subreport',
  'Map',
  'GaugePanel',
  'CustomReportItem',
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
const isItemKind = (n: string): n is ItemKind => (ITEM_KINDS as readonly string[]).includes(n);

/** The parts of a page the designer draws. */
export type Region = 'body' | 'header' | 'footer';

/** A report item as the surface places it (inches, relative to its container). */
export interface ReportItem {
  name: string;
  kind: ItemKind;
  region: Region;
  /** The rectangle it sits in; undefined at the top of its region. */
  container?: string;
  top: number;
  left: number;
  width: number;
  height: number;
  el: XElement;
}

/** A parsed definition with the queries the designer needs; `toString()` is the definition's text. */
export class RdlDocument {
  private constructor(readonly doc: XDoc) {}

  /** Parses a definition (throws XmlSyntaxError when it is not well-formed). */
  static parse(xml: string): RdlDocument {
    return new RdlDocument(parseXml(xml));
  }

  toString(): string {
    return serialize(this.doc);
  }

  get root(): XElement {
    return this.doc.root;
  }

  /** The first report section (the designer edits that one; others are kept as they are). */
  section(): XElement | undefined {
    return child(child(this.root, 'ReportSections'), 'ReportSection');
  }

  /** The element of a region: Body, PageHeader or PageFooter. */
  regionEl(region: Region): XElement | undefined {
    const s = this.section();
    if (region === 'body') return child(s, 'Body');
    return child(child(s, 'Page'), region === 'header' ? 'PageHeader' : 'PageFooter');
  }

  /** Height of a region in inches (0 when it is absent). */
  regionHeight(region: Region): number {
    return toInches(childText(this.regionEl(region), 'Height')) ?? 0;
  }

  /** The body width (the section's Width) in inches. */
  bodyWidth(): number {
    return toInches(childText(this.section(), 'Width')) ?? 6.5;
  }

  /** A page setting (PageWidth, PageHeight, LeftMargin…) in inches. */
  pageSize(name: string, fallback: number): number {
    return toInches(childText(child(this.section(), 'Page'), name)) ?? fallback;
  }

  /** The items of a region: the top level and, after each rectangle, the items inside it. */
  items(region: Region): ReportItem[] {
    const out: ReportItem[] = [];
    const walk = (list: XElement | undefined, container?: string) => {
      for (const el of elements(list)) {
        const kind = local(el.name);
        if (!isItemKind(kind)) continue;
        out.push({
          name: el.attrs.Name ?? '',
          kind,
          region,
          container,
          top: toInches(childText(el, 'Top')) ?? 0,
          left: toInches(childText(el, 'Left')) ?? 0,
          width: toInches(childText(el, 'Width')) ?? 1,
          height: toInches(childText(el, 'Height')) ?? 0.25,
          el,
        });
        if (kind === 'Rectangle') walk(child(el, 'ReportItems'), el.attrs.Name);
      }
    };
    walk(child(this.regionEl(region), 'ReportItems'));
    return out;
  }

  /** Every placed item of the page (body, header, footer). */
  allItems(): ReportItem[] {
    return [...this.items('header'), ...this.items('body'), ...this.items('footer')];
  }

  /** A report item anywhere in the definition (also inside tablix cells) by its name. */
  find(name: string): XElement | undefined {
    for (const kind of ITEM_KINDS) {
      const el = descendants(this.root, kind).find((e) => e.attrs.Name === name);
      if (el) return el;
    }
    return undefined;
  }

  /**
   * The names that must stay unique across the definition: report items, groups, data sets and data sources (fields,
   * query parameters and report parameters have namespaces of their own).
   */
  names(): Set<string> {
    const out = new Set<string>();
    const own = ['Field', 'QueryParameter', 'ReportParameter'];
    const walk = (el: XElement) => {
      if (el.attrs.Name && !own.includes(local(el.name))) out.add(el.attrs.Name);
      for (const c of elements(el)) walk(c);
    };
    walk(this.root);
    return out;
  }

  /**
   * A name not used yet: `base`, else `base1`, `base2`… (base made a valid RDL name). `also` holds names taken by
   * elements not added yet; the answer is added to it.
   */
  uniqueName(base: string, also: Set<string> = new Set()): string {
    let b = base.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '');
    if (!b) b = 'Item';
    b = b.slice(0, 50);
    const taken = this.names();
    const free = (n: string) => !taken.has(n) && !also.has(n);
    let name = b;
    if (!free(b)) for (let n = 1; !free((name = `${b}${n}`)); n++);
    also.add(name);
    return name;
  }

  /** The trimmed text of a child of the root (Description, Language…). */
  property(name: string): string | undefined {
    return childText(this.root, name);
  }
}

/**
 * Sets a child element's text, adding the child when absent (after the last child, laid out like its siblings);
 * `undefined` removes it.
 */
export function setChildText(el: XElement, name: string, value: string | undefined): void {
  const c = child(el, name);
  if (value === undefined) {
    if (c) removeChild(el, c);
    return;
  }
  // The same text again changes nothing: the element keeps its bytes (entities, CDATA) as written.
  if (c) {
    if (textOf(c) !== value) setText(c, value);
  } else insertChild(el, build([name, value]));
}

/** The child element, added (empty) when absent. */
export function ensureChild(el: XElement, name: string, index?: number): XElement {
  const c = child(el, name);
  if (c) return c;
  const made = build([name]);
  insertChild(el, made, index);
  return made;
}
