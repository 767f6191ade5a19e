/**
 * What the sandbox holds, as counts by path: the length of every array and every row or document count, so that a
 * re-run that duplicated anything (an artifact, an event hub, a rule, a row) changes a count. Records that grow with
 * every call by nature (operations, report uploads, the request log, tokens) are left out.
 */
export function inventory(value: unknown, path = '', out = new Map<string, number>()): Map<string, number> {
  if (Array.isArray(value)) {
    out.set(path, (out.get(path) ?? 0) + value.length);
    for (const v of value) inventory(v, `${path}[]`, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (/operation|import|request|token|session|switch|fault|log|principal/i.test(k)) continue;
      if (typeof v === 'number' && /count$/i.test(k)) out.set(`${path}.${k}`, (out.get(`${path}.${k}`) ?? 0) + v);
      else inventory(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** The paths whose counts differ between two inventories, as `path: before -> after`. */
export function inventoryChanges(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((k) => (before.get(k) ?? 0) !== (after.get(k) ?? 0))
    .map((k) => `${k}: ${before.get(k) ?? 0} -> ${after.get(k) ?? 0}`);
}
