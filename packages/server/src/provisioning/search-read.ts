import type { LiveParts } from '../item-types/descriptor.js';

/**
 * `live` cut down to what `sent` names: the keys of each object it sends, element by element in arrays. The search
 * service answers every attribute with its default filled in; only what the content sets is compared.
 */
export function projectOnto(live: unknown, sent: unknown): unknown {
  if (Array.isArray(sent) && Array.isArray(live)) return live.map((v, i) => (i < sent.length ? projectOnto(v, sent[i]) : v));
  if (sent && typeof sent === 'object' && !Array.isArray(sent) && live && typeof live === 'object' && !Array.isArray(live)) {
    const l = live as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(sent).flatMap((k) => (k in l ? [[k, projectOnto(l[k], (sent as Record<string, unknown>)[k])]] : [])),
    );
  }
  return live;
}

type Index = { name: string; fields: Array<{ name: string }> } & Record<string, unknown>;
const text = (v: unknown) => JSON.stringify(v, null, 2);

/** An index as parts: `index` (its attributes besides name and fields) and one `field <name>` per field. */
export function indexParts(index: Index): LiveParts {
  const { name: _name, fields, ...rest } = index;
  return Object.fromEntries([
    ...(Object.keys(rest).length ? [['index', text(rest)]] : []),
    ...fields.map((f) => [`field ${f.name}`, text(f)]),
  ]);
}

/**
 * The index the service holds, as parts cut down to what `sent` names; a field the service holds that `sent` lacks is
 * a part of its own (the index PUT cannot remove it, and the plan says so).
 */
export function liveIndexParts(live: Index, sent: Index): LiveParts {
  const { name: _n, fields: _f, ...rest } = sent;
  const { name: _ln, fields, ...liveRest } = live;
  const byName = new Map(sent.fields.map((f) => [f.name, f]));
  return Object.fromEntries([
    ...(Object.keys(rest).length ? [['index', text(projectOnto(liveRest, rest))]] : []),
    ...(fields ?? []).map((f) => [`field ${f.name}`, text(byName.has(f.name) ? projectOnto(f, byName.get(f.name)) : f)]),
  ]);
}
