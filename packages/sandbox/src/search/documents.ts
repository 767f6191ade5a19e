import { ServiceError } from '../http/errors.js';
import { elementType, invalid } from './index-schema.js';
import type { SearchIndex } from './store.js';

const MAX_ACTIONS = 1000;
const KEY = /^[A-Za-z0-9_\-=]{1,1024}$/;
const ACTIONS = ['upload', 'merge', 'mergeOrUpload', 'delete'];

export interface IndexingResult {
  key: string;
  status: boolean;
  errorMessage: string | null;
  statusCode: number;
}

const cannotConvert = (value: unknown, type: string) =>
  invalid(
    `Cannot convert the literal '${typeof value === 'object' ? JSON.stringify(value) : String(value)}' to the expected type '${type}'.`,
  );

function checkValue(value: unknown, field: any): void {
  if (value === null) return;
  const type: string = field.type;
  if (type.startsWith('Collection(')) {
    if (!Array.isArray(value)) throw cannotConvert(value, type);
    if (field.dimensions && value.length !== field.dimensions)
      throw invalid(`The vector field '${field.name}' expects ${field.dimensions} dimensions but the document has ${value.length}.`);
    for (const v of value) checkValue(v, { ...field, type: elementType(type), dimensions: null });
    return;
  }
  switch (type) {
    case 'Edm.String':
      if (typeof value !== 'string') throw cannotConvert(value, type);
      return;
    case 'Edm.Int32':
    case 'Edm.Int16':
    case 'Edm.SByte':
    case 'Edm.Byte':
      if (!Number.isInteger(value) || Math.abs(value as number) > 2 ** 31) throw cannotConvert(value, type);
      return;
    case 'Edm.Int64':
      if (!Number.isInteger(value) && !(typeof value === 'string' && /^-?\d+$/.test(value))) throw cannotConvert(value, type);
      return;
    case 'Edm.Double':
    case 'Edm.Single':
    case 'Edm.Half':
      if (typeof value !== 'number' && !['NaN', 'INF', '-INF'].includes(value as string)) throw cannotConvert(value, type);
      return;
    case 'Edm.Boolean':
      if (typeof value !== 'boolean') throw cannotConvert(value, type);
      return;
    case 'Edm.DateTimeOffset':
      if (
        typeof value !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ||
        !Number.isFinite(Date.parse(value))
      )
        throw cannotConvert(value, type);
      return;
    case 'Edm.GeographyPoint': {
      const v = value as { type?: string; coordinates?: unknown[] };
      if (v?.type !== 'Point' || !Array.isArray(v.coordinates) || v.coordinates.length !== 2) throw cannotConvert(value, type);
      return;
    }
    case 'Edm.ComplexType':
      if (typeof value !== 'object' || Array.isArray(value)) throw cannotConvert(value, type);
      checkFields(value as Record<string, unknown>, field.fields);
      return;
  }
}

function checkFields(doc: Record<string, unknown>, fields: any[]): void {
  for (const [name, value] of Object.entries(doc)) {
    if (name.startsWith('@search.') || name.startsWith('@odata.')) continue;
    const field = fields.find((f) => f.name === name);
    if (!field)
      throw invalid(
        `The property '${name}' does not exist on type 'search.documentFields'. Make sure to only use property names that are defined by the type.`,
      );
    checkValue(value, field);
  }
}

/** Applies a batch: the whole batch fails (400/413) on malformed input; per-document failures give 207. */
export function indexBatch(index: SearchIndex, body: any): { status: 200 | 207; value: IndexingResult[] } {
  if (!body || !Array.isArray(body.value)) throw invalid("The request must have a 'value' array of index actions.");
  if (body.value.length > MAX_ACTIONS)
    throw new ServiceError(
      413,
      '',
      `The request is too large: a batch holds at most ${MAX_ACTIONS} actions; this one has ${body.value.length}.`,
    );
  const fields = index.definition.fields as any[];
  const actions = body.value.map((raw: any, i: number) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(`actions : ${i}: The index action must be an object.`);
    const action = raw['@search.action'] ?? 'upload';
    if (!ACTIONS.includes(action))
      throw invalid(`actions : ${i}: The action '${action}' is invalid; use upload, merge, mergeOrUpload or delete.`);
    const key = raw[index.keyField];
    if (key === undefined || key === null || key === '') throw invalid(`actions : ${i}: Document key cannot be missing or empty.`);
    if (typeof key !== 'string') throw cannotConvert(key, 'Edm.String');
    if (action !== 'delete') checkFields(raw, fields);
    return { action, key, raw };
  });
  const value: IndexingResult[] = actions.map(({ action, key, raw }: { action: string; key: string; raw: Record<string, unknown> }) => {
    if (!KEY.test(key))
      return {
        key,
        status: false,
        errorMessage: `Invalid document key: '${key}'. Keys can only contain letters, digits, underscore (_), dash (-), or equal sign (=).`,
        statusCode: 400,
      };
    const doc = Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('@search.')));
    const existing = index.docs.get(key);
    switch (action) {
      case 'delete':
        index.docs.delete(key);
        return { key, status: true, errorMessage: null, statusCode: 200 };
      case 'merge':
        if (!existing) return { key, status: false, errorMessage: 'Document not found.', statusCode: 404 };
        index.docs.set(key, { ...existing, ...doc });
        return { key, status: true, errorMessage: null, statusCode: 200 };
      case 'mergeOrUpload':
        index.docs.set(key, { ...(existing ?? {}), ...doc });
        return { key, status: true, errorMessage: null, statusCode: existing ? 200 : 201 };
      default:
        index.docs.set(key, doc);
        return { key, status: true, errorMessage: null, statusCode: existing ? 200 : 201 };
    }
  });
  return { status: value.every((r) => r.status) ? 200 : 207, value };
}

