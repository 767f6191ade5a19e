import { edgeRules } from '../item-types/index.js';
import type { AppCheck } from './app-check.js';
import { EDGE_KINDS, type CatalogEdge } from './types.js';

/** Which item types each edge kind may join (from → to), from the edge ends each item type declares. */
export const EDGE_RULES = edgeRules();

/** Checks the app's declared edges (known keys and kinds, allowed types, no duplicates) and that every edge its content implies is declared. */
export function validateEdges(check: AppCheck, edges: readonly CatalogEdge[]) {
  const seen = new Set<string>();
  edges.forEach((e, n) => {
    const where = `edge ${n + 1} (${e.from} -${e.kind}-> ${e.to})`;
    if (!(EDGE_KINDS as readonly string[]).includes(e.kind))
      check.fail(undefined, `${where}: kind '${e.kind}' is not one of ${EDGE_KINDS.join(', ')}`);
    const from = check.items.get(e.from);
    const to = check.items.get(e.to);
    if (!from) check.fail(undefined, `${where}: from '${e.from}' is not an item of this app`);
    if (!to) check.fail(undefined, `${where}: to '${e.to}' is not an item of this app`);
    if (from === to) check.fail(undefined, `${where}: an edge cannot join an item to itself`);
    const rule = EDGE_RULES[e.kind];
    if (!rule.from.includes(from.itemType) || !rule.to.includes(to.itemType))
      check.fail(undefined, `${where}: a ${from.itemType} cannot '${e.kind}' a ${to.itemType}`);
    const id = `${e.from}|${e.kind}|${e.to}`;
    if (seen.has(id)) check.fail(undefined, `${where}: declared twice`);
    seen.add(id);
  });
  for (const want of check.implied) {
    const found = edges.some((e) => e.from === want.from && e.to === want.to && (want.kind === undefined || e.kind === want.kind));
    if (!found) check.fail(want.from, `the thread lacks the edge ${want.from} -${want.kind ?? 'any kind'}-> ${want.to} (${want.why})`);
  }
}
