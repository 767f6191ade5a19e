// The designer's edits as the ribbon and the data pane ask for them, each one step of the draft's history.

import type { DragPayload } from './dnd';
import { alignItems, deleteItems, insertElement, insertItem, setStyle, type StyleName } from './model/items';
import { placeField, type PlaceTarget } from './model/place';
import type { RdlDocument } from './model/report';
import { readTablix, shapeOf } from './model/tablix';
import { listSpec, matrixSpec, tableSpec } from './model/tablix-make';
import type { InsertCommand } from './Ribbon';
import type { Selection } from './useDesigner';

/** Where a new item goes: under the lowest item of the body. */
export function freeTop(doc: RdlDocument): number {
  const bottom = Math.max(
    0,
    ...doc
      .items('body')
      .filter((i) => !i.container)
      .map((i) => i.top + i.height),
  );
  return Math.round((bottom + 0.125) * 16) / 16;
}

/** Inserts a report item (tablix layouts over the first data set, if any); answers its name. */
export function insert(doc: RdlDocument, kind: InsertCommand, dataSet: string | undefined): string {
  const top = freeTop(doc);
  const bounds = { top, left: 0, width: kind === 'Line' ? 3 : 2, height: kind === 'Textbox' ? 0.3 : 1 };
  if (kind === 'Table' || kind === 'Matrix' || kind === 'List') {
    const made =
      kind === 'Table'
        ? tableSpec(doc, {
            dataSet,
            columns: [
              { header: '', value: '' },
              { header: '', value: '' },
            ],
            bounds,
          })
        : kind === 'Matrix'
          ? matrixSpec(doc, { dataSet, bounds })
          : listSpec(doc, { dataSet, bounds: { ...bounds, width: 4 } });
    insertElement(doc, 'body', made.spec, top + 1);
    return made.name;
  }
  return insertItem(doc, 'body', kind, bounds, { value: kind === 'Textbox' ? 'Text' : '' });
}

/** The names a format or delete command applies to: the selected items, or the selected cell's text box. */
export const targets = (sel: Selection) => (sel.kind === 'items' ? sel.names : sel.kind === 'cell' ? [sel.item] : []);

export function format(doc: RdlDocument, sel: Selection, prop: StyleName, value: string): void {
  for (const name of targets(sel)) {
    const el = doc.find(name);
    if (el) setStyle(el, prop, value);
  }
}

export function align(doc: RdlDocument, sel: Selection, edge: 'left' | 'right' | 'top' | 'bottom'): void {
  if (sel.kind === 'items') alignItems(doc, sel.names, edge);
}

export function remove(doc: RdlDocument, sel: Selection): void {
  if (sel.kind === 'items') deleteItems(doc, sel.names);
}

/**
 * Places a field without dragging (the keyboard's way): on the selected cell or header; at the right of a selected
 * table; else as a new table under the body's items.
 */
export function placeAtSelection(doc: RdlDocument, sel: Selection, payload: DragPayload): string | undefined {
  let target: PlaceTarget = { kind: 'region', region: 'body', top: freeTop(doc), left: 0 };
  if (sel.kind === 'cell') {
    target = sel.member
      ? { tablix: sel.tablix, kind: 'header', at: sel.member }
      : sel.row !== undefined && sel.col !== undefined
        ? { tablix: sel.tablix, kind: 'cell', row: sel.row, col: sel.col }
        : target;
  } else if (sel.kind === 'items' && sel.names.length === 1) {
    const el = doc.find(sel.names[0]!);
    if (el && el.name === 'Tablix') {
      const t = readTablix(el);
      if (shapeOf(t) === 'table') target = { tablix: t.name, kind: 'newColumn', index: t.columns.length };
    }
  }
  return placeField(doc, payload, target);
}
