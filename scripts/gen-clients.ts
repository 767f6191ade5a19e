// `npm run gen:clients`: regenerates openapi/openapi.json, the Python operations module and the TypeScript types.
// `npm run check:drift` (--check): regenerates in memory and fails when any committed file differs, or when the
// document's operations and the Python and TypeScript method tables disagree in either direction.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, FALSE, TRUE, type SchemaObject, type TransformNodeOptions } from 'openapi-typescript';
import { documentText, liveDocument, sortKeys } from './gen-openapi.js';
import { operationsOf, pythonOperations, PYTHON_OPERATIONS_PATH } from './gen-python-client.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DOCUMENT_PATH = 'openapi/openapi.json';
export const TS_TYPES_PATH = 'packages/client/src/generated/openapi.ts';
export const TS_OPERATIONS_PATH = 'packages/client/src/operations.ts';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type Doc = Parameters<typeof pythonOperations>[0];

/**
 * The envelope rule in the types: the document declares `ok` a plain boolean (a one-value boolean enum breaks other
 * languages' generators), while every success body answers ok true and the error envelope ok false. So the `ok` at
 * the root of a 2xx JSON body is typed `true`, and ErrorEnvelope's `false`; any other boolean named ok stays boolean.
 */
export function envelopeOk(schema: SchemaObject, options: TransformNodeOptions) {
  if ((schema as { type?: unknown }).type !== 'boolean' || !options.path) return undefined;
  if (/\/responses\/2\d\d\/content\/application~1json\/ok$/.test(options.path)) return TRUE;
  if (options.path === '#/components/schemas/ErrorEnvelope/ok') return FALSE;
  return undefined;
}

/** The TypeScript types of a document, as openapi-typescript writes them (with the envelope rule above). */
export async function typescriptTypes(doc: Doc): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: true, transform: envelopeOk });
  return (
    '// Generated from openapi/openapi.json by scripts/gen-clients.ts with openapi-typescript. Do not edit: run `npm run gen:clients`.\n\n' +
    astToString(ast)
  );
}

/** Every generated file (repository path → text) for a document. */
export async function generate(doc: Doc): Promise<Map<string, string>> {
  const sorted = sortKeys(doc) as Doc;
  return new Map([
    [DOCUMENT_PATH, documentText(sorted)],
    [PYTHON_OPERATIONS_PATH, pythonOperations(sorted)],
    [TS_TYPES_PATH, await typescriptTypes(sorted)],
  ]);
}

/** The generated files whose committed text under `root` differs from `files`. */
export function drift(files: Map<string, string>, root = ROOT): string[] {
  return [...files]
    .filter(([rel, text]) => {
      const file = path.join(root, rel);
      return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text;
    })
    .map(([rel]) => rel);
}

/** The operationIds of a document. */
export function documentedOperations(doc: Doc): string[] {
  return Object.values(doc.paths)
    .flatMap((item) => METHODS.map((m) => item[m]?.operationId).filter(Boolean))
    .sort();
}

/** operationId → method name of the committed Python operations module (its table, checked against its methods). */
export function pythonMethods(root = ROOT): Map<string, string> {
  const text = fs.readFileSync(path.join(root, PYTHON_OPERATIONS_PATH), 'utf8');
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^ {4}"(\w+)": Operation\("\w+", "\w+", "[^"]+", "(\w+)"/gm)) {
    const name = m[2]!;
    const sync = new RegExp(`^ {4}def ${name}\\(`, 'm').test(text);
    const asyncDef = new RegExp(`^ {4}async def ${name}\\(`, 'm').test(text);
    if (sync && asyncDef) out.set(m[1]!, name);
  }
  return out;
}

/** operationId → method path ('workspaces.list') of the TypeScript client's table. */
export async function typescriptMethods(root = ROOT): Promise<Map<string, string>> {
  const mod = await import(pathToFileURL(path.join(root, TS_OPERATIONS_PATH)).href + `?t=${Date.now()}`);
  return new Map(Object.entries(mod.OPERATIONS as Record<string, string>));
}

/** Disagreements between the document's operations and a client's methods, in both directions. */
export function coverage(doc: Doc, client: string, methods: Map<string, string>): string[] {
  const documented = new Set(documentedOperations(doc));
  const problems: string[] = [];
  for (const id of documented) if (!methods.has(id)) problems.push(`${client}: no method for the documented operation ${id}`);
  for (const [id, name] of methods) if (!documented.has(id)) problems.push(`${client}: method ${name} has no documented operation (${id})`);
  return problems;
}

/** The whole gate: drift of generated files and coverage of both clients against `doc` (default: the live one). */
export async function check(options: { root?: string; doc?: Doc } = {}): Promise<{ drifted: string[]; problems: string[] }> {
  const root = options.root ?? ROOT;
  const doc = options.doc ?? ((await liveDocument()) as Doc);
  const drifted = drift(await generate(doc), root);
  const problems = [...coverage(doc, 'python', pythonMethods(root)), ...coverage(doc, 'typescript', await typescriptMethods(root))];
  return { drifted, problems };
}

async function main() {
  const checking = process.argv.includes('--check');
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1]!) : ROOT; // another checkout (the drift tests use a copy)
  const doc = (await liveDocument()) as Doc;
  if (checking) {
    const { drifted, problems } = await check({ doc, root });
    for (const rel of drifted)
      console.error(`drift: ${rel} differs from what the document generates; run npm run gen:clients and commit it`);
    for (const p of problems) console.error(`coverage: ${p}`);
    if (drifted.length || problems.length) process.exit(1);
    console.log(
      `no drift: ${documentedOperations(doc).length} operations; openapi.json, the Python operations and the TypeScript types match; both clients cover every operation`,
    );
    return;
  }
  for (const [rel, text] of await generate(doc)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
    console.log(`wrote ${rel}`);
  }
  console.log(`${operationsOf(doc).length} operations`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
