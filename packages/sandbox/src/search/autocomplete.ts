import { filterOf } from './documents.js';
import { invalid } from './index-schema.js';
import type { SearchIndex } from './store.js';

/** An autocomplete request: the GET query parameters or the POST body (AutocompleteRequest). */
export interface AutocompleteQuery {
  search?: string;
  suggesterName?: string;
  autocompleteMode?: string;
  filter?: string;
  fuzzy?: boolean;
  highlightPreTag?: string;
  highlightPostTag?: string;
  minimumCoverage?: number;
  searchFields?: string;
  top?: number;
}

const MODES = ['oneTerm', 'twoTerms', 'oneTermWithContext'];
const tokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Whether a term completes a prefix: starts with it, or (fuzzy) with one character substituted, missing or extra. */
function completes(term: string, prefix: string, fuzzy: boolean): boolean {
  if (term.startsWith(prefix)) return true;
  if (!fuzzy || prefix.length < 2) return false;
  for (const len of [prefix.length - 1, prefix.length, prefix.length + 1]) {
    const head = term.slice(0, len);
    const [a, b] = [head, prefix];
    const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0]![j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (d[a.length]![b.length]! <= 1) return true;
  }
  return false;
}

/**
 * Completes the last term of the search text from the terms of the suggester's source fields (in the documents the
 * filter keeps), most frequent first: one term, a two-term phrase (twoTerms), or the last two terms as a phrase that
 * occurs in the index (oneTermWithContext).
 */
export function autocomplete(index: SearchIndex, q: AutocompleteQuery) {
  if (!q.suggesterName) throw invalid('suggesterName : The suggester name is required.');
  const suggester = (index.definition.suggesters as any[]).find((s) => s.name === q.suggesterName);
  if (!suggester) throw invalid(`The specified suggester name '${q.suggesterName}' does not exist in this index definition.`);
  if (q.search === undefined || q.search === null) throw invalid('search : The search text is required.');
  if (q.search.length < 1 || q.search.length > 100) throw invalid('search : The search text must be between 1 and 100 characters long.');
  const mode = q.autocompleteMode ?? 'oneTerm';
  if (!MODES.includes(mode))
    throw invalid(`autocompleteMode : The value '${mode}' is not valid; use oneTerm, twoTerms or oneTermWithContext.`);
  const top = q.top ?? 5;
  if (!Number.isInteger(top) || top < 1 || top > 100)
    throw invalid(`$top : The value ${q.top} is out of range; it must be between 1 and 100.`);
  if ((q.highlightPreTag === undefined) !== (q.highlightPostTag === undefined))
    throw invalid('highlightPreTag and highlightPostTag must be set together.');
  if (q.minimumCoverage !== undefined && !(q.minimumCoverage >= 0 && q.minimumCoverage <= 100))
    throw invalid('minimumCoverage : The value must be between 0 and 100.');
  const fields: string[] = q.searchFields
    ? q.searchFields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : suggester.sourceFields;
  const outside = fields.find((f) => !suggester.sourceFields.includes(f));
  if (outside) throw invalid(`searchFields : The field '${outside}' is not a source field of the suggester '${suggester.name}'.`);
  const words = tokens(q.search);
  const prefix = /[^\p{L}\p{N}]$/u.test(q.search) ? '' : (words.pop() ?? '');
  const before = words[words.length - 1];
  const context = words.slice(0, mode === 'oneTermWithContext' && before ? -1 : undefined);
  const counts = new Map<string, number>();
  const keep = filterOf(q.filter);
  for (const doc of [...index.docs.values()].filter(keep)) {
    const seen = new Set<string>();
    for (const f of fields) {
      const value = f
        .split('/')
        .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), doc);
      for (const text of (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string')) {
        const terms = tokens(text);
        terms.forEach((term, i) => {
          if (!prefix || !completes(term, prefix, Boolean(q.fuzzy))) return;
          if (mode === 'twoTerms') {
            if (terms[i + 1]) seen.add(`${term} ${terms[i + 1]}`);
          } else if (mode === 'oneTermWithContext' && before) {
            if (terms[i - 1] === before) seen.add(`${before} ${term}`);
          } else seen.add(term);
        });
      }
    }
    for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const mark = (s: string) => (q.highlightPreTag !== undefined ? `${q.highlightPreTag}${s}${q.highlightPostTag}` : s);
  const value = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([text]) => ({ text, queryPlusText: [...context, mark(text)].join(' ') }));
  return { ...(q.minimumCoverage !== undefined ? { '@search.coverage': 100 } : {}), value };
}
