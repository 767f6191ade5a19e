import { ServiceError } from '../http/errors.js';

export const invalid = (detail: string) => new ServiceError(400, '', `The request is invalid. Details: ${detail}`);

const PRIMITIVES = ['Edm.String', 'Edm.Int32', 'Edm.Int64', 'Edm.Double', 'Edm.Boolean', 'Edm.DateTimeOffset', 'Edm.GeographyPoint', 'Edm.ComplexType', 'Edm.Single', 'Edm.Half', 'Edm.Int16', 'Edm.SByte', 'Edm.Byte'];
const VECTOR_ELEMENTS = ['Edm.Single', 'Edm.Half', 'Edm.Int16', 'Edm.SByte', 'Edm.Byte'];
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,127}$/;
const INDEX_NAME = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,127}$/;

/** Element type of a field type: 'Collection(Edm.String)' → 'Edm.String'. */
export const elementType = (type: string) => /^Collection\((.+)\)$/.exec(type)?.[1] ?? type;
const isCollection = (type: string) => type.startsWith('Collection(');

/** Validates fields recursively and returns them with every attribute present (defaults filled in as the service echoes them). */
function normalizeFields(fields: unknown, index: Record<string, any>, path: string, top: boolean): any[] {
  if (!Array.isArray(fields) || fields.length === 0) throw invalid(`${path}: At least one field is required.`);
  const seen = new Set<string>();
  const profiles = new Set<string>((index.vectorSearch?.profiles ?? []).map((p: any) => p?.name));
  const analyzers = new Set<string>((index.analyzers ?? []).map((a: any) => a?.name));
  return fields.map((raw: any) => {
    const name = raw?.name;
    if (typeof name !== 'string' || !FIELD_NAME.test(name)) throw invalid(`${path}: The field name '${name}' is invalid. Field names must start with a letter and contain only letters, digits or underscores.`);
    if (seen.has(name.toLowerCase())) throw invalid(`${path}: The field '${name}' appears more than once.`);
    seen.add(name.toLowerCase());
    const type = raw.type;
    const elem = typeof type === 'string' ? elementType(type) : '';
    if (!PRIMITIVES.includes(elem) || (VECTOR_ELEMENTS.includes(elem) && elem !== 'Edm.Single' && !isCollection(type))) throw invalid(`${path}: The field '${name}' has an invalid type '${type}'.`);
    const vector = isCollection(type) && VECTOR_ELEMENTS.includes(elem);
    const complex = elem === 'Edm.ComplexType';
    if (raw.key === true && !top) throw invalid(`${path}: The field '${name}' of a complex type cannot be a key field.`);
    if (raw.key === true && type !== 'Edm.String') throw invalid(`${path}: The key field '${name}' must be of type Edm.String.`);
    if (vector) {
      if (!Number.isInteger(raw.dimensions) || raw.dimensions < 2 || raw.dimensions > 4096) throw invalid(`${path}: The vector field '${name}' must set 'dimensions' between 2 and 4096.`);
      if (!raw.vectorSearchProfile || !profiles.has(raw.vectorSearchProfile)) throw invalid(`${path}: The vector field '${name}' refers to the vector search profile '${raw.vectorSearchProfile}' which is not defined in 'vectorSearch.profiles'.`);
    } else if (raw.dimensions !== undefined && raw.dimensions !== null) throw invalid(`${path}: The field '${name}' is not a vector field and cannot set 'dimensions'.`);
    const stringy = elem === 'Edm.String';
    for (const a of ['analyzer', 'searchAnalyzer', 'indexAnalyzer']) {
      const v = raw[a];
      if (v === undefined || v === null) continue;
      if (!stringy) throw invalid(`${path}: The field '${name}' of type '${type}' cannot set '${a}'; analyzers apply to searchable string fields.`);
      if (!/^[a-z-]+\.(lucene|microsoft)$|^(standard|simple|stop|whitespace|keyword|pattern|standardasciifolding)\.lucene$|^(standard|simple|stop|whitespace|keyword|pattern)$/i.test(v) && !analyzers.has(v)) {
        throw invalid(`${path}: The analyzer '${v}' of field '${name}' is not a predefined analyzer nor defined in 'analyzers'.`);
      }
    }
    const geo = elem === 'Edm.GeographyPoint';
    return {
      name, type,
      searchable: complex ? null : (raw.searchable ?? (stringy || vector)),
      filterable: complex || vector ? (vector ? false : null) : (raw.filterable ?? true),
      retrievable: complex ? null : (raw.retrievable ?? true),
      stored: complex ? null : (raw.stored ?? true),
      sortable: complex || vector ? (vector ? false : null) : (raw.sortable ?? !isCollection(type)),
      facetable: complex || vector ? (vector ? false : null) : (raw.facetable ?? !geo),
      key: complex ? null : raw.key === true,
      indexAnalyzer: raw.indexAnalyzer ?? null,
      searchAnalyzer: raw.searchAnalyzer ?? null,
      analyzer: raw.analyzer ?? null,
      dimensions: vector ? raw.dimensions : null,
      vectorSearchProfile: vector ? raw.vectorSearchProfile : null,
      vectorEncoding: raw.vectorEncoding ?? null,
      synonymMaps: raw.synonymMaps ?? [],
      ...(complex ? { fields: normalizeFields(raw.fields, index, `${path}.${name}`, false) } : { fields: [] }),
    };
  });
}

