import type { SandboxCore } from '../core.js';
import type { Router } from '../http/router.js';
import { reportingCaller } from './auth.js';
import { invalidRequest, notFound, pbiError } from './errors.js';
import { reportJson } from './report-json.js';
import type { StoredReport } from './store.js';

/** The Fabric Administrator directory role template (the `wids` claim of an admin's token). */
const FABRIC_ADMIN = 'a9ea8996-122f-4c74-9520-8edcd192826c';

const FIELDS: Record<string, (r: StoredReport) => string | undefined> = {
  id: (r) => r.id,
  name: (r) => r.name,
  reportType: (r) => r.reportType,
  datasetId: (r) => r.datasetId,
  createdBy: (r) => r.createdBy,
  modifiedBy: (r) => r.modifiedBy,
};

/** `$filter` as OData comparisons `field eq 'value'` (or ne) joined by `and` / `or` (and binds tighter). */
function filterOf(expr: string | undefined): (r: StoredReport) => boolean {
  if (!expr?.trim()) return () => true;
  const disjuncts = expr.split(/\s+or\s+/i).map((d) =>
    d.split(/\s+and\s+/i).map((c) => {
      const m = /^\s*(\w+)\s+(eq|ne)\s+'((?:[^']|'')*)'\s*$/i.exec(c);
      if (!m || !FIELDS[m[1]!])
        throw invalidRequest(
          `The $filter clause '${c.trim()}' is not supported: use <field> eq|ne '<value>' on ${Object.keys(FIELDS).join(', ')}, joined by and / or.`,
        );
      const get = FIELDS[m[1]!]!;
      const value = m[3]!.replace(/''/g, "'");
      const ne = m[2]!.toLowerCase() === 'ne';
      return (r: StoredReport) => (get(r) === value) !== ne;
    }),
  );
  return (r) => disjuncts.some((all) => all.every((c) => c(r)));
}

function count(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw invalidRequest(`${name} must be a non-negative whole number.`);
  return Number(raw);
}

/** GET /admin/groups/{groupId}/reports: the admin route, with $filter/$top/$skip and the authoring fields. */
export function adminRoutes(core: SandboxCore, router: Router): void {
  router.get('/v1.0/myorg/admin/groups/:groupId/reports', async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const admin = caller.isApp ? core.switches['reporting.adminApisEnabled'] : (caller.claims.wids ?? []).includes(FABRIC_ADMIN);
    if (!admin) {
      throw pbiError(401, 'PowerBINotAuthorizedException', [
        {
          code: 'AdminApi',
          detail: caller.isApp
            ? 'Service principals may call admin APIs only when the tenant setting "Service principals can access read-only admin APIs" is on.'
            : 'Admin APIs need the Fabric administrator role.',
        },
      ]);
    }
    const ws = core.dataPlatform.workspaces.get(ctx.params.groupId!.toLowerCase());
    if (!ws) throw notFound();
    const keep = filterOf(ctx.query('$filter'));
    const skip = count('$skip', ctx.query('$skip'), 0);
    const top = count('$top', ctx.query('$top'), Number.MAX_SAFE_INTEGER);
    const value = core.reporting
      .inGroup(ws.id)
      .filter(keep)
      .slice(skip, skip + top)
      .map((r) => {
        const { isOwnedByMe: _mine, ...rest } = reportJson(core, r, caller);
        return {
          ...rest,
          createdDateTime: new Date(r.createdAt).toISOString(),
          modifiedDateTime: new Date(r.modifiedAt).toISOString(),
          createdBy: r.createdBy,
          modifiedBy: r.modifiedBy,
        };
      });
    return { status: 200, body: { '@odata.context': `${core.urls.reporting}/v1.0/myorg/admin/$metadata#reports`, value } };
  });
}