/** A small OData $filter: comparisons (eq, ne, gt, ge, lt, le) joined by and/or. */
export function filterOf(text: string | undefined): (doc: Record<string, unknown>) => boolean {
  if (!text?.trim()) return () => true;
  const ors = text.split(/\s+or\s+/i).map((part) =>
    part.split(/\s+and\s+/i).map((cmp) => {
      const m = /^\s*([A-Za-z][\w/]*)\s+(eq|ne|gt|ge|lt|le)\s+(.+?)\s*$/i.exec(cmp);
      if (!m)
        throw invalid(
          `$filter : Invalid expression: '${cmp.trim()}'. The sandbox supports comparisons (eq, ne, gt, ge, lt, le) joined by and/or.`,
        );
      const raw = m[3]!;
      const literal: unknown = /^'.*'$/.test(raw)
        ? raw.slice(1, -1).replace(/''/g, "'")
        : raw === 'null'
          ? null
          : raw === 'true'
            ? true
            : raw === 'false'
              ? false
              : Number.isFinite(Number(raw))
                ? Number(raw)
                : raw;
      const op = m[2]!.toLowerCase();
      return (doc: Record<string, unknown>) => {
        const v = doc[m[1]!];
        const a =
          typeof v === 'string' && typeof literal === 'string' && Number.isFinite(Date.parse(v)) && Number.isFinite(Date.parse(literal))
            ? Date.parse(v)
            : v;
        const b =
          typeof v === 'string' && typeof literal === 'string' && Number.isFinite(Date.parse(v)) && Number.isFinite(Date.parse(literal))
            ? Date.parse(literal)
            : literal;
        switch (op) {
          case 'eq':
            return a === b;
          case 'ne':
            return a !== b;
          case 'gt':
            return (a as any) > (b as any);
          case 'ge':
            return (a as any) >= (b as any);
          case 'lt':
            return (a as any) < (b as any);
          default:
            return (a as any) <= (b as any);
        }
      };
    }),
  );
  return (doc) => ors.some((ands) => ands.every((f) => f(doc)));
}

/** Full-text-ish search: '*' or empty matches all; otherwise any term in a searchable string field. */
export function searchDocuments(
  index: SearchIndex,
  q: { search?: string; filter?: string; top?: number; skip?: number; select?: string; count?: boolean },
) {
  const fields = index.definition.fields as any[];
  const searchable = fields.filter((f) => f.searchable && elementType(f.type) === 'Edm.String').map((f) => f.name);
  const terms = (q.search ?? '*').trim() === '*' || !q.search?.trim() ? [] : q.search.toLowerCase().split(/\s+/).filter(Boolean);
  const filter = filterOf(q.filter);
  const scored = [...index.docs.values()]
    .filter(filter)
    .map((doc) => {
      const text = searchable
        .map((n) => (Array.isArray(doc[n]) ? (doc[n] as unknown[]).join(' ') : String(doc[n] ?? '')))
        .join(' ')
        .toLowerCase();
      const score = terms.length ? terms.filter((t) => text.includes(t)).length / terms.length : 1;
      return { doc, score };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
  const select = q.select
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const value = scored.slice(q.skip ?? 0, (q.skip ?? 0) + (q.top ?? 50)).map(({ doc, score }) => ({
    '@search.score': score,
    ...(select && !select.includes('*') ? Object.fromEntries(select.map((s) => [s, doc[s] ?? null])) : doc),
  }));
  return { ...(q.count ? { '@odata.count': scored.length } : {}), value };
}
