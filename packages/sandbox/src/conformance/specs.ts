// Where the published API descriptions are, and reading them: one cache of parsed files and $ref resolution across
// files (a $ref is relative to the file it appears in).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is packages/sandbox/src/conformance/specs.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The published descriptions: `SVC_SPECS_DIR`, else `../shared/specs` beside the repository (CI checks `shared/` out
 * next to the clone).
 */
export function specsDir(): string {
  return process.env.SVC_SPECS_DIR ? path.resolve(process.env.SVC_SPECS_DIR) : path.resolve(repoRoot, '../shared/specs');
}

/** Whether the published descriptions are at hand (`npm start` runs without `shared/`: the checks that need them are skipped). */
export const specsAvailable = (): boolean => fs.existsSync(specsDir());

const files = new Map<string, any>();

/** The absolute path of a description file named relative to the specs folder. */
export const specPath = (file: string) => (path.isAbsolute(file) ? file : path.join(specsDir(), file));

/** A description file, parsed once (an absolute path, or one relative to the specs folder). */
export function loadSpec(file: string): any {
  const abs = specPath(file);
  let doc = files.get(abs);
  if (!doc) files.set(abs, (doc = JSON.parse(fs.readFileSync(fs.existsSync(abs) ? abs : caseInsensitive(abs), 'utf8'))));
  return doc;
}

/**
 * A path found segment by segment regardless of letter case: specs/README.md lists upstream $refs that differ in case
 * from the files (`../../Common/definitions.json` for `common`).
 */
function caseInsensitive(abs: string): string {
  let at = path.parse(abs).root;
  for (const seg of abs.slice(at.length).split(path.sep)) {
    const exact = path.join(at, seg);
    const found = fs.existsSync(exact) ? seg : fs.readdirSync(at).find((n) => n.toLowerCase() === seg.toLowerCase());
    if (!found) return abs;
    at = path.join(at, found);
  }
  return at;
}

/** Resolves a $ref relative to the (absolute) file it appears in; answers the target and its file. */
export function resolveRef(ref: string, file: string): { schema: any; file: string } {
  const [rel, pointer = ''] = ref.split('#');
  const target = rel ? path.resolve(path.dirname(file), rel) : file;
  let node = loadSpec(target);
  for (const seg of pointer.split('/').filter(Boolean)) node = node?.[decodeURIComponent(seg.replace(/~1/g, '/').replace(/~0/g, '~'))];
  if (node === undefined) throw new Error(`unresolved $ref ${ref} in ${file}`);
  return { schema: node, file: target };
}

/** Description files under a folder of the specs (relative paths), e.g. every `fabric/<x>/swagger.json`. */
export function specFiles(under: string, match: RegExp): string[] {
  const root = path.join(specsDir(), under);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'examples') walk(p);
      } else if (match.test(path.relative(specsDir(), p))) out.push(path.relative(specsDir(), p));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out.sort();
}
