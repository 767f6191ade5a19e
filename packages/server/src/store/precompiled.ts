import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './db.js';

const SLOT = '\u0000slot:';

/**
 * A hot query built and compiled once, its values left as named slots that each run binds: Kysely writes the same text
 * for every run of one shape, so building it again per request is allocation for nothing.
 */
export function precompiled<const S extends string, R>(
  db: Db,
  slotNames: readonly S[],
  build: (slot: (name: S) => never) => Compilable<R>,
): (values: Readonly<Record<S, unknown>>) => Promise<R[]> {
  const query: CompiledQuery<R> = build((name) => `${SLOT}${name}` as never).compile();
  const slots = query.parameters.map((p) => {
    if (typeof p !== 'string' || !p.startsWith(SLOT)) return undefined; // a value the builder wrote itself
    const name = p.slice(SLOT.length) as S;
    if (!slotNames.includes(name)) throw new Error(`a precompiled query binds the undeclared slot '${name}'`);
    return name;
  });
  return async (values) => {
    const parameters = query.parameters.map((p, i) => (slots[i] === undefined ? p : values[slots[i]!]));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
