import { ServiceError } from '../http/errors.js';

export const invalid = (detail: string) => new ServiceError(400, '', `The request is invalid. Details: ${detail}`);

const PRIMITIVES = [
  'Edm.String',
  'Edm.Int32',
  'Edm.Int64',
  'Edm.Double',
  'Edm.Boolean',
  'Edm.DateTimeOffset',
  'Edm.GeographyPoint',
  'Edm.ComplexType',
  'Edm.Single',
  'Edm.Half',
  'Edm.Int16',
  'Edm.SByte',
  'Edm.Byte',
];
const VECTOR_ELEMENTS = ['Edm.Single', 'Edm.Half', 'Edm.Int16', 'Edm.SByte', 'Edm.Byte'];
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,127}$/;
const INDEX_NAME = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,127}$/;

/** Element type of a field type: 'Collection(Edm.String)' → 'Edm.String'. */
export const elementType = (type: string) => /^Collection\((.+)\)$/.exec(type)?.[1] ?? type;
const isCollection = (type: string) => type.startsWith('Collection(');

const present = (v: unknown) => v !== undefined && v !== null;
const LANGUAGE_ANALYZER = /^[a-z]{2}(-[A-Za-z]+)?\.(lucene|microsoft)$/;
const BUILT_IN_ANALYZERS = ['standard.lucene', 'standardasciifolding.lucene', 'keyword', 'pattern', 'simple', 'stop', 'whitespace'];
/** A language analyzer (en.microsoft, fr.lucene…), as opposed to the built-in and custom ones. */
export const isLanguageAnalyzer = (name: string) => LANGUAGE_ANALYZER.test(name) && !BUILT_IN_ANALYZERS.includes(name.toLowerCase());
const SIMPLE_ONLY = [
  'key',
  'searchable',
  'filterable',
  'sortable',
  'facetable',
  'retrievable',
  'stored',
  'analyzer',
  'searchAnalyzer',
  'indexAnalyzer',
  'dimensions',
  'vectorSearchProfile',
];

/** The attribute rules of one field (SearchField in the published description, and the service's checks). */
function checkAttributes(raw: any, type: string, at: string, inCollection: boolean, analyzers: Set<string>, profiles: Set<string>): void {
  const name = raw.name;
  const elem = elementType(type);
  const fail = (detail: string) => invalid(`${at} : The field '${name}' ${detail}`);
  if (elem === 'Edm.ComplexType') {
    const set = SIMPLE_ONLY.find((a) => present(raw[a]));
    if (set) throw fail(`is a complex field; '${set}' must be null for complex fields.`);
    if (raw.synonymMaps?.length) throw fail("is a complex field; 'synonymMaps' must be null or empty for complex fields.");
    return;
  }
  if (raw.fields?.length)
    throw fail(`of type '${type}' is a simple field; only fields of type Edm.ComplexType or Collection(Edm.ComplexType) have sub-fields.`);
  const vector = isCollection(type) && VECTOR_ELEMENTS.includes(elem);
  const stringy = elem === 'Edm.String';
  if (vector) {
    if (!Number.isInteger(raw.dimensions) || raw.dimensions < 2 || raw.dimensions > 4096)
      throw fail("is a vector field and must set 'dimensions' between 2 and 4096.");
    if (!present(raw.vectorSearchProfile) || !profiles.has(raw.vectorSearchProfile))
      throw fail(`refers to the vector search profile '${raw.vectorSearchProfile}' which is not defined in 'vectorSearch.profiles'.`);
    if (raw.searchable === false) throw fail('is a vector field and must be searchable.');
    for (const a of ['filterable', 'sortable', 'facetable', 'key'])
      if (raw[a] === true) throw fail(`is a vector field and cannot be ${a === 'key' ? 'a key' : a}.`);
  } else {
    if (present(raw.dimensions)) throw fail("is not a vector field and cannot set 'dimensions'.");
    if (present(raw.vectorSearchProfile)) throw fail("is not a vector field and cannot set 'vectorSearchProfile'.");
    if (raw.stored === false) throw fail("is not a vector field; 'stored' can be false only for vector fields.");
  }
  if (raw.stored === false && raw.retrievable !== false) throw fail("has 'stored' false, so 'retrievable' must be false too.");
  if (raw.key === true) {
    if (type !== 'Edm.String') throw invalid(`${at} : The key field '${name}' must be of type Edm.String.`);
    if (raw.retrievable === false) throw fail('is the key field and must be retrievable.');
  }
  if (raw.searchable === true && !stringy && !vector)
    throw fail(`of type '${type}' cannot be searchable; only Edm.String and Collection(Edm.String) fields are searchable.`);
  if (raw.sortable === true && (isCollection(type) || inCollection))
    throw fail(
      `of type '${type}' cannot be sortable; ${inCollection ? 'sub-fields of a complex collection' : 'collection fields'} are multi-valued.`,
    );
  if (raw.facetable === true && elem === 'Edm.GeographyPoint') throw fail(`of type '${type}' cannot be facetable.`);
  const searchable = raw.searchable ?? stringy;
  for (const a of ['analyzer', 'searchAnalyzer', 'indexAnalyzer']) {
    const v: string = raw[a];
    if (!present(v)) continue;
    if (!stringy || !searchable)
      throw fail(
        `of type '${type}'${stringy ? ' is not searchable and' : ''} cannot set '${a}'; analyzers apply to searchable Edm.String and Collection(Edm.String) fields.`,
      );
    if (!LANGUAGE_ANALYZER.test(v) && !BUILT_IN_ANALYZERS.includes(String(v).toLowerCase()) && !analyzers.has(v))
      throw fail(`uses the analyzer '${v}', which is neither a predefined analyzer nor defined in 'analyzers'.`);
    if (a !== 'analyzer' && isLanguageAnalyzer(v))
      throw fail(`cannot set '${a}' to the language analyzer '${v}'; use 'analyzer' for a language analyzer.`);
  }
  if (present(raw.analyzer) && (present(raw.searchAnalyzer) || present(raw.indexAnalyzer)))
    throw fail("cannot set 'analyzer' together with 'searchAnalyzer' or 'indexAnalyzer'.");
  if (present(raw.searchAnalyzer) !== present(raw.indexAnalyzer)) throw fail("must set 'searchAnalyzer' and 'indexAnalyzer' together.");
  if (raw.synonymMaps?.length && !(stringy && searchable))
    throw fail("cannot set 'synonymMaps'; synonym maps apply to searchable string fields.");
}

