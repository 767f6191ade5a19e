import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cruise } from 'dependency-cruiser';

// The layering rule of DESIGN.md is declared once, in .dependency-cruiser.cjs (CI runs it as `npm run check:layers`).
// These tests hold the repository to it and show that it refuses each kind of break it names.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RULES = path.join(ROOT, '.dependency-cruiser.cjs');
const SOURCES = ['packages/server/src', 'packages/sandbox/src', 'packages/console/src', 'packages/client/src'];

async function violations(baseDir: string, sources: string[]): Promise<string[]> {
  const config = (await import(RULES)).default as { forbidden: unknown[]; options: Record<string, unknown> };
  const { tsConfig: _repoTsConfig, ...options } = config.options;
  const result = await cruise(sources, {
    ...options,
    ...(baseDir === ROOT ? { tsConfig: { fileName: path.join(ROOT, 'tsconfig.json') } } : {}),
    baseDir,
    ruleSet: { forbidden: config.forbidden },
    validate: true,
  } as never);
  const output = result.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

test('the repository keeps the layering rule: no run-time cycles, the domain imports neither Fastify nor the edge, sandbox and service apart', async () => {
  assert.deepEqual(await violations(ROOT, SOURCES), []);
});

test('the rule refuses each break it names', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  try {
    write('packages/server/src/http/guard.ts', 'export const guard = 1;\n');
    write('packages/server/src/http/schemas.ts', 'export const schema = 1;\n');
    write('packages/server/src/http/metrics.ts', 'export const metrics = 1;\n');
    write('packages/server/src/install/worker.ts', "import { guard } from '../http/guard.js';\nexport const w = guard;\n");
    write('packages/server/src/install/job.ts', "import type { FastifyInstance } from 'fastify';\nexport type J = FastifyInstance;\n");
    write(
      'packages/server/src/install/schemas.ts',
      "import { metrics } from '../http/metrics.js';\nimport { schema } from '../http/schemas.js';\nexport const s = [metrics, schema];\n",
    );
    write('packages/server/src/install/routes.ts', "import { guard } from '../http/guard.js';\nexport const r = guard;\n");
    write('packages/server/src/tenancy/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    write('packages/server/src/tenancy/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    write('packages/server/src/tenancy/c.ts', "import type { D } from './d.js';\nexport type C = { d?: D };\n");
    write('packages/server/src/tenancy/d.ts', "import type { C } from './c.js';\nexport type D = { c?: C };\n");
    write('packages/server/src/reports/svc.ts', "import { start } from '../../../sandbox/src/index.js';\nexport const s = start;\n");
    write('packages/server/src/main.ts', "import { start } from '../../sandbox/src/index.js';\nexport const m = start;\n");
    write('packages/sandbox/src/index.ts', "import { a } from '../../server/src/tenancy/a.js';\nexport const start = a;\n");
    const found = await violations(dir, ['packages']);
    const has = (rule: string, from: string, to: string) => found.includes(`${rule}: ${from} -> ${to}`);
    assert.ok(has('domain-not-edge', 'packages/server/src/install/worker.ts', 'packages/server/src/http/guard.ts'), found.join('\n'));
    assert.ok(
      found.some((v) => v.startsWith('domain-not-fastify: packages/server/src/install/job.ts')),
      found.join('\n'),
    );
    assert.ok(
      has('route-schemas-only-http-schemas', 'packages/server/src/install/schemas.ts', 'packages/server/src/http/metrics.ts'),
      found.join('\n'),
    );
    assert.ok(
      found.some((v) => v.startsWith('no-cycles: packages/server/src/tenancy/a.ts')),
      found.join('\n'),
    );
    assert.ok(has('server-sandbox-only-in-main', 'packages/server/src/reports/svc.ts', 'packages/sandbox/src/index.ts'), found.join('\n'));
    assert.ok(has('sandbox-not-server', 'packages/sandbox/src/index.ts', 'packages/server/src/tenancy/a.ts'), found.join('\n'));
    // What the rule allows: the edge importing http/, route schemas importing http/schemas, main.ts starting the sandbox, type-only cycles.
    assert.ok(
      !found.some(
        (v) => v.includes('install/routes.ts') || v.includes('src/main.ts') || v.includes('tenancy/c.ts') || v.includes('http/schemas.ts'),
      ),
      found.join('\n'),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
