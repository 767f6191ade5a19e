import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The published API descriptions (Swagger 2.0) kept as reference data: SVC_SPECS_DIR, else `../shared/specs` beside
 * the repository (where CI checks `shared/` out).
 */
export const SPECS = process.env.SVC_SPECS_DIR ?? path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../../shared/specs');

/** Whether the published descriptions are at hand (checks against them are made only then). */
export const specsAvailable = (): boolean => fs.existsSync(SPECS);

/** The published descriptions' files, parsed once. */
const files = new Map<string, any>();
export const load = (file: string) => {
  let doc = files.get(file);
  if (!doc) files.set(file, (doc = JSON.parse(fs.readFileSync(file, 'utf8'))));
  return doc;
};

/** Resolves a $ref relative to the file it appears in; answers the target and its file. */
export function resolve(ref: string, file: string): { schema: any; file: string } {
  const [rel, pointer = ''] = ref.split('#');
  const target = rel ? path.resolve(path.dirname(file), rel) : file;
  let node = load(target);
  for (const seg of pointer.split('/').filter(Boolean)) node = node[decodeURIComponent(seg.replace(/~1/g, '/').replace(/~0/g, '~'))];
  if (node === undefined) throw new Error(`unresolved $ref ${ref} in ${file}`);
  return { schema: node, file: target };
}

/** Subtypes of a discriminated base (x-ms-discriminator-value) defined in the same file. */
function subtypeFor(base: any, value: string, file: string): any | undefined {
  const defs = load(file).definitions ?? {};
  return Object.values(defs).find((d: any) => d['x-ms-discriminator-value'] === value && (d.allOf ?? []).some((a: any) => a.$ref && resolve(a.$ref, file).schema === base));
}

/** Every property a schema declares (own and through allOf). */
function declared(schema: any, file: string, out = new Map<string, { schema: any; file: string }>()): Map<string, { schema: any; file: string }> {
  if (schema.$ref) {
    const r = resolve(schema.$ref, file);
    return declared(r.schema, r.file, out);
  }
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.set(k, { schema: v, file });
  for (const part of schema.allOf ?? []) declared(part, file, out);
  return out;
}

function required(schema: any, file: string, out = new Set<string>(), skip: readonly string[] = []): Set<string> {
  if (schema.$ref && skip.some((name) => schema.$ref.endsWith(`#/definitions/${name}`))) return out;
  if (schema.$ref) {
    const r = resolve(schema.$ref, file);
    return required(r.schema, r.file, out, skip);
  }
  for (const k of schema.required ?? []) out.add(k);
  for (const part of schema.allOf ?? []) required(part, file, out, skip);
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks a value against a schema: types, required and declared properties (no undeclared ones), enums, uuid formats, arrays, discriminators. */
export interface CheckOptions {
  /** Definitions whose required properties are not asked for (state the service adds to an answer, absent from a request). */
  skipRequiredOf?: readonly string[];
  /** The error for a property the schema does not declare, given the name of the definition that lacks it (the service's own words). */
  undeclared?: (key: string, definition: string, at: string) => string;
}

export function check(value: unknown, schema: any, file: string, at = '$', errors: string[] = [], opts: CheckOptions = {}, definition = ''): string[] {
  if (schema.$ref) {
    const r = resolve(schema.$ref, file);
    return check(value, r.schema, r.file, at, errors, opts, schema.$ref.split('/').pop());
  }
  if (value === null || value === undefined) return errors;
  if (schema.discriminator && typeof value === 'object') {
    const sub = subtypeFor(schema, (value as any)[schema.discriminator], file);
    const name = sub && Object.entries(load(file).definitions ?? {}).find(([, d]) => d === sub)?.[0];
    if (sub) return check(value, sub, file, at, errors, opts, name ?? definition);
  }
  const type = schema.type ?? (schema.properties || schema.allOf ? 'object' : undefined);
  if (type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) return (errors.push(`${at}: expected an object`), errors);
    const props = declared(schema, file);
    for (const k of required(schema, file, new Set(), opts.skipRequiredOf)) if (!(k in (value as object))) errors.push(`${at}.${k}: required`);
    const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
    for (const [k, v] of Object.entries(value as object)) {
      const p = props.get(k);
      if (p) check(v, p.schema, p.file, `${at}.${k}`, errors, opts);
      else if (open && typeof schema.additionalProperties === 'object') check(v, schema.additionalProperties, file, `${at}.${k}`, errors, opts);
      else if (!open && props.size && !k.startsWith('@odata.')) errors.push(opts.undeclared ? opts.undeclared(k, definition, at) : `${at}.${k}: not declared by the spec`);
    }
    return errors;
  }
  if (type === 'array') {
    if (!Array.isArray(value)) return (errors.push(`${at}: expected an array`), errors);
    value.forEach((v, i) => check(v, schema.items ?? {}, file, `${at}[${i}]`, errors, opts));
    return errors;
  }
  if (type === 'string' && typeof value !== 'string') return (errors.push(`${at}: expected a string, got ${JSON.stringify(value)}`), errors);
  if (schema.format === 'uuid' && typeof value === 'string' && !UUID.test(value)) return (errors.push(`${at}: ${JSON.stringify(value)} is not a uuid`), errors);
  if ((type === 'integer' && !Number.isInteger(value)) || (type === 'number' && typeof value !== 'number')) return (errors.push(`${at}: expected a ${type}, got ${JSON.stringify(value)}`), errors);
  if (type === 'boolean' && typeof value !== 'boolean') return (errors.push(`${at}: expected a boolean`), errors);
  if (schema.enum && !schema['x-ms-enum']?.modelAsString && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  return errors;
}
