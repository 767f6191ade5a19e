import type { Compilable, CompiledQuery } from 'kysely';
import type { Store } from './db.js';
import type { TextRow } from './text-reads.js';

const SLOT = '\u0000slot:';

/**
 * A hot read built and compiled once, its values left as named slots that each run binds: Kysely writes the same text
 * for every run of one shape, so building it again per request is allocation for nothing. It runs as the store's
 * readText, its rows as arrays of text.
 */
export function precompiled<const S extends string>(
  store: Pick<Store, 'db' | 'readText'>,
  slotNames: readonly S[],
  build: (slot: (name: S) => never) => Compilable<unknown>,
): (values: Readonly<Record<S, unknown>>) => Promise<TextRow[]> {
  const query: CompiledQuery<unknown> = build((name) => `${SLOT}${name}` as never).compile();
  const slots = query.parameters.map((p) => {
    if (typeof p !== 'string' || !p.startsWith(SLOT)) return undefined; // a value the builder wrote itself
    const name = p.slice(SLOT.length) as S;
    if (!slotNames.includes(name)) throw new Error(`a precompiled query binds the undeclared slot '${name}'`);
    return name;
  });
  return (values) =>
    store.readText(
      query.sql,
      query.parameters.map((p, i) => (slots[i] === undefined ? p : values[slots[i]!])),
    );
}