/** Validates fields recursively and returns them with every attribute present (defaults filled in as the service echoes them). */
function normalizeFields(fields: unknown, index: Record<string, any>, at: string, top: boolean, inCollection = false): any[] {
  if (!Array.isArray(fields) || fields.length === 0) throw invalid(`${at} : At least one field is required.`);
  const seen = new Set<string>();
  const profiles = new Set<string>((index.vectorSearch?.profiles ?? []).map((p: any) => p?.name));
  const analyzers = new Set<string>((index.analyzers ?? []).map((a: any) => a?.name));
  return fields.map((raw: any) => {
    const name = raw?.name;
    if (typeof name !== 'string' || !FIELD_NAME.test(name) || /^azureSearch/i.test(name)) {
      throw invalid(
        `${at} : The field name '${name}' is invalid. Field names must start with a letter, contain only letters, digits or underscores, be at most 128 characters and not start with 'azureSearch'.`,
      );
    }
    if (seen.has(name.toLowerCase())) throw invalid(`${at} : The field '${name}' appears more than once.`);
    seen.add(name.toLowerCase());
    const type = raw.type;
    const elem = typeof type === 'string' ? elementType(type) : '';
    if (!PRIMITIVES.includes(elem) || (VECTOR_ELEMENTS.includes(elem) && elem !== 'Edm.Single' && !isCollection(type)))
      throw invalid(`${at} : The field '${name}' has an invalid type '${type}'.`);
    if (raw.key === true && !top) throw invalid(`${at} : The field '${name}' of a complex type cannot be a key field.`);
    checkAttributes(raw, type, at, inCollection, analyzers, profiles);
    const vector = isCollection(type) && VECTOR_ELEMENTS.includes(elem);
    const complex = elem === 'Edm.ComplexType';
    const stringy = elem === 'Edm.String';
    const geo = elem === 'Edm.GeographyPoint';
    return {
      name,
      type,
      searchable: complex ? null : (raw.searchable ?? (stringy || vector)),
      filterable: complex ? null : vector ? false : (raw.filterable ?? true),
      retrievable: complex ? null : (raw.retrievable ?? true),
      stored: complex ? null : (raw.stored ?? true),
      sortable: complex ? null : vector ? false : (raw.sortable ?? !(isCollection(type) || inCollection)),
      facetable: complex ? null : vector ? false : (raw.facetable ?? !geo),
      key: complex ? null : raw.key === true,
      indexAnalyzer: raw.indexAnalyzer ?? null,
      searchAnalyzer: raw.searchAnalyzer ?? null,
      analyzer: raw.analyzer ?? null,
      dimensions: vector ? raw.dimensions : null,
      vectorSearchProfile: vector ? raw.vectorSearchProfile : null,
      vectorEncoding: raw.vectorEncoding ?? null,
      synonymMaps: raw.synonymMaps ?? [],
      fields: complex ? normalizeFields(raw.fields, index, `${at}.${name}`, false, inCollection || isCollection(type)) : [],
    };
  });
}

