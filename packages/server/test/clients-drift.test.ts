// The drift gates of the clients: regenerating the document, the Python operations and the TypeScript types changes
// nothing, and the document's operations and both clients' method tables agree in both directions. Each gate is also
// shown failing when the document changes without regeneration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, DOCUMENT_PATH, generate, ROOT, TS_OPERATIONS_PATH, TS_TYPES_PATH, typescriptTypes } from '../../../scripts/gen-clients.js';
import { liveDocument } from '../../../scripts/gen-openapi.js';
import { PYTHON_OPERATIONS_PATH } from '../../../scripts/gen-python-client.js';

const COPIED = [DOCUMENT_PATH, PYTHON_OPERATIONS_PATH, TS_TYPES_PATH, TS_OPERATIONS_PATH];

/** A copy of the committed generated files and tables, to break without touching the work tree. */
function copyTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-drift-'));
  for (const rel of COPIED) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, rel), path.join(dir, rel));
  }
  return dir;
}

const gate = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-clients.ts', '--check', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SVC_LOG_LEVEL: 'silent' },
  });

test('the committed document, Python operations and TypeScript types are what the service generates; both clients cover it', async () => {
  const doc = await liveDocument();
  const { drifted, problems } = await check({ doc: doc as never });
  assert.deepEqual(drifted, [], 'run npm run gen:clients');
  assert.deepEqual(problems, []);
  const committed = JSON.parse(fs.readFileSync(path.join(ROOT, DOCUMENT_PATH), 'utf8'));
  assert.equal(committed.openapi, '3.1.0');
  // Generation is deterministic: twice the same input, byte for byte the same output.
  assert.deepEqual([...(await generate(doc as never))], [...(await generate(structuredClone(doc) as never))]);
});

test('a new operation in the document without regeneration fails every gate', async (t) => {
  const root = copyTree();
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const doc = (await liveDocument()) as { paths: Record<string, unknown>; info: { description: string } };
  doc.paths['/api/widgets'] = {
    get: {
      operationId: 'listWidgets',
      summary: 'Widgets',
      responses: {
        200: {
          description: 'ok',
          content: {
            'application/json': {
              schema: { type: 'object', properties: { ok: { const: true }, widgets: { type: 'array', items: { type: 'string' } } } },
            },
          },
        },
      },
    },
  };
  const { drifted, problems } = await check({ root, doc: doc as never });
  assert.deepEqual(drifted.sort(), [DOCUMENT_PATH, PYTHON_OPERATIONS_PATH, TS_TYPES_PATH].sort());
  assert.ok(problems.includes('python: no method for the documented operation listWidgets'), problems.join('\n'));
  assert.ok(problems.includes('typescript: no method for the documented operation listWidgets'), problems.join('\n'));

  // Regenerating the Python module from the new document gives it the method; the hand-written TypeScript table still lacks it.
  for (const [rel, text] of await generate(doc as never)) fs.writeFileSync(path.join(root, rel), text);
  const after = await check({ root, doc: doc as never });
  assert.deepEqual(after.drifted, []);
  assert.deepEqual(after.problems, ['typescript: no method for the documented operation listWidgets']);
  assert.match(fs.readFileSync(path.join(root, PYTHON_OPERATIONS_PATH), 'utf8'), /def list_widgets\(self\) -> List\[str\]:/);
});

test('an operation removed from the document leaves methods with no documented operation', async (t) => {
  const root = copyTree();
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const doc = (await liveDocument()) as { paths: Record<string, unknown> };
  delete doc.paths['/api/whoami'];
  const { drifted, problems } = await check({ root, doc: doc as never });
  assert.ok(drifted.includes(PYTHON_OPERATIONS_PATH) && drifted.includes(DOCUMENT_PATH));
  assert.ok(problems.includes('python: method whoami has no documented operation (whoami)'), problems.join('\n'));
  assert.ok(problems.includes('typescript: method whoami has no documented operation (whoami)'), problems.join('\n'));
});

test(
  'the CI command (gen-clients --check) exits non-zero on an edited committed document and passes once regenerated',
  { timeout: 120_000 },
  async (t) => {
    const root = copyTree();
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const file = path.join(root, DOCUMENT_PATH);
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.paths['/api/whoami'].get.summary = 'edited by hand';
    fs.writeFileSync(file, JSON.stringify(edited, null, 2) + '\n');
    fs.appendFileSync(path.join(root, TS_TYPES_PATH), '\n// edited by hand\n');

    const failed = gate(['--root', root]);
    assert.equal(failed.status, 1, failed.stdout + failed.stderr);
    assert.match(failed.stderr, new RegExp(`drift: ${DOCUMENT_PATH}`));
    assert.match(failed.stderr, new RegExp(`drift: ${TS_TYPES_PATH}`));
    assert.doesNotMatch(failed.stderr, new RegExp(`drift: ${PYTHON_OPERATIONS_PATH}`));

    const regenerated = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-clients.ts', '--root', root], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(regenerated.status, 0, regenerated.stderr);
    const passed = gate(['--root', root]);
    assert.equal(passed.status, 0, passed.stdout + passed.stderr);
    assert.match(passed.stdout, /no drift/);
  },
);

test('the document declares ok a plain boolean; the TypeScript types keep ok true on successes and false on the error envelope', async () => {
  const doc = (await liveDocument()) as { paths: Record<string, any>; components: { schemas: Record<string, any> } };
  const whoami = doc.paths['/api/whoami'].get.responses['200'].content['application/json'].schema;
  assert.deepEqual(whoami.properties.ok, { type: 'boolean', description: 'always true: every success answers ok true' });
  assert.equal(doc.components.schemas.ErrorEnvelope.properties.ok.type, 'boolean');
  const types = await typescriptTypes(doc as never);
  const oks = [...types.matchAll(/^\s+ok: (\w+);$/gm)].map((m) => m[1]);
  const successes = Object.values(doc.paths)
    .flatMap((item) => Object.values(item))
    .flatMap((op: any) => Object.entries(op.responses ?? {}))
    .filter(([status, r]: [string, any]) => status.startsWith('2') && r.content?.['application/json']?.schema?.properties?.ok).length;
  assert.ok(successes > 50, `${successes} success bodies with ok`);
  assert.equal(oks.filter((t) => t === 'true').length, successes);
  assert.equal(oks.filter((t) => t === 'false').length, 1, 'ErrorEnvelope');
  // A boolean that happens to be called ok, inside a body, stays a boolean (a probe's outcome).
  assert.match(types, /IdentityProbeResult: \{[^}]*\bok: boolean;/);
});
