import type { AppCheck } from './app-check.js';
import { EDGE_KINDS, type CatalogEdge, type EdgeKind } from './types.js';

const STORES = ['lakehouse', 'warehouse', 'kql-database', 'eventhouse', 'search-index', 'mirrored-database'];
const STORED_READERS = ['dataflow-spec', 'prompt-flow', 'data-agent', 'data-product', 'scorecard', 'dashboard', 'power-bi-report'];

/** Which item types each edge kind may join (from → to). */
export const EDGE_RULES: Readonly<Record<EdgeKind, { from: readonly string[]; to: readonly string[] }>> = {
  runs: { from: ['data-pipeline'], to: ['notebook', 'data-pipeline'] },
  feeds: { from: ['notebook', 'data-pipeline', 'eventstream', 'dataflow-spec', ...STORES], to: STORES },
  'reads-from': { from: ['semantic-model', 'notebook', 'kql-queryset', 'warehouse', 'data-pipeline', 'search-index', ...STORED_READERS], to: [...STORES, 'eventstream', 'semantic-model', 'kql-queryset'] },
  visualizes: { from: ['report', 'power-bi-report', 'dashboard', 'kql-dashboard', 'scorecard'], to: ['semantic-model', 'kql-database', 'eventhouse', 'lakehouse', 'warehouse', 'kql-queryset', 'search-index'] },
  'triggers-on': { from: ['activator'], to: ['kql-database', 'eventhouse', 'eventstream', 'lakehouse', 'search-index'] },
};

/** Checks the app's declared edges (known keys and kinds, allowed types, no duplicates) and that every edge its content implies is declared. */
export function validateEdges(check: AppCheck, edges: readonly CatalogEdge[]) {
  const seen = new Set<string>();
  edges.forEach((e, n) => {
    const where = `edge ${n + 1} (${e.from} -${e.kind}-> ${e.to})`;
    if (!(EDGE_KINDS as readonly string[]).includes(e.kind)) check.fail(undefined, `${where}: kind '${e.kind}' is not one of ${EDGE_KINDS.join(', ')}`);
    const from = check.items.get(e.from);
    const to = check.items.get(e.to);
    if (!from) check.fail(undefined, `${where}: from '${e.from}' is not an item of this app`);
    if (!to) check.fail(undefined, `${where}: to '${e.to}' is not an item of this app`);
    if (from === to) check.fail(undefined, `${where}: an edge cannot join an item to itself`);
    const rule = EDGE_RULES[e.kind];
    if (!rule.from.includes(from.itemType) || !rule.to.includes(to.itemType)) check.fail(undefined, `${where}: a ${from.itemType} cannot '${e.kind}' a ${to.itemType}`);
    const id = `${e.from}|${e.kind}|${e.to}`;
    if (seen.has(id)) check.fail(undefined, `${where}: declared twice`);
    seen.add(id);
  });
  for (const want of check.implied) {
    const found = edges.some((e) => e.from === want.from && e.to === want.to && (want.kind === undefined || e.kind === want.kind));
    if (!found) check.fail(want.from, `the thread lacks the edge ${want.from} -${want.kind ?? 'any kind'}-> ${want.to} (${want.why})`);
  }
}
