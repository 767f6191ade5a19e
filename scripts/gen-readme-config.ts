// README "Configuration": its table of settings is generated from config.ts's declarations (name, default, meaning),
// so the documentation lists exactly what the service reads. `--check` fails when README differs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DECLARED } from '../packages/server/src/config.js';

export const README_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
const HEADER = ['| Variable | Default | Meaning |', '|---|---|---|'];

/** The table's lines, one row per declared setting in declaration order. */
export function configTable(): string[] {
  return [...HEADER, ...DECLARED.map((s) => `| \`${s.name}\` | ${s.shownDefault} | ${s.meaning} |`)];
}

/** Where README's table is: from its header line, in "## Configuration", to the first line that is not a row. */
export function tableIn(readme: string[]): { start: number; end: number } {
  const section = readme.indexOf('## Configuration');
  const start = readme.indexOf(HEADER[0]!, section);
  if (section < 0 || start < 0) throw new Error('README.md has no "## Configuration" section with a settings table');
  let end = start;
  while (end < readme.length && readme[end]!.startsWith('|')) end++;
  return { start, end };
}

/** README with its settings table replaced by the generated one. */
export function withTable(readme: string): string {
  const lines = readme.split('\n');
  const { start, end } = tableIn(lines);
  return [...lines.slice(0, start), ...configTable(), ...lines.slice(end)].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const current = fs.readFileSync(README_PATH, 'utf8');
  const generated = withTable(current);
  if (process.argv.includes('--check')) {
    if (generated !== current) {
      process.stderr.write('README.md "Configuration" differs from config.ts: run npm run gen:readme-config\n');
      process.exit(1);
    }
  } else if (generated !== current) {
    fs.writeFileSync(README_PATH, generated);
    process.stdout.write('README.md "Configuration" table regenerated\n');
  }
}
