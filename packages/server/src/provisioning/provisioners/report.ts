import { BackingError } from '../../backends/http-pipeline.js';
import { reportingGate } from '../../reports/reporting-failure.js';
import { GateRaised } from '../gates.js';
import type { Provisioner } from '../context.js';
import { platformWorkspace } from './platform-item.js';

/**
 * report: publishes the item's RDL to the reporting service through the import call, named after the item:
 * Overwrite when a paginated report of that name exists (idempotent re-run), else Abort; waits for the import.
 */
export const provisionReport: Provisioner = async (ctx) => {
  const group = platformWorkspace(ctx);
  const reporting = ctx.backends.reporting;
  const name = ctx.item.displayName;
  try {
    const existing = (await reporting.listReports(group)).filter((r) => samePaginated(r, name));
    const rdl = new TextEncoder().encode(String(ctx.content.rdl));
    const publish = async (conflict: 'Abort' | 'Overwrite') => {
      ctx.log(`import '${name}.rdl' into group ${group} with nameConflict=${conflict}`);
      return reporting.importRdl(group, name, rdl, conflict);
    };
    let imp;
    try {
      imp = await publish(existing.length ? 'Overwrite' : 'Abort');
    } catch (err) {
      // Another install of the same app published this report meanwhile (Abort refused), or two of them did (Overwrite
      // refused): keep one and overwrite it.
      if (!(err instanceof BackingError) || !['DuplicatePackageFoundError', 'MoreThanOneDuplicatePackageFoundError'].includes(err.code ?? '')) throw err;
      ctx.log(`reporting answered ${err.status} ${err.code}: keeping one report named '${name}' and overwriting it`);
      await keepOne(ctx, group, name);
      imp = await publish('Overwrite');
    }
    ctx.log(`import ${imp.id}: ${imp.importState}`);
    const report = imp.reports?.[0];
    if (imp.importState !== 'Succeeded' || !report) return { status: 'failed', error: JSON.stringify(imp) };
    // Reports need not have unique names: two installs that both found none both published one. Keep one.
    const kept = existing.length ? report.id : (await keepOne(ctx, group, name)) ?? report.id;
    return { status: existing.length || kept !== report.id ? 'exists' : 'created', resourceId: kept, secondaryIds: { platformWorkspaceId: group, importId: imp.id } };
  } catch (err) {
    const g = err instanceof BackingError ? reportingGate(err, ctx.profile) : undefined;
    if (g) throw new GateRaised(g, err as BackingError);
    throw err;
  }
};

const samePaginated = (r: { name?: string; reportType?: string }, name: string) =>
  r.name?.toLowerCase() === name.toLowerCase() && (r.reportType ?? 'PaginatedReport') === 'PaginatedReport';

/**
 * Once no import of this name is still publishing, keeps the paginated report of this name with the lowest id and
 * deletes the others; every install that runs this at the same time keeps the same one. Answers the kept id.
 */
async function keepOne(ctx: Parameters<Provisioner>[0], group: string, name: string): Promise<string | undefined> {
  const reporting = ctx.backends.reporting;
  const deadline = Date.now() + 60_000;
  const fileName = `${name}.rdl`.toLowerCase();
  while ((await reporting.listImports(group)).some((i) => i.importState === 'Publishing' && [name.toLowerCase(), fileName].includes((i.name ?? '').toLowerCase()))) {
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const same = (await reporting.listReports(group)).filter((r) => samePaginated(r, name)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const extra of same.slice(1)) {
    ctx.log(`delete duplicate report ${extra.id} named '${name}'`);
    await reporting.deleteReport(group, extra.id).catch((err) => { if (!(err instanceof BackingError && err.status === 404)) throw err; });
  }
  return same[0]?.id;
}
