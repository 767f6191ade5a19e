import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../src/store/db.js';

const MIGRATIONS = path.resolve(import.meta.dirname, '../src/store/migrations');
const PGLITE = path.resolve(import.meta.dirname, '../../../node_modules/@electric-sql/pglite/package.json');

/** The template's name: a digest of the migrations and the embedded engine's version, so a change of either makes a new one. */
function templateDir(): string {
  const h = createHash('sha256');
  for (const f of fs.readdirSync(MIGRATIONS).sort()) h.update(f).update(fs.readFileSync(path.join(MIGRATIONS, f)));
  h.update(fs.readFileSync(PGLITE));
  return path.join(os.tmpdir(), `svc-store-template-${h.digest('hex').slice(0, 16)}`);
}

let made: Promise<string> | undefined;

/**
 * A fresh embedded store directory with every migration applied, copied from a template made once per set of
 * migrations (shared by the suite's processes): creating a PGlite cluster and migrating it costs about two seconds of
 * CPU, copying its files a quarter of that, and a suite builds hundreds of apps.
 */
export async function migratedDataDir(): Promise<string> {
  made ??= (async () => {
    const dir = templateDir();
    if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
    const work = fs.mkdtempSync(`${dir}-making-`);
    const store = await openStore({ dataDir: work, pool: 1 });
    await store.close();
    try {
      fs.renameSync(work, dir);
    } catch {
      fs.rmSync(work, { recursive: true, force: true }); // another process made it first
    }
    return dir;
  })();
  const template = await made;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}
