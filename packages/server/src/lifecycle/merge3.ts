// The three-way merge an upgrade runs per item: base is what the installed catalog version shipped, theirs what the
// new catalog version ships, ours what the item holds now (the user may have edited it). Pure functions over JSON
// values: a change made on one side only is taken, the same change on both sides is taken once, and differing changes
// to the same part are a conflict that keeps ours, so a user's edit is never overwritten silently.

/** A part both sides changed differently; `path` is a JSON pointer (RFC 6901). `undefined` means absent on that side. */
export interface MergeConflict {
  path: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

/** The merged value (ours wherever there is a conflict) and the conflicts. */
export interface MergeResult {
  merged: unknown;
  conflicts: MergeConflict[];
}

type Json = Record<string, unknown>;

// The fields an array element is known by, in order of preference: catalog tables and columns have `name`, app items
// `key`, platform parts and activator entities `id`.
const IDENTITY_FIELDS = ['name', 'key', 'id'] as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values (object key order does not matter; `undefined` is an absent value). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** One segment of a JSON pointer, escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`). */
const segment = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

/** The identity field every element of all the arrays has as a string, unique within each array; undefined if none. */
function identityField(arrays: unknown[][]): string | undefined {
  return IDENTITY_FIELDS.find((f) =>
    arrays.every((a) => {
      if (!a.every((e) => isObject(e) && typeof e[f] === 'string')) return false;
      return new Set(a.map((e) => (e as Json)[f])).size === a.length;
    }),
  );
}

/** Merges three JSON values; on a conflict `merged` keeps ours at that path and the conflict is listed. */
export function merge3(base: unknown, ours: unknown, theirs: unknown): MergeResult {
  const conflicts: MergeConflict[] = [];
  const merged = mergeAt('', base, ours, theirs, conflicts);
  return { merged, conflicts };
}

function mergeAt(path: string, base: unknown, ours: unknown, theirs: unknown, out: MergeConflict[]): unknown {
  if (jsonEqual(ours, theirs)) return ours;
  if (jsonEqual(ours, base)) return theirs;
  if (jsonEqual(theirs, base)) return ours;
  // Both sides changed it, differently: only parts of objects, and of arrays known by identity, can still merge.
  if (isObject(base) && isObject(ours) && isObject(theirs)) return mergeObjects(path, base, ours, theirs, out);
  if (Array.isArray(base) && Array.isArray(ours) && Array.isArray(theirs)) {
    const field = identityField([base, ours, theirs]);
    if (field) return mergeArrays(path, field, base, ours, theirs, out);
  }
  out.push({ path, base, ours, theirs });
  return ours;
}

/** Key by key: ours' keys in their order, then keys only theirs added. A key merged to absent is left out. */
function mergeObjects(path: string, base: Json, ours: Json, theirs: Json, out: MergeConflict[]): Json {
  const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])];
  const result: Json = {};
  for (const k of keys) {
    const v = mergeAt(`${path}/${segment(k)}`, base[k], ours[k], theirs[k], out);
    if (v !== undefined) result[k] = v;
  }
  return result;
}

/**
 * Element-wise by identity: theirs' elements in theirs' order, then those only ours added (in ours' order). An element
 * deleted on one side and unchanged on the other is deleted; deleted on one side and changed on the other is a
 * conflict, which keeps ours (the element stays if ours has it). The pointer names the element's index in ours, or in
 * theirs when ours does not hold it.
 */
function mergeArrays(path: string, field: string, base: unknown[], ours: unknown[], theirs: unknown[], out: MergeConflict[]): unknown[] {
  const byId = (a: unknown[]) => new Map(a.map((e, i) => [(e as Json)[field] as string, { e, i }]));
  const b = byId(base);
  const o = byId(ours);
  const t = byId(theirs);
  const order = [...t.keys(), ...[...o.keys()].filter((id) => !t.has(id))];
  const result: unknown[] = [];
  for (const id of order) {
    const index = o.get(id)?.i ?? t.get(id)?.i;
    const v = mergeAt(`${path}/${index}`, b.get(id)?.e, o.get(id)?.e, t.get(id)?.e, out);
    if (v !== undefined) result.push(v);
  }
  return result;
}

const MAX_SHOWN = 80;

/** A value as a short line of text: JSON, cut at MAX_SHOWN characters; `(absent)` for a missing value. */
function shown(v: unknown): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 1)}…` : s;
}

/** A short readable text of the conflicts, one line per conflict; empty for none. */
export function describeConflicts(conflicts: readonly MergeConflict[]): string {
  return conflicts
    .map((c) => {
      const where = c.path || '(whole content)';
      if (c.ours === undefined) return `${where}: you removed it, the new version changed it to ${shown(c.theirs)}`;
      if (c.theirs === undefined) return `${where}: the new version removes it, you changed it to ${shown(c.ours)}`;
      return `${where}: you changed it to ${shown(c.ours)}, the new version to ${shown(c.theirs)} (was ${shown(c.base)})`;
    })
    .join('\n');
}
