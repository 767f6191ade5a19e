// A field dropped on the design surface: on a tablix it lands in the cell, header or new column under it; on the
// page it starts a table of its own. A semantic model's column first gets its data source, data set and field.

import { dataSets, ensureModelField, isNumericType, type ModelColumn } from './data.js';
import { insertElement } from './items.js';
import type { Region, RdlDocument } from './report.js';
import { type DraggedField, dropField, type FieldTarget, heading } from './tablix-fields.js';
import { tableSpec } from './tablix-make.js';

export type FieldSource =
  | { kind: 'field'; dataSet: string; name: string; numeric: boolean }
  | { kind: 'modelColumn'; column: ModelColumn; model: { name: string; apiHost: string; datasetId: string } };

export type PlaceTarget = ({ tablix: string } & FieldTarget) | { kind: 'region'; region: Region; top: number; left: number };

/** The data set field a dragged thing stands for (made for a model's column). */
export function resolveField(doc: RdlDocument, source: FieldSource): DraggedField {
  if (source.kind === 'field') {
    const f = dataSets(doc)
      .find((s) => s.name === source.dataSet)
      ?.fields.find((x) => x.name === source.name);
    if (!f) throw new Error(`the data set ${source.dataSet} has no field ${source.name}`);
    return { dataSet: source.dataSet, name: source.name, numeric: source.numeric || isNumericType(f.typeName) };
  }
  const r = ensureModelField(doc, source.model, source.column);
  return { dataSet: r.dataSet, name: r.field, numeric: r.numeric };
}

/** Places a field; answers the name of a table made for it (a drop on the page), else undefined. */
export function placeField(doc: RdlDocument, source: FieldSource, target: PlaceTarget): string | undefined {
  const field = resolveField(doc, source);
  if ('tablix' in target) {
    dropField(doc, target.tablix, field, target);
    return undefined;
  }
  const { name, spec } = tableSpec(doc, {
    dataSet: field.dataSet,
    columns: [{ header: heading(field.name), value: `=Fields!${field.name}.Value` }],
    bounds: { top: target.top, left: target.left, width: 1.5, height: 0.5 },
  });
  insertElement(doc, target.region, spec, target.top + 0.5);
  return name;
}
