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
    const existing = (await reporting.listReports(group)).filter((r) => r.name === name && (r.reportType ?? 'PaginatedReport') === 'PaginatedReport');
    const conflict = existing.length ? 'Overwrite' : 'Abort';
    ctx.log(`import '${name}.rdl' into group ${group} with nameConflict=${conflict}`);
    const imp = await reporting.importRdl(group, name, new TextEncoder().encode(String(ctx.content.rdl)), conflict);
    ctx.log(`import ${imp.id}: ${imp.importState}`);
    const report = imp.reports?.[0];
    if (imp.importState !== 'Succeeded' || !report) return { status: 'failed', error: JSON.stringify(imp) };
    return { status: existing.length ? 'exists' : 'created', resourceId: report.id, secondaryIds: { platformWorkspaceId: group, importId: imp.id } };
  } catch (err) {
    const g = err instanceof BackingError ? reportingGate(err, ctx.profile) : undefined;
    if (g) throw new GateRaised(g, err as BackingError);
    throw err;
  }
};