/** Validates an index definition and returns it as the service echoes it. */
export function normalizeIndex(body: Record<string, any>): { definition: Record<string, any>; keyField: string } {
  if (!body || typeof body !== 'object') throw invalid('definition : The index definition is missing.');
  if (typeof body.name !== 'string' || !INDEX_NAME.test(body.name)) {
    throw invalid(`name : Index name '${body?.name}' is invalid. Index names must only contain lowercase letters, digits or dashes, cannot start or end with dashes and are limited to 128 characters.`);
  }
  const vs = body.vectorSearch;
  if (vs) {
    const algorithms = new Set<string>();
    for (const a of vs.algorithms ?? []) {
      if (!['hnsw', 'exhaustiveKnn'].includes(a?.kind)) throw invalid(`vectorSearch.algorithms : The algorithm '${a?.name}' has an invalid kind '${a?.kind}'; use hnsw or exhaustiveKnn.`);
      algorithms.add(a.name);
    }
    for (const p of vs.profiles ?? []) {
      if (!algorithms.has(p?.algorithm)) throw invalid(`vectorSearch.profiles : The profile '${p?.name}' refers to the algorithm '${p?.algorithm}' which is not defined.`);
    }
  }
  const fields = normalizeFields(body.fields, body, 'fields', true);
  const keys = fields.filter((f) => f.key === true);
  if (keys.length !== 1) throw invalid(`fields : The index must contain exactly one key field; it has ${keys.length}.`);
  for (const s of body.suggesters ?? []) {
    for (const f of s?.sourceFields ?? []) {
      const field = fields.find((x) => x.name === f);
      if (!field || elementType(field.type) !== 'Edm.String') throw invalid(`suggesters : The suggester '${s.name}' source field '${f}' must be an existing string field.`);
    }
  }
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
    vectorSearch: vs ? { algorithms: vs.algorithms ?? [], profiles: vs.profiles ?? [], vectorizers: vs.vectorizers ?? [], compressions: vs.compressions ?? [] } : null,
  };
  return { definition, keyField: keys[0].name };
}

const IMMUTABLE = ['type', 'key', 'searchable', 'filterable', 'sortable', 'facetable', 'analyzer', 'indexAnalyzer', 'searchAnalyzer', 'dimensions', 'vectorSearchProfile'];

/** An update may add fields but not remove or change existing ones (400 OperationNotAllowed). */
export function checkUpdate(before: any[], after: any[]): void {
  for (const old of before) {
    const now = after.find((f) => f.name === old.name);
    if (!now) throw new ServiceError(400, 'OperationNotAllowed', `Existing field '${old.name}' cannot be deleted from the index (CannotDeleteExistingField). Rebuild the index to remove it.`);
    const changed = IMMUTABLE.find((a) => JSON.stringify(old[a]) !== JSON.stringify(now[a]));
    if (changed) throw new ServiceError(400, 'OperationNotAllowed', `Existing field '${old.name}' cannot be changed: its '${changed}' attribute differs (CannotChangeExistingField).`);
    if (old.fields?.length) checkUpdate(old.fields, now.fields ?? []);
  }
}
