// The build: the service and the sandbox transpiled to JavaScript (esbuild, file by file, so every module keeps its
// place and the paths it resolves from import.meta.url), the console (vite) and the TypeScript client (tsc).
// A target is stale when a file it is built from is newer than its output; `npm start` builds only stale targets.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** The built service, from the repository root: what npm start, the deployment templates and bench/start run with node. */
export const SERVICE_ENTRY = 'packages/server/dist/main.js';
/**
 * Node options of the built service: V8's young generation capped at 2 × 8 MiB (its default on 64-bit Node is 2 × 16 MiB,
 * which the burst of allocation at start fills and then keeps resident: 16 MB more at start; see README "Start").
 */
export const SERVICE_NODE_OPTIONS = ['--max-semi-space-size=8'];

/** What each target is built from (under its folder, or from the repository root with `/`) and the file its build writes last. */
export const TARGETS = {
  sandbox: { dir: 'packages/sandbox', inputs: ['src', 'package.json'], output: 'dist/index.js', tool: 'esbuild' },
  server: { dir: 'packages/server', inputs: ['src', 'package.json'], output: 'dist/main.js', tool: 'esbuild' },
  console: {
    dir: 'packages/console',
    inputs: ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', '/package-lock.json'],
    // Written after index.html (vite.config.ts's prerender): a build stopped before it is built again.
    output: 'dist/sign-in.html',
    tool: 'npm',
  },
  client: { dir: 'packages/client', inputs: ['src', 'tsconfig.json', 'package.json'], output: 'dist/index.js', tool: 'npm' },
};
// The transpiler's settings (tsconfig.json) and this file are inputs of the esbuild targets too.
const ESBUILD_INPUTS = ['/tsconfig.json', '/scripts/lib/build.mjs'];

/** Newest modification time of a file, or of a folder and everything under it (0 when absent). */
function newest(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = stat.mtimeMs; // a folder's time moves when a file in it is added, removed or renamed
  for (const name of fs.readdirSync(file)) t = Math.max(t, newest(path.join(file, name)));
  return t;
}

const inputPath = (target, input) => (input.startsWith('/') ? path.join(root, input) : path.join(root, target.dir, input));

/** True when the target has no output yet or one of its inputs changed after it was built. */
export function isStale(name) {
  const target = TARGETS[name];
  const built = newest(path.join(root, target.dir, target.output));
  if (!built) return true;
  const inputs = [...target.inputs, ...(target.tool === 'esbuild' ? ESBUILD_INPUTS : [])];
  return inputs.some((input) => newest(inputPath(target, input)) > built);
}

/** Every file under `dir`, relative to it. */
const filesUnder = (dir) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

/**
 * Transpiles src/**\/*.ts to dist/**\/*.js next to copies of the other files (SQL migrations), in a fresh folder that
 * then replaces dist at once: a removed source leaves no module behind, and a failed build leaves the last one.
 */
async function transpile(target) {
  const { build } = await import('esbuild');
  const src = path.join(root, target.dir, 'src');
  const dist = path.join(root, target.dir, 'dist');
  const fresh = `${dist}.building-${process.pid}`;
  fs.rmSync(fresh, { recursive: true, force: true });
  const files = filesUnder(src);
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  try {
    await build({
      entryPoints: sources.map((f) => path.join(src, f)),
      outbase: src,
      outdir: fresh,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      tsconfig: path.join(root, 'tsconfig.json'),
      sourcemap: true,
      logLevel: 'warning',
    });
    for (const f of files.filter((f) => !f.endsWith('.ts'))) {
      fs.mkdirSync(path.dirname(path.join(fresh, f)), { recursive: true });
      fs.copyFileSync(path.join(src, f), path.join(fresh, f));
    }
  } catch (err) {
    fs.rmSync(fresh, { recursive: true, force: true });
    throw err;
  }
  fs.rmSync(dist, { recursive: true, force: true });
  fs.renameSync(fresh, dist);
}

/** Builds the named targets, in the order given; throws naming the one that failed. */
export async function build(names) {
  try {
    await buildEach(names);
  } finally {
    // esbuild's service process would otherwise live as long as this one (npm start runs the service in it).
    if (names.some((name) => TARGETS[name]?.tool === 'esbuild')) (await import('esbuild')).stop();
  }
}

async function buildEach(names) {
  for (const name of names) {
    const target = TARGETS[name];
    if (!target) throw new Error(`unknown build target "${name}" (targets: ${Object.keys(TARGETS).join(', ')})`);
    const started = Date.now();
    if (target.tool === 'esbuild') await transpile(target);
    else {
      const r = spawnSync('npm', ['run', 'build', '--silent', '-w', target.dir], { cwd: root, stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`the ${name} build failed (npm run build -w ${target.dir})`);
    }
    console.log(`built ${name} (${target.dir}/${target.output.split('/')[0]}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
