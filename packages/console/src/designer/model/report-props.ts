// Report-level properties: description, page size and margins, body and band heights, the page header and footer.

import { setBounds } from './items.js';
import { ensureChild, type RdlDocument, type Region, setChildText } from './report.js';
import { fromInches, unitOf } from './units.js';
import { child, childText, elements } from './xml.js';
import { build, insertChild, removeChild } from './xml-edit.js';

export const PAGE_SETTINGS = ['PageWidth', 'PageHeight', 'LeftMargin', 'RightMargin', 'TopMargin', 'BottomMargin'] as const;
export type PageSetting = (typeof PAGE_SETTINGS)[number];

/** Sets the report's Description ('' removes it). */
export function setDescription(doc: RdlDocument, text: string): void {
  const had = child(doc.root, 'Description');
  if (!text) {
    if (had) removeChild(doc.root, had);
  } else if (had) setChildText(doc.root, 'Description', text);
  else insertChild(doc.root, build(['Description', text]), 0);
}

/** Sets a page setting in inches (kept in the unit it had). */
export function setPageSetting(doc: RdlDocument, name: PageSetting, inches: number): void {
  const page = doc.section() && ensureChild(doc.section()!, 'Page');
  if (!page) return;
  setChildText(page, name, fromInches(Math.max(0, inches), unitOf(childText(page, name))));
}

/** Sets the body's height or width (the section's Width) or a band's height, in inches. */
export function setRegionSize(doc: RdlDocument, region: Region | 'width', inches: number): void {
  if (region === 'width') {
    const s = doc.section();
    if (s) setChildText(s, 'Width', fromInches(Math.max(0.25, inches), unitOf(childText(s, 'Width'))));
    return;
  }
  const el = doc.regionEl(region);
  if (el) setChildText(el, 'Height', fromInches(Math.max(0.1, inches), unitOf(childText(el, 'Height'))));
}

/** Adds a page header or footer (empty, 0.5in, on every page) or removes it with its items. */
export function setBand(doc: RdlDocument, region: Exclude<Region, 'body'>, on: boolean): void {
  const page = ensureChild(doc.section()!, 'Page');
  const name = region === 'header' ? 'PageHeader' : 'PageFooter';
  const had = child(page, name);
  if (!on) {
    if (had) removeChild(page, had);
    return;
  }
  if (had) return;
  const index = region === 'header' ? 0 : elements(page).findIndex((e) => e.name === 'PageHeader') + 1;
  insertChild(
    page,
    build([name, ['Height', '0.5in'], ['PrintOnFirstPage', 'true'], ['PrintOnLastPage', 'true'], ['Style', ['Border', ['Style', 'None']]]]),
    index,
  );
}

/** Sets a report item's position or size (inches). */
export const setItemBounds = (doc: RdlDocument, name: string, b: Parameters<typeof setBounds>[1]) => {
  const el = doc.find(name);
  if (el) setBounds(el, b);
};
