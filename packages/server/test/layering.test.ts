import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// The dependency rule of DESIGN.md ("the domain never imports Fastify"): only the HTTP edge (http/, route files,
// app.ts, main.ts, web/, openapi/) imports Fastify or http/; a domain's route schemas (`<domain>/schemas.ts`) may
// import http/schemas and nothing else of it; and the domain imports neither the edge nor those schemas.

const SRC = path.resolve(import.meta.dirname, '../src');

type Kind = 'edge' | 'route-schemas' | 'domain';

function kindOf(rel: string): Kind {
  if (/^(http|web|openapi)\//.test(rel) || rel === 'app.ts' || rel === 'main.ts') return 'edge';
  if (/(^|\/)routes(\.ts|\/)|-routes\.ts$/.test(rel)) return 'edge';
  if (/^[\w-]+\/schemas\.ts$/.test(rel)) return 'route-schemas';
  return 'domain';
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The import specifiers of a file (static, re-exports and dynamic). */
const importsOf = (text: string) => [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

/** Why `spec`, imported by a file of `kind` at `rel`, breaks the rule; undefined when it does not. */
function violation(rel: string, kind: Kind, spec: string): string | undefined {
  if (kind === 'edge') return undefined;
  if (spec === 'fastify' || spec.startsWith('@fastify/')) return `imports ${spec}`;
  if (!spec.startsWith('.')) return undefined;
  const target = path.relative(SRC, path.resolve(SRC, path.dirname(rel), spec)).replace(/\.js$/, '.ts').split(path.sep).join('/');
  if (kind === 'route-schemas') return target.startsWith('http/') && target !== 'http/schemas.ts' ? `imports ${target}` : undefined;
  const targetKind = kindOf(target);
  return targetKind === 'domain' ? undefined : `imports ${target} (${targetKind === 'edge' ? 'the HTTP edge' : 'route schemas'})`;
}

test('the domain imports neither Fastify nor http/, route files nor route schemas', () => {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      const why = violation(rel, kindOf(rel), spec);
      if (why) found.push(`${rel} ${why}`);
    }
  }
  assert.deepEqual(found, []);
});

test('the rule sees what it is meant to refuse', () => {
  assert.equal(violation('install/worker.ts', 'domain', 'fastify'), 'imports fastify');
  assert.equal(violation('identity/incidents.ts', 'domain', '../http/input-guard.js'), 'imports http/input-guard.ts (the HTTP edge)');
  assert.equal(violation('identity/fixes.ts', 'domain', './routes/fix-routes.js'), 'imports identity/routes/fix-routes.ts (the HTTP edge)');
  assert.equal(violation('tenancy/tenancy-service.ts', 'domain', './schemas.js'), 'imports tenancy/schemas.ts (route schemas)');
  assert.equal(violation('install/schemas.ts', 'route-schemas', '../http/metrics.js'), 'imports http/metrics.ts');
  assert.equal(violation('install/schemas.ts', 'route-schemas', '../http/schemas.js'), undefined);
  assert.equal(violation('install/routes.ts', 'edge', 'fastify'), undefined);
  assert.deepEqual(importsOf("import type { A } from 'fastify';\nexport { B } from './b.js';\nconst c = await import('../http/c.js');"), ['fastify', './b.js', '../http/c.js']);
});