/** Validates an index definition and returns it as the service echoes it. */
export function normalizeIndex(body: Record<string, any>): { definition: Record<string, any>; keyField: string } {
  if (!body || typeof body !== 'object') throw invalid('definition : The index definition is missing.');
  if (typeof body.name !== 'string' || !INDEX_NAME.test(body.name)) {
    throw invalid(
      `name : Index name '${body?.name}' is invalid. Index names must only contain lowercase letters, digits or dashes, cannot start or end with dashes and are limited to 128 characters.`,
    );
  }
  const vs = body.vectorSearch;
  if (vs) {
    const algorithms = new Set<string>();
    for (const a of vs.algorithms ?? []) {
      if (!['hnsw', 'exhaustiveKnn'].includes(a?.kind))
        throw invalid(`vectorSearch.algorithms : The algorithm '${a?.name}' has an invalid kind '${a?.kind}'; use hnsw or exhaustiveKnn.`);
      algorithms.add(a.name);
    }
    for (const p of vs.profiles ?? []) {
      if (!algorithms.has(p?.algorithm))
        throw invalid(`vectorSearch.profiles : The profile '${p?.name}' refers to the algorithm '${p?.algorithm}' which is not defined.`);
    }
  }
  const fields = normalizeFields(body.fields, body, 'definition', true);
  const keys = fields.filter((f) => f.key === true);
  if (keys.length !== 1)
    throw invalid(`index : Found ${keys.length} key fields in index '${body.name}'. Each index must have exactly one key field.`);
  const definition = {
    name: body.name,
    defaultScoringProfile: body.defaultScoringProfile ?? null,
    fields,
    scoringProfiles: body.scoringProfiles ?? [],
    corsOptions: body.corsOptions ?? null,
    suggesters: body.suggesters ?? [],
    analyzers: body.analyzers ?? [],
    tokenizers: body.tokenizers ?? [],
    tokenFilters: body.tokenFilters ?? [],
    charFilters: body.charFilters ?? [],
    encryptionKey: body.encryptionKey ?? null,
    similarity: body.similarity ?? { '@odata.type': '#Microsoft.Azure.Search.BM25Similarity', k1: null, b: null },
    semantic: body.semantic ?? null,
    vectorSearch: vs
      ? {
          algorithms: vs.algorithms ?? [],
          profiles: vs.profiles ?? [],
          vectorizers: vs.vectorizers ?? [],
          compressions: vs.compressions ?? [],
        }
      : null,
  };
  return { definition, keyField: keys[0].name };
}

const IMMUTABLE = [
  'type',
  'key',
  'searchable',
  'filterable',
  'sortable',
  'facetable',
  'analyzer',
  'indexAnalyzer',
  'searchAnalyzer',
  'dimensions',
  'vectorSearchProfile',
];

/** An update may add fields but not remove or change existing ones (400 OperationNotAllowed). */
export function checkUpdate(before: any[], after: any[]): void {
  for (const old of before) {
    const now = after.find((f) => f.name === old.name);
    if (!now)
      throw new ServiceError(
        400,
        'OperationNotAllowed',
        `Existing field '${old.name}' cannot be deleted from the index (CannotDeleteExistingField). Rebuild the index to remove it.`,
      );
    const changed = IMMUTABLE.find((a) => JSON.stringify(old[a]) !== JSON.stringify(now[a]));
    if (changed)
      throw new ServiceError(
        400,
        'OperationNotAllowed',
        `Existing field '${old.name}' cannot be changed: its '${changed}' attribute differs (CannotChangeExistingField).`,
      );
    if (old.fields?.length) checkUpdate(old.fields, now.fields ?? []);
  }
}
