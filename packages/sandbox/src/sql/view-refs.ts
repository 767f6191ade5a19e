import { tokenize, type Tok } from './lexer.js';

/** The object names a view body reads (after FROM and JOIN), without its CTE names and table functions. */
export function referencedObjects(body: string): string[][] {
  const toks = tokenize(body);
  const word = (t: Tok | undefined, w: string) => t?.k === 'word' && t.v.toUpperCase() === w;
  const ident = (t: Tok | undefined) => t?.k === 'qid' || t?.k === 'word';
  const ctes = new Set<string>();
  for (let i = 1; i + 2 < toks.length; i++) {
    const prev = toks[i - 1]!;
    if ((word(prev, 'WITH') || (prev.k === 'op' && prev.v === ',')) && ident(toks[i]) && word(toks[i + 1], 'AS') && toks[i + 2]!.v === '(')
      ctes.add(toks[i]!.v.toLowerCase());
  }
  const refs: string[][] = [];
  for (let i = 0; i < toks.length; i++) {
    if (!word(toks[i], 'FROM') && !word(toks[i], 'JOIN')) continue;
    let j = i + 1;
    if (!ident(toks[j])) continue;
    const parts = [toks[j]!.v];
    while (toks[j + 1]?.v === '.' && ident(toks[j + 2])) {
      parts.push(toks[j + 2]!.v);
      j += 2;
    }
    if (toks[j + 1]?.k === 'op' && toks[j + 1]!.v === '(') continue;
    if (parts.length === 1 && ctes.has(parts[0]!.toLowerCase())) continue;
    refs.push(parts);
  }
  return refs;
}
