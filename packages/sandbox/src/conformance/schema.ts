// Checking a value against a Swagger 2.0 schema of the published descriptions, as the real services read them: types,
// required and declared properties (an undeclared one is refused), enums that are not open (x-ms-enum modelAsString),
// GUID formats, arrays, and discriminated subtypes found through x-ms-discriminator-value (the Azure convention, where
// subtypes name their base in allOf: a JSON-schema validator cannot follow it, hence this checker).
import { loadSpec, resolveRef, specPath } from './specs.js';

type Located = { schema: any; file: string };

/** Subtypes of a discriminated base (x-ms-discriminator-value) defined in the same file. */
function subtypeFor(base: any, value: string, file: string): any | undefined {
  const defs = loadSpec(file).definitions ?? {};
  return Object.values(defs).find(
    (d: any) =>
      d['x-ms-discriminator-value'] === value && (d.allOf ?? []).some((a: any) => a.$ref && resolveRef(a.$ref, file).schema === base),
  );
}

/** Every property a schema declares (own and through allOf). */
function declared(schema: any, file: string, out = new Map<string, Located>()): Map<string, Located> {
  if (schema.$ref) {
    const r = resolveRef(schema.$ref, file);
    return declared(r.schema, r.file, out);
  }
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.set(k, { schema: v, file });
  for (const part of schema.allOf ?? []) declared(part, file, out);
  return out;
}

function required(schema: any, file: string, out = new Set<string>(), skip: readonly string[] = []): Set<string> {
  if (schema.$ref && skip.some((name) => schema.$ref.endsWith(`#/definitions/${name}`))) return out;
  if (schema.$ref) {
    const r = resolveRef(schema.$ref, file);
    return required(r.schema, r.file, out, skip);
  }
  for (const k of schema.required ?? []) out.add(k);
  for (const part of schema.allOf ?? []) required(part, file, out, skip);
  return out;
}

export interface CheckOptions {
  /** Definitions whose required properties are not asked for (state the service adds to an answer, absent from a request). */
  skipRequiredOf?: readonly string[];
  /** The error for a property the schema does not declare, given the name of the definition that lacks it (the service's own words). */
  undeclared?: (key: string, definition: string, at: string) => string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a value against a schema (`file` is the absolute file the schema is in); answers one line per problem,
 * each starting with the JSON path that failed (`$.definition.parts[0].path: required`).
 */
export function check(
  value: unknown,
  schema: any,
  file: string,
  at = '$',
  errors: string[] = [],
  opts: CheckOptions = {},
  defName = '',
): string[] {
  if (schema.$ref) {
    const r = resolveRef(schema.$ref, file);
    return check(value, r.schema, r.file, at, errors, opts, schema.$ref.split('/').pop());
  }
  if (value === null || value === undefined) return errors;
  if (schema.discriminator && typeof value === 'object') {
    const sub = subtypeFor(schema, (value as any)[schema.discriminator], file);
    const name = sub && Object.entries(loadSpec(file).definitions ?? {}).find(([, d]) => d === sub)?.[0];
    if (sub) return check(value, sub, file, at, errors, opts, name ?? defName);
  }
  const type = schema.type ?? (schema.properties || schema.allOf ? 'object' : undefined);
  // A bare `type: object` is AutoRest's "any" (Synapse's expression-typed fields: a string, or an Expression object).
  const bare =
    type === 'object' && !schema.properties && !schema.allOf && schema.additionalProperties === undefined && !schema.discriminator;
  if (bare) return errors;
  if (type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) return errors.concat(`${at}: expected an object`);
    const props = declared(schema, file);
    for (const k of required(schema, file, new Set(), opts.skipRequiredOf))
      if (!(k in (value as object))) errors.push(`${at}.${k}: required`);
    const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
    for (const [k, v] of Object.entries(value as object)) {
      const p = props.get(k);
      if (p) check(v, p.schema, p.file, `${at}.${k}`, errors, opts);
      else if (open && typeof schema.additionalProperties === 'object')
        check(v, schema.additionalProperties, file, `${at}.${k}`, errors, opts);
      else if (!open && props.size && !k.startsWith('@odata.'))
        errors.push(opts.undeclared ? opts.undeclared(k, defName, at) : `${at}.${k}: not declared by the spec`);
    }
    return errors;
  }
  if (type === 'array') {
    if (!Array.isArray(value)) return errors.concat(`${at}: expected an array`);
    for (const [i, v] of value.entries()) check(v, schema.items ?? {}, file, `${at}[${i}]`, errors, opts);
    return errors;
  }
  if (type === 'string' && typeof value !== 'string') return errors.concat(`${at}: expected a string, got ${JSON.stringify(value)}`);
  if ((type === 'integer' && !Number.isInteger(value)) || (type === 'number' && typeof value !== 'number'))
    return errors.concat(`${at}: expected a ${type}, got ${JSON.stringify(value)}`);
  if (type === 'boolean' && typeof value !== 'boolean') return errors.concat(`${at}: expected a boolean`);
  if (schema.enum && !schema['x-ms-enum']?.modelAsString && !schema.enum.includes(value))
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  if (schema.format === 'uuid' && typeof value === 'string' && !GUID.test(value))
    errors.push(`${at}: ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)} is not a uuid`);
  if (typeof value === 'string' && typeof schema.maxLength === 'number' && value.length > schema.maxLength)
    errors.push(`${at}: longer than ${schema.maxLength} characters`);
  return errors;
}

/** A named definition of a description file (relative to the specs folder), located for check(). */
export function definition(file: string, name: string): Located {
  return resolveRef(`#/definitions/${name}`, specPath(file));
}
