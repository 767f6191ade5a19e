// Definitions the designer tests open: the curated catalog's and the sandbox's seeded ones.
import fs from 'node:fs';
import path from 'node:path';
import { customerListRdl, inventoryRdl, salesByRegionRdl } from '../../sandbox/src/reporting/seed.js';
import { loadConfig } from '../src/config.js';
import { checkRdl, type RdlFault } from '../src/reports/rdl/check.js';
import { RdlSchema } from '../src/reports/rdl-schema.js';

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

const schema = process.env.SVC_RDL_SCHEMA_PATH
  ? RdlSchema.fromConfig(loadConfig({ SVC_RDL_SCHEMA_PATH: process.env.SVC_RDL_SCHEMA_PATH }).reports)
  : undefined;

/**
 * What the service would refuse in a definition the designer wrote: the RDL checks (the complete form curated reports
 * pass), and the published schema when SVC_RDL_SCHEMA_PATH names it (as the service checks each publish then).
 */
export async function refusals(text: string, complete = true): Promise<RdlFault[]> {
  const faults = checkRdl(text, { complete }).faults;
  return faults.length || !schema ? faults : schema.check(text);
}
