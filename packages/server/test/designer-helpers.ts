// Definitions the designer tests open: the curated catalog's and the sandbox's seeded ones.
import fs from 'node:fs';
import path from 'node:path';
import { customerListRdl, inventoryRdl, salesByRegionRdl } from '../../sandbox/src/reporting/seed.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every definition of the curated catalog (with its ${…} placeholders, as installs read them) and every seeded one. */
export function catalogDefinitions(): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const apps = path.join(ROOT, 'catalog/apps');
  for (const app of fs.readdirSync(apps)) {
    const dir = path.join(apps, app, 'reports');
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.rdl')))
      out.push({ name: `${app}/${f}`, text: fs.readFileSync(path.join(dir, f), 'utf8') });
  }
  const id = '0f3a1c52-7d64-4e1b-9a3f-2c5b8e9d1a70';
  out.push({ name: 'seed/sales-by-region', text: salesByRegionRdl(id) });
  out.push({ name: 'seed/inventory', text: inventoryRdl(id, '127.0.0.1,14330') });
  out.push({ name: 'seed/customer-list', text: customerListRdl(id, '6d1c0e2a-9f3b-4c8d-8e7a-1b2c3d4e5f60') });
  return out;
}
