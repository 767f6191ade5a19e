import fs from 'node:fs';
import path from 'node:path';

/** The published API descriptions (Swagger 2.0) kept as reference data. */
export const SPECS = process.env.SVC_SPECS_DIR ?? '/work/shared/specs';

const files = new Map<string, any>();
const load = (file: string) => {
  let doc = files.get(file);
  if (!doc) files.set(file, (doc = JSON.parse(fs.readFileSync(file, 'utf8'))));
  return doc;
};

/** Resolves a $ref relative to the file it appears in; answers the target and its file. */
function resolve(ref: string, file: string): { schema: any; file: string } {
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

function required(schema: any, file: string, out = new Set<string>()): Set<string> {
  if (schema.$ref) {
    const r = resolve(schema.$ref, file);
    return required(r.schema, r.file, out);
  }
  for (const k of schema.required ?? []) out.add(k);
  for (const part of schema.allOf ?? []) required(part, file, out);
  return out;
}

/** Checks a value against a schema: types, required and declared properties (no undeclared ones), enums, arrays, discriminators. */
export function check(value: unknown, schema: any, file: string, at = '$', errors: string[] = []): string[] {
  if (schema.$ref) {
    const r = resolve(schema.$ref, file);
    return check(value, r.schema, r.file, at, errors);
  }
  if (value === null || value === undefined) return errors;
  if (schema.discriminator && typeof value === 'object') {
    const sub = subtypeFor(schema, (value as any)[schema.discriminator], file);
    if (sub) return check(value, sub, file, at, errors);
  }
  const type = schema.type ?? (schema.properties || schema.allOf ? 'object' : undefined);
  if (type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) return errors.concat(`${at}: expected an object`);
    const props = declared(schema, file);
    for (const k of required(schema, file)) if (!(k in (value as object))) errors.push(`${at}.${k}: required`);
    const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
    for (const [k, v] of Object.entries(value as object)) {
      const p = props.get(k);
      if (p) check(v, p.schema, p.file, `${at}.${k}`, errors);
      else if (open && typeof schema.additionalProperties === 'object') check(v, schema.additionalProperties, file, `${at}.${k}`, errors);
      else if (!open && props.size && !k.startsWith('@odata.')) errors.push(`${at}.${k}: not declared by the spec`);
    }
    return errors;
  }
  if (type === 'array') {
    if (!Array.isArray(value)) return errors.concat(`${at}: expected an array`);
    value.forEach((v, i) => check(v, schema.items ?? {}, file, `${at}[${i}]`, errors));
    return errors;
  }
  if (type === 'string' && typeof value !== 'string') return errors.concat(`${at}: expected a string, got ${JSON.stringify(value)}`);
  if ((type === 'integer' && !Number.isInteger(value)) || (type === 'number' && typeof value !== 'number')) return errors.concat(`${at}: expected a ${type}, got ${JSON.stringify(value)}`);
  if (type === 'boolean' && typeof value !== 'boolean') return errors.concat(`${at}: expected a boolean`);
  if (schema.enum && !schema['x-ms-enum']?.modelAsString && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  return errors;
}

/** The response schema a spec documents for (path template, method, status), falling back to `default` for errors. */
export function responseSchema(specFile: string, template: string, method: string, status: number): { schema: any; file: string; documented: boolean } {
  const file = path.join(SPECS, specFile);
  const op = load(file).paths?.[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${specFile} has no ${method} ${template}`);
  const res = op.responses[String(status)] ?? (status >= 400 ? op.responses.default : undefined);
  const documented = Boolean(op.responses[String(status)]) || (status >= 400 && Boolean(op.responses.default));
  let schema = res?.schema;
  let f = file;
  if (res?.$ref) ({ schema, file: f } = resolve(res.$ref, file));
  return { schema: schema ?? {}, file: f, documented };
}

/** Throws when a response is not documented for the operation or its body does not have the spec's shape. */
export function assertConforms(specFile: string, template: string, method: string, res: { status: number; body: unknown }): void {
  const { schema, file, documented } = responseSchema(specFile, template, method, res.status);
  if (!documented) throw new Error(`${method} ${template}: status ${res.status} is not documented in ${specFile}`);
  const errors = check(res.body, schema, file);
  if (errors.length) throw new Error(`${method} ${template} ${res.status} does not match ${specFile}:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(res.body).slice(0, 600)}`);
}
