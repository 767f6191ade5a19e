// What the report data pane drags onto the surface: a data set's field, or a semantic model's column (its data set
// and field are made when it lands).

import type { ModelColumn } from './model/data';

export const DRAG_TYPE = 'application/x-svc-rdl-field';

export type DragPayload =
  | { kind: 'field'; dataSet: string; name: string; numeric: boolean }
  | { kind: 'modelColumn'; column: ModelColumn; model: { name: string; apiHost: string; datasetId: string } };

/** Starts a drag of a field or column. */
export function startDrag(e: React.DragEvent, payload: DragPayload): void {
  e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(payload));
  e.dataTransfer.setData('text/plain', payload.kind === 'field' ? `=Fields!${payload.name}.Value` : payload.column.column);
  e.dataTransfer.effectAllowed = 'copy';
}

/** The payload of a drop, when it is one of ours. */
export function dropped(e: React.DragEvent): DragPayload | undefined {
  const raw = e.dataTransfer.getData(DRAG_TYPE);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as DragPayload;
  } catch {
    return undefined;
  }
}

/** Whether a drag carries one of ours (data is readable only on drop; the type list is readable during the drag). */
export const carriesField = (e: React.DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE);
