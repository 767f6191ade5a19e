// The OpenAPI document as the authorization matrices read it: its operations, and a request for each one whose path,
// query and body name the resources a test owns, so that the request passes validation and reaches the handler.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as untyped JSON
export type Json = any;
export type Schema = Record<string, Json>;
export interface Operation {
  method: string;
  path: string;
  id: string;
  op: Json;
}
export interface Param {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

/** Operations that need no caller, by design: liveness, this document, and signing in (metrics need the metrics scope). */
export const PUBLIC = (o: Operation) =>
  ['getHealth', 'getOpenApiDocument', 'createSession'].includes(o.id) || o.path.startsWith('/api/auth/');

/** Every operation of the document, with its method, path and operationId. */
export function operations(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      out.push({ method: method.toUpperCase(), path, id: op.operationId, op });
    }
  }
  return out;
}

/** Resolves a local $ref of the document. */
export function deref(doc: Json, s: Schema): Schema {
  let cur = s;
  while (cur && typeof cur.$ref === 'string') {
    cur = cur.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Json, key: string) => node?.[key], doc);
  }
  return cur ?? {};
}

/** Fields whose valid values the schema does not spell out (checked by the handler). */
const catalogReports = path.resolve(import.meta.dirname, '../../../catalog/apps/app-casino-analytics/reports');
const HINTS: Record<string, string> = {
  itemType: 'notebook',
  definition: fs.readFileSync(path.join(catalogReports, fs.readdirSync(catalogReports).find((f) => f.endsWith('.rdl'))!), 'utf8'),
};

/**
 * The owned id a field of this name and description names: a field described as a platform workspace (a path's
 * workspaceId of the identity operations, a body's platformWorkspaceId) takes the platform workspace; others by name.
 */
export function ownedValue(owned: Record<string, string>, name: string, description = ''): string | undefined {
  if (/platform workspace/i.test(description) && (name === 'workspaceId' || name === 'platformWorkspaceId'))
    return owned.platformWorkspaceId;
  return /platform/i.test(description) ? undefined : owned[name];
}

const STRING_CANDIDATES = ['matrix', 'a', '0', '1', 'a1', 'x-1', '0.0.0.0', '00000000-0000-0000-0000-000000000000'];

/**
 * A small valid instance of a schema (required properties only), so that a request passes validation and reaches the
 * handler. Properties named like an owned resource (workspaceId, itemId, ...) take this tenant's real ids.
 */
export function sample(doc: Json, schema: Schema, owned: Record<string, string>, name = ''): Json {
  const s = deref(doc, schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (Array.isArray(alt)) return sample(doc, alt[0], owned, name);
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((x: Schema) => sample(doc, x, owned, name)));
  const type = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    const out: Record<string, Json> = {};
    const props = Object.entries<Schema>(s.properties ?? {});
    for (const key of s.required ?? []) out[key] = sample(doc, s.properties?.[key] ?? {}, owned, key);
    // Optional fields that reference an owned resource are sent too: a stored reference must be checked like a path id.
    for (const [key, p] of props)
      if (!(key in out) && ownedValue(owned, key, deref(doc, p).description) !== undefined)
        out[key] = ownedValue(owned, key, deref(doc, p).description);
    for (const [key, p] of props)
      if (Object.keys(out).length < (s.minProperties ?? 0) && !(key in out)) out[key] = sample(doc, p, owned, key);
    return out;
  }
  if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => sample(doc, s.items ?? {}, owned, name));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'string') {
    if (HINTS[name]) return HINTS[name];
    if (ownedValue(owned, name, s.description) !== undefined) return ownedValue(owned, name, s.description);
    if (s.format === 'date-time') return new Date(Date.now() + 30 * 86_400_000).toISOString();
    if (s.format === 'ipv4') return '10.0.0.1';
    const ok = (v: string) =>
      v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity) && (!s.pattern || new RegExp(s.pattern, 'u').test(v));
    const v = STRING_CANDIDATES.find(ok);
    assert.ok(v !== undefined, `no sample string satisfies ${JSON.stringify(s)}`);
    return v;
  }
  return {};
}

/** The parameters an operation documents. */
export const paramsOf = (o: Operation) => (o.op.parameters ?? []) as Param[];

/**
 * Builds each operation's request against the resources in `owned` (path parameters by name, with `fixed` for the
 * global ones): the url with its query, the sample body, and the documented headers.
 */
export function requests(doc: Json, owned: Record<string, string>, fixed: Record<string, string>) {
  const ownedOf = (p: { name: string; description?: string; schema?: Schema }) =>
    ownedValue(owned, p.name, p.description ?? p.schema?.description);
  const isOwned = (p: { name: string; description?: string; schema?: Schema }) => ownedOf(p) !== undefined;
  const urlOf = (o: Operation) => {
    let url = o.path;
    const query: string[] = [];
    for (const p of paramsOf(o)) {
      const value =
        p.in === 'path'
          ? isOwned(p)
            ? ownedOf(p)
            : (fixed[p.name] ?? sample(doc, p.schema, {}, p.name))
          : p.in === 'query' && isOwned(p)
            ? ownedOf(p)
            : p.in === 'query' && p.required
              ? sample(doc, p.schema, owned, p.name)
              : undefined;
      if (value === undefined) continue;
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}`);
    }
    assert.ok(!/[{}]/.test(url), `${o.id}: unfilled path parameter in ${url}`);
    return query.length ? `${url}?${query.join('&')}` : url;
  };
  /** Header parameters the operation documents: If-Match takes '*' (any version). */
  const headersOf = (o: Operation, auth: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const p of paramsOf(o)) if (p.in === 'header' && p.name.toLowerCase() === 'if-match') out['if-match'] = '*';
    return { ...out, ...auth };
  };
  const bodyOf = (o: Operation) => {
    const s = o.op.requestBody?.content?.['application/json']?.schema;
    return s ? sample(doc, s, owned) : undefined;
  };
  return { urlOf, headersOf, bodyOf, isOwned, ownedOf };
}
