import type { ThreadEdge } from '../api/types';

export const NODE_W = 210;
export const NODE_H = 44;
const COL_GAP = 130;
const ROW_GAP = 28;
const PAD = 16;

export interface Placed {
  id: string;
  x: number;
  y: number;
}

/** Layered layout: each item's column is its longest path from a source, so lineage reads left to right. */
export function layout(nodeIds: string[], edges: ThreadEdge[]): { nodes: Map<string, Placed>; width: number; height: number } {
  const layer = new Map(nodeIds.map((id) => [id, 0]));
  // Relax edges at most |nodes| times: enough for any DAG, and a cycle cannot loop forever.
  for (let pass = 0; pass < nodeIds.length; pass++) {
    let changed = false;
    for (const e of edges) {
      const from = layer.get(e.fromItemId);
      const to = layer.get(e.toItemId);
      if (from === undefined || to === undefined) continue;
      if (to < from + 1) {
        layer.set(e.toItemId, from + 1);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const cols = Math.max(0, ...layer.values()) + 1;
  const columns: string[][] = Array.from({ length: cols }, () => []);
  for (const id of nodeIds) columns[layer.get(id)!]!.push(id);
  // Order each column by the mean row of its neighbours in the columns already placed (fewer crossings).
  const row = new Map<string, number>();
  for (const [i, id] of columns[0]!.entries()) row.set(id, i);
  for (let c = 1; c < cols; c++) {
    const mean = (id: string) => {
      const rows = edges.filter((e) => e.toItemId === id && row.has(e.fromItemId)).map((e) => row.get(e.fromItemId)!);
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Number.MAX_SAFE_INTEGER;
    };
    columns[c]!.sort((a, b) => mean(a) - mean(b));
    for (const [i, id] of columns[c]!.entries()) row.set(id, i);
  }
  const rows = Math.max(...columns.map((c) => c.length));
  const height = PAD * 2 + rows * NODE_H + Math.max(0, rows - 1) * ROW_GAP;
  const nodes = new Map<string, Placed>();
  for (const [c, ids] of columns.entries()) {
    const span = ids.length * NODE_H + Math.max(0, ids.length - 1) * ROW_GAP;
    const top = (height - span) / 2; // columns are centred on the tallest one
    for (const [i, id] of ids.entries()) nodes.set(id, { id, x: PAD + c * (NODE_W + COL_GAP), y: top + i * (NODE_H + ROW_GAP) });
  }
  return { nodes, width: PAD * 2 + cols * NODE_W + (cols - 1) * COL_GAP, height };
}

/** A point of a cubic Bézier curve at t. */
export function bezier(t: number, p0: number, p1: number, p2: number, p3: number): number {
  const u = 1 - t;
  return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
}
