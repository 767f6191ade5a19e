import { Type, type Static } from '@sinclair/typebox';
import { underSharedAccess } from '../backends/shared-access.js';
import { BackingError } from '../backends/http-pipeline.js';
import type { BiImport } from '../backends/reporting.js';
import { validateReport } from '../catalog/validate-consumers.js';
import type { ProvisionOutcome, StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { platformWorkspace } from '../provisioning/platform-item.js';
import { raiseGate } from '../backends/failures.js';
import type { PlannedCall } from './calls.js';
import { Key } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';

/** Report content as stored in JSON: the RDL file and the semantic model it reads. */
export const ReportFile = Type.Object({ rdlFile: Type.String({ pattern: '\\.rdl$' }), semanticModel: Type.Optional(Key) });
/** Report content as loaded: the JSON plus the RDL text read from `rdlFile`. */
export type ReportContent = Static<typeof ReportFile> & { rdl: string };

const GROUP = '/v1.0/myorg/groups/{ws}';
const CALLS: readonly PlannedCall[] = [
  { service: 'reporting', method: 'GET', path: `${GROUP}/reports?$filter=reportType eq 'PaginatedReport'` },
  { service: 'reporting', method: 'POST', path: `${GROUP}/imports?datasetDisplayName={name}.rdl&nameConflict=Abort`, when: 'new' },
  // Beside other installs the report is exported and compared first; a different definition is imported alone.
  { service: 'reporting', method: 'GET', path: `${GROUP}/reports/{id}/Export`, when: 'beside' },
  {
    service: 'reporting',
    method: 'POST',
    path: `${GROUP}/imports?datasetDisplayName={name}.rdl&nameConflict=Overwrite`,
    when: 'existingAlone',
  },
  { service: 'reporting', method: 'GET', path: `${GROUP}/imports/{import}`, when: 'pending' },
  { service: 'reporting', method: 'GET', path: `${GROUP}/imports`, when: 'new' },
  { service: 'reporting', method: 'DELETE', path: `${GROUP}/reports/{report}`, when: 'conflict' },
];

/**
 * report: publishes the item's RDL to the reporting service through the import call, named after the item:
 * Overwrite when a paginated report of that name exists (idempotent re-run), else Abort; waits for the import.
 */
export const report: LiveItemType<'report', typeof ReportFile, ReportContent> = {
  id: 'report',
  displayName: 'Paginated report',
  description: 'an RDL report published to the reporting service',
  icon: 'DocumentText',
  editor: 'json',
  backing: 'reporting',
  content: ReportFile,
  load: (c, files) => ({ ...c, rdl: files.read(c.rdlFile, 'RDL file') }),
  validate: validateReport,
  validatesAfter: ['semantic-model'],
  edges: { from: ['visualizes'], to: [] },
  dependsOn: (c) => [c.semanticModel],
  calls: () => CALLS,
  provision: provisionReport,
  desired: async (ctx) => ({ [RDL_PART]: String(ctx.content.rdl) }),
  async readLive(ctx) {
    const group = platformWorkspace(ctx);
    try {
      const [found] = (await ctx.backends.reporting.listReports(group)).filter((r) => samePaginated(r, ctx.item.displayName));
      if (!found) return undefined;
      const rdl = new TextDecoder().decode(await ctx.backends.reporting.exportDefinition(group, found.id));
      return { resourceId: found.id, secondaryIds: { platformWorkspaceId: group }, parts: { [RDL_PART]: rdl } };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { reporting: {} } });
    }
  },
  readCalls: () => [CALLS[0]!, { ...CALLS[1]!, when: 'existing' }],
  /** The reporting service's DELETE of the report: 200, or 404 when it is already gone. */
  async remove(ctx, resourceId) {
    const group = platformWorkspace(ctx);
    try {
      const removed = await ctx.backends.reporting.removeReport(group, resourceId);
      ctx.log(removed ? `report ${resourceId} deleted` : `report ${resourceId} was already gone (404)`);
      return { removed };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { reporting: {} } });
    }
  },
  removeCalls: () => [{ service: 'reporting', method: 'DELETE', path: `${GROUP}/reports/{id}` }],
};

