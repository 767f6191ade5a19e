import { elementType, invalid, isLanguageAnalyzer } from './index-schema.js';

/** A field by its path: 'title', or 'address/city' for a sub-field of a complex field. */
function fieldAt(fields: any[], path: string): any | undefined {
  const [head, ...rest] = path.split('/');
  const f = fields.find((x) => x.name === head);
  return rest.length ? (f ? fieldAt(f.fields ?? [], rest.join('/')) : undefined) : f;
}

/**
 * The suggester rules (Learn, "Configure a suggester"): one suggester per index, searchMode analyzingInfixMatching, and
 * source fields that are searchable string fields using the default analyzer (standard Lucene) or a language analyzer —
 * never a built-in or custom one, nor a searchAnalyzer/indexAnalyzer pair.
 */
export function checkSuggesters(suggesters: unknown, fields: any[]): void {
  if (suggesters === undefined || suggesters === null) return;
  if (!Array.isArray(suggesters)) throw invalid("definition : 'suggesters' must be an array.");
  if (suggesters.length > 1) throw invalid(`definition : An index can have only one suggester; this one has ${suggesters.length}.`);
  for (const s of suggesters) {
    if (typeof s?.name !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]{0,127}$/.test(s.name))
      throw invalid(`definition : The suggester name '${s?.name}' is invalid.`);
    if (s.searchMode !== 'analyzingInfixMatching')
      throw invalid(
        `definition : The suggester '${s.name}' has searchMode '${s.searchMode}'; the only supported mode is 'analyzingInfixMatching'.`,
      );
    if (!Array.isArray(s.sourceFields) || !s.sourceFields.length)
      throw invalid(`definition : The suggester '${s.name}' must name at least one source field.`);
    for (const name of s.sourceFields) {
      const f = typeof name === 'string' ? fieldAt(fields, name) : undefined;
      const fail = (why: string) => invalid(`definition : The suggester '${s.name}' cannot use the field '${name}': ${why}`);
      if (!f) throw fail('the index has no such field.');
      if (elementType(f.type) !== 'Edm.String')
        throw fail(`suggesters work on Edm.String and Collection(Edm.String) fields, and this field is of type '${f.type}'.`);
      if (!f.searchable) throw fail('the field is not searchable.');
      if (f.indexAnalyzer || f.searchAnalyzer)
        throw fail("fields with 'indexAnalyzer' and 'searchAnalyzer' cannot be used by a suggester.");
      if (f.analyzer && f.analyzer.toLowerCase() !== 'standard.lucene' && !isLanguageAnalyzer(f.analyzer))
        throw fail(`the field uses the analyzer '${f.analyzer}'; a suggester needs the default (standard.lucene) or a language analyzer.`);
    }
  }
}

/** An update can add a suggester over new fields only: existing fields are already tokenized without the prefixes a suggester needs. */
export function checkSuggesterUpdate(before: Record<string, any>, after: Record<string, any>): void {
  const had = new Set<string>(
    (before.suggesters ?? []).flatMap((s: any) => (s.sourceFields ?? []).map((f: string) => `${s.name}\u0000${f}`)),
  );
  for (const s of after.suggesters ?? []) {
    for (const f of s.sourceFields ?? []) {
      if (!had.has(`${s.name}\u0000${f}`) && fieldAt(before.fields ?? [], f)) {
        throw invalid(
          `definition : The suggester '${s.name}' cannot be given the existing field '${f}': fields already in the index cannot be added to a suggester; rebuild the index, or add the suggester with new fields.`,
        );
      }
    }
  }
}
