// Edits of report items on the page: insert, move and resize, align, delete, value, style and visibility.

import { ensureChild, type Region, type RdlDocument, type ReportItem, setChildText } from './report.js';
import { fromInches, toInches, unitOf } from './units.js';
import { child, childText, elements, local, textOf, type XElement } from './xml.js';
import { build, insertChild, removeChild, type Spec } from './xml-edit.js';

export interface Bounds {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** Kinds the ribbon inserts (table, matrix and list are tablix layouts; see tablix-make.ts). */
export type InsertKind = 'Textbox' | 'Rectangle' | 'Line' | 'Image';

const SIZE_ORDER = ['Top', 'Left', 'Height', 'Width'] as const;

/** Writes an item's position and size, each in the unit it was written in (inches for a new one). */
export function setBounds(el: XElement, b: Partial<Bounds>): void {
  const map: Record<(typeof SIZE_ORDER)[number], number | undefined> = { Top: b.top, Left: b.left, Height: b.height, Width: b.width };
  for (const k of SIZE_ORDER) {
    const v = map[k];
    if (v === undefined) continue;
    const old = childText(el, k);
    const value = k === 'Top' || k === 'Left' ? Math.max(0, v) : Math.max(0.01, v);
    if (old !== undefined && Math.abs((toInches(old) ?? Number.NaN) - value) < 1e-6) continue;
    setChildText(el, k, fromInches(value, unitOf(old)));
  }
}

/** The ReportItems of a region (or rectangle), added when absent. */
function itemsOf(doc: RdlDocument, region: Region, container?: string): XElement {
  const holder = container ? doc.find(container) : doc.regionEl(region);
  if (!holder) throw new Error(`no ${container ?? region} to insert into`);
  // ReportItems comes first in a region, before Height and Style.
  return ensureChild(holder, 'ReportItems', 0);
}

/** A text box whose one paragraph holds one run with `value` (a literal or an =expression). */
export function textboxSpec(name: string, value: string, opts: { runStyle?: Spec[]; boxStyle?: Spec[]; bounds?: Bounds } = {}): Spec {
  return [
    'Textbox',
    { Name: name },
    ['CanGrow', 'true'],
    ['KeepTogether', 'true'],
    ['Paragraphs', ['Paragraph', ['TextRuns', ['TextRun', ['Value', value], ['Style', ...(opts.runStyle ?? [])]]], ['Style']]],
    ['rd:DefaultName', name],
    ...(opts.bounds ? boundsSpec(opts.bounds) : []),
    ['Style', ...(opts.boxStyle ?? defaultBoxStyle())],
  ];
}

/** Top, Left, Height and Width elements in inches. */
export const boundsSpec = (b: Bounds): Spec[] => [
  ['Top', fromInches(b.top)],
  ['Left', fromInches(b.left)],
  ['Height', fromInches(b.height)],
  ['Width', fromInches(b.width)],
];

/** The padding every designer-made text box has. */
export const defaultBoxStyle = (): Spec[] => [
  ['Border', ['Style', 'None']],
  ['PaddingLeft', '2pt'],
  ['PaddingRight', '2pt'],
  ['PaddingTop', '2pt'],
  ['PaddingBottom', '2pt'],
];

/** Adds an item to a region (or a rectangle) at `bounds`; answers its name. */
export function insertItem(
  doc: RdlDocument,
  region: Region,
  kind: InsertKind,
  bounds: Bounds,
  opts: { container?: string; value?: string } = {},
): string {
  const name = doc.uniqueName(kind === 'Textbox' ? 'Textbox' : kind);
  let spec: Spec;
  if (kind === 'Textbox') spec = textboxSpec(name, opts.value ?? '', { bounds });
  else if (kind === 'Rectangle')
    spec = ['Rectangle', { Name: name }, ['KeepTogether', 'true'], ...boundsSpec(bounds), ['Style', ['Border', ['Style', 'Solid']]]];
  else if (kind === 'Line')
    spec = ['Line', { Name: name }, ...boundsSpec({ ...bounds, height: 0 }), ['Style', ['Border', ['Style', 'Solid']]]];
  else
    spec = [
      'Image',
      { Name: name },
      ['Source', 'External'],
      ['Value', opts.value ?? ''],
      ['Sizing', 'FitProportional'],
      ...boundsSpec(bounds),
      ['Style', ['Border', ['Style', 'None']]],
    ];
  insertChild(itemsOf(doc, region, opts.container), build(spec));
  if (kind === 'Line') setChildText(doc.find(name)!, 'Height', '0in');
  growRegion(doc, region, bounds.top + bounds.height);
  return name;
}

/** Adds a made item element (a tablix) to a region. */
export function insertElement(doc: RdlDocument, region: Region, spec: Spec, bottom: number): void {
  insertChild(itemsOf(doc, region), build(spec));
  growRegion(doc, region, bottom);
}

/** Makes a region tall enough to hold an item that ends at `bottom` inches. */
export function growRegion(doc: RdlDocument, region: Region, bottom: number): void {
  const el = doc.regionEl(region);
  if (!el) return;
  if (doc.regionHeight(region) < bottom) setChildText(el, 'Height', fromInches(Math.ceil(bottom * 8) / 8, unitOf(childText(el, 'Height'))));
}

/** Moves items by an offset in inches (never above or left of their container's origin). */
export function moveItems(doc: RdlDocument, names: string[], dx: number, dy: number): void {
  for (const item of doc.allItems().filter((i) => names.includes(i.name))) {
    setBounds(item.el, { top: item.top + dy, left: item.left + dx });
    growRegion(doc, item.region, item.top + dy + item.height);
  }
}

/** Lines items up on the first selected one's edge or centre. */
export function alignItems(doc: RdlDocument, names: string[], edge: 'left' | 'right' | 'top' | 'bottom' | 'center' | 'middle'): void {
  const items = names.map((n) => doc.allItems().find((i) => i.name === n)).filter((i): i is ReportItem => !!i);
  const [first] = items;
  if (!first) return;
  for (const it of items.slice(1)) {
    if (edge === 'left') setBounds(it.el, { left: first.left });
    if (edge === 'right') setBounds(it.el, { left: first.left + first.width - it.width });
    if (edge === 'top') setBounds(it.el, { top: first.top });
    if (edge === 'bottom') setBounds(it.el, { top: first.top + first.height - it.height });
    if (edge === 'center') setBounds(it.el, { left: first.left + (first.width - it.width) / 2 });
    if (edge === 'middle') setBounds(it.el, { top: first.top + (first.height - it.height) / 2 });
  }
}

/** Removes items; a ReportItems left empty goes too (the schema wants at least one item in one). */
export function deleteItems(doc: RdlDocument, names: string[]): void {
  for (const name of names) {
    const el = doc.find(name);
    const parent = el?.parent;
    if (!el || !parent || local(parent.name) !== 'ReportItems') continue;
    removeChild(parent, el);
    if (!elements(parent).length && parent.parent) removeChild(parent.parent, parent);
  }
}

/** A text box's value: its paragraphs' runs, as one text (runs joined, paragraphs on lines). */
export function textboxValue(el: XElement): string {
  return elements(child(el, 'Paragraphs'), 'Paragraph')
    .map((p) =>
      elements(child(p, 'TextRuns'), 'TextRun')
        .map((r) => textOf(child(r, 'Value')) ?? '')
        .join(''),
    )
    .join('\n');
}

/**
 * Sets a text box's value. A box of one paragraph with one run keeps everything but the Value; a richer one becomes
 * one paragraph and one run that keep the first ones' styles.
 */
export function setTextboxValue(el: XElement, value: string): void {
  const paragraphs = child(el, 'Paragraphs') ?? ensureChild(el, 'Paragraphs');
  const paras = elements(paragraphs, 'Paragraph');
  const runs = elements(child(paras[0], 'TextRuns'), 'TextRun');
  if (paras.length === 1 && runs.length === 1) {
    setChildText(runs[0]!, 'Value', value);
    return;
  }
  for (const p of paras.slice(1)) removeChild(paragraphs, p);
  for (const r of runs.slice(1)) removeChild(runs[1]!.parent!, r);
  if (runs[0]) setChildText(runs[0], 'Value', value);
  else insertChild(paragraphs, build(['Paragraph', ['TextRuns', ['TextRun', ['Value', value], ['Style']]], ['Style']]));
}

/** Style properties of a text box's text (each run) and of its paragraphs; the rest are the item's own. */
export const RUN_STYLE = ['FontFamily', 'FontSize', 'FontWeight', 'FontStyle', 'Color', 'Format', 'TextDecoration'] as const;
export const PARAGRAPH_STYLE = ['TextAlign'] as const;
export type StyleName =
  | (typeof RUN_STYLE)[number]
  | (typeof PARAGRAPH_STYLE)[number]
  | 'BackgroundColor'
  | 'VerticalAlign'
  | 'BorderStyle'
  | 'BorderColor'
  | 'BorderWidth';

/** The elements a style property of an item lives in (runs, paragraphs, or the item's Style). */
function styleHolders(el: XElement, prop: StyleName): XElement[] {
  const paras = elements(child(el, 'Paragraphs'), 'Paragraph');
  if ((RUN_STYLE as readonly string[]).includes(prop) && local(el.name) === 'Textbox')
    return paras.flatMap((p) => elements(child(p, 'TextRuns'), 'TextRun')).map((r) => ensureChild(r, 'Style'));
  if ((PARAGRAPH_STYLE as readonly string[]).includes(prop) && local(el.name) === 'Textbox')
    return paras.map((p) => ensureChild(p, 'Style'));
  return [ensureChild(el, 'Style')];
}

/** A style property's value on an item (its first run or paragraph for text properties), or undefined. */
export function styleOf(el: XElement, prop: StyleName): string | undefined {
  const para = elements(child(el, 'Paragraphs'), 'Paragraph')[0];
  const textbox = local(el.name) === 'Textbox';
  let style: XElement | undefined;
  if (textbox && (RUN_STYLE as readonly string[]).includes(prop)) style = child(child(child(para, 'TextRuns'), 'TextRun'), 'Style');
  else if (textbox && (PARAGRAPH_STYLE as readonly string[]).includes(prop)) style = child(para, 'Style');
  else style = child(el, 'Style');
  if (prop.startsWith('Border')) return childText(child(style, 'Border'), prop.slice(6));
  return childText(style, prop);
}

/** Sets (or with '' removes) a style property of an item. */
export function setStyle(el: XElement, prop: StyleName, value: string): void {
  for (const style of styleHolders(el, prop)) {
    if (prop.startsWith('Border')) {
      if (!value && !child(style, 'Border')) continue;
      setChildText(ensureChild(style, 'Border'), prop.slice(6), value || undefined);
    } else setChildText(style, prop, value || undefined);
  }
}

/** The item's Hidden expression (Visibility), or ''. */
export const hiddenOf = (el: XElement) => childText(child(el, 'Visibility'), 'Hidden') ?? '';

/** Sets the item's Hidden expression; '' removes the Visibility. */
export function setHidden(el: XElement, expr: string): void {
  const vis = child(el, 'Visibility');
  if (!expr) {
    if (vis) removeChild(el, vis);
    return;
  }
  setChildText(vis ?? ensureChild(el, 'Visibility'), 'Hidden', expr);
}