/** The part a report's definition is compared as: the .rdl the import sends and Export answers. */
const RDL_PART = 'report.rdl';

async function provisionReport(ctx: TypedProvisionContext<ReportContent>): Promise<ProvisionOutcome> {
  const group = platformWorkspace(ctx);
  const reporting = ctx.backends.reporting;
  const name = ctx.item.displayName;
  try {
    const existing = (await reporting.listReports(group)).filter((r) => samePaginated(r, name));
    // Beside other installs (shared access) the one report of this name is read (Export) before anything is imported:
    // when it holds this definition there is nothing to send; otherwise the import is refused and made alone.
    if (underSharedAccess() && existing.length === 1) {
      const live = new TextDecoder().decode(await reporting.exportDefinition(group, existing[0]!.id));
      if (live === String(ctx.content.rdl)) {
        ctx.log(`report '${name}' (${existing[0]!.id}) holds this definition (Export): not imported again`);
        return { status: 'exists', resourceId: existing[0]!.id, secondaryIds: { platformWorkspaceId: group } };
      }
    }
    const rdl = new TextEncoder().encode(String(ctx.content.rdl));
    const publish = async (conflict: 'Abort' | 'Overwrite') => {
      ctx.log(`import '${name}.rdl' into group ${group} with nameConflict=${conflict}`);
      return reporting.importRdl(group, name, rdl, conflict);
    };
    let imp: BiImport;
    try {
      imp = await publish(existing.length ? 'Overwrite' : 'Abort');
    } catch (err) {
      // Another install of the same app published this report meanwhile (Abort refused), or two of them did (Overwrite
      // refused): keep one and overwrite it.
      if (
        !(err instanceof BackingError) ||
        !['DuplicatePackageFoundError', 'MoreThanOneDuplicatePackageFoundError'].includes(err.code ?? '')
      )
        throw err;
      ctx.log(`reporting answered ${err.status} ${err.code}: keeping one report named '${name}' and overwriting it`);
      await keepOne(ctx, group, name);
      imp = await publish('Overwrite');
    }
    ctx.log(`import ${imp.id}: ${imp.importState}`);
    const report = imp.reports?.[0];
    if (imp.importState !== 'Succeeded' || !report) return { status: 'failed', error: JSON.stringify(imp) };
    // Reports need not have unique names: two installs that both found none both published one. Keep one.
    const kept = existing.length ? report.id : ((await keepOne(ctx, group, name)) ?? report.id);
    return {
      status: existing.length || kept !== report.id ? 'exists' : 'created',
      resourceId: kept,
      secondaryIds: { platformWorkspaceId: group, importId: imp.id },
    };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { reporting: {} } });
  }
}

const samePaginated = (r: { name?: string; reportType?: string }, name: string) =>
  r.name?.toLowerCase() === name.toLowerCase() && (r.reportType ?? 'PaginatedReport') === 'PaginatedReport';

/**
 * Once no import of this name is still publishing, keeps the paginated report of this name with the lowest id and
 * deletes the others; every install that runs this at the same time keeps the same one. Answers the kept id.
 */
async function keepOne(ctx: StepContext, group: string, name: string): Promise<string | undefined> {
  const reporting = ctx.backends.reporting;
  const deadline = Date.now() + 60_000;
  const fileName = `${name}.rdl`.toLowerCase();
  while (
    (await reporting.listImports(group)).some(
      (i) => i.importState === 'Publishing' && [name.toLowerCase(), fileName].includes((i.name ?? '').toLowerCase()),
    )
  ) {
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const same = (await reporting.listReports(group))
    .filter((r) => samePaginated(r, name))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const extra of same.slice(1)) {
    ctx.log(`delete duplicate report ${extra.id} named '${name}'`);
    await reporting.deleteReport(group, extra.id).catch((err) => {
      if (!(err instanceof BackingError && err.status === 404)) throw err;
    });
  }
  return same[0]?.id;
}
