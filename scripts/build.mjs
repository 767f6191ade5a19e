// `npm run build`: the service, the sandbox, the console and the TypeScript client, each to its dist/ (see lib/build.mjs).
// `node scripts/build.mjs --if-stale server sandbox` builds only those targets whose sources changed since their build.
import { build, isStale, TARGETS } from './lib/build.mjs';

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const named = args.filter((a) => a !== '--if-stale');
const names = (named.length ? named : Object.keys(TARGETS)).filter((name) => !ifStale || !TARGETS[name] || isStale(name));
try {
  await build(names);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
