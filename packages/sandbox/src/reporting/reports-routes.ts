import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { Caller } from '../identity/caller.js';
import type { WorkspaceRole } from '../data-platform/store.js';
import { callerName, groupFor, reportingCaller } from './auth.js';
import { invalidRequest, messageError, notFound, pbiError } from './errors.js';
import { connectionDetails, datasourceType, readRdl, replaceConnectString, rewriteConnectString, type RdlModel } from './rdl.js';
import { reportJson } from './report-json.js';
import { stableUuid } from '../ids.js';
import type { StoredReport } from './store.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

export const json = (ctx: RequestContext) => ctx.json((d) => invalidRequest(d));

/** The caller, the group at the needed role, and the report of the path (404 PowerBIEntityNotFound when absent). */
export async function reportFor(
  core: SandboxCore,
  ctx: RequestContext,
  needed: WorkspaceRole,
): Promise<{ caller: Caller; report: StoredReport }> {
  const caller = await reportingCaller(core, ctx);
  const { ws } = groupFor(core, caller, ctx.params.groupId!, needed);
  const report = core.reporting.reports.get(String(ctx.params.reportId).toLowerCase());
  if (!report || report.groupId !== ws.id) throw notFound();
  return { caller, report };
}

/** A refusal because a tenant setting is off: 403 naming the setting. */
export function settingDisabled(setting: string, what: string): never {
  throw messageError(403, 'FeatureDisabledByTenantSetting', `${what} is disabled on tenant level: the tenant setting "${setting}" is off.`);
}

function paginatedOnly(report: StoredReport, operation: string): RdlModel {
  if (report.reportType !== 'PaginatedReport')
    throw invalidRequest(`${operation} applies to paginated reports only; report ${report.id} is a ${report.reportType}.`);
  return readRdl(report.definition);
}

function datasourcesOf(report: StoredReport, model: RdlModel) {
  return model.dataSources.map((d) => ({
    datasourceType: datasourceType(d.provider),
    connectionDetails: connectionDetails(d),
    datasourceId: stableUuid(report.id, `datasource:${d.name}`),
    gatewayId: stableUuid(report.groupId, 'gateway:cloud'),
    name: d.name,
  }));
}

const isAnalysisServer = (server: string) => /^(pbiazure|powerbi|asazure):\/\//i.test(server);

/** GET/DELETE reports, Export (the stored bytes), Clone, datasources, Default.UpdateDatasources, Default.TakeOver. */
export function reportRoutes(core: SandboxCore, router: Router): void {
  const group = '/v1.0/myorg/groups/:groupId/reports';
  const one = `${group}/:reportId`;

  // The group route has no $filter/$top/$skip: they are accepted and ignored, as the service does.
  router.get(group, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Viewer');
    const value = core.reporting.inGroup(ws.id).map((r) => reportJson(core, r, caller));
    return { status: 200, body: { '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${ws.id}/$metadata#reports`, value } };
  });

  router.get(one, async (ctx) => {
    const { caller, report } = await reportFor(core, ctx, 'Viewer');
    return {
      status: 200,
      body: {
        '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${report.groupId}/$metadata#reports/$entity`,
        ...reportJson(core, report, caller),
      },
    };
  });

  router.delete(one, async (ctx) => {
    const { report } = await reportFor(core, ctx, 'Contributor');
    core.reporting.reports.delete(report.id);
    for (const [id, job] of core.reporting.exports) if (job.reportId === report.id) core.reporting.exports.delete(id);
    return { status: 200 };
  });

  router.get(`${one}/Export`, async (ctx) => {
    const { report } = await reportFor(core, ctx, 'Viewer');
    if (!core.switches['reporting.downloadEnabled']) settingDisabled('Download reports', 'Downloading reports');
    const download = ctx.query('downloadType');
    if (download !== undefined && !['IncludeModel', 'LiveConnect'].includes(download))
      throw invalidRequest(`downloadType '${download}' is not one of IncludeModel, LiveConnect.`);
    const paginated = report.reportType === 'PaginatedReport';
    const filename = `${report.name}.${paginated ? 'rdl' : 'pbix'}`;
    return {
      status: 200,
      raw: report.definition,
      contentType: paginated ? 'application/octet-stream' : 'application/zip',
      headers: {
        'content-disposition': `attachment; filename="${filename.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      },
    };
  });

  router.post(`${one}/Clone`, async (ctx) => {
    const { caller, report } = await reportFor(core, ctx, 'Contributor');
    const body = await json(ctx);
    if (typeof body?.name !== 'string' || !body.name.trim())
      throw invalidRequest("The request field 'name' is required: the name of the new report.");
    let target = report.groupId;
    if (body.targetWorkspaceId !== undefined && body.targetWorkspaceId !== null) {
      if (typeof body.targetWorkspaceId !== 'string' || !GUID.test(body.targetWorkspaceId))
        throw invalidRequest(`targetWorkspaceId '${body.targetWorkspaceId}' is not a workspace id (a GUID).`);
      if (body.targetWorkspaceId === EMPTY_GUID) {
        throw invalidRequest(
          caller.isApp
            ? 'A service principal has no My workspace: targetWorkspaceId must name a workspace.'
            : 'Cloning into My workspace is not offered by this service; name a workspace in targetWorkspaceId.',
        );
      }
      target = groupFor(core, caller, body.targetWorkspaceId, 'Contributor').ws.id;
    }
    if (body.targetModelId !== undefined && typeof body.targetModelId !== 'string')
      throw invalidRequest('targetModelId must be a string (a semantic model id).');
    const now = Date.now();
    const copy: StoredReport = {
      ...report,
      id: core.idSource.next('reporting:report'),
      groupId: target,
      name: body.name,
      datasetId: report.reportType === 'PowerBIReport' ? (body.targetModelId ?? report.datasetId) : undefined,
      createdBy: callerName(caller),
      modifiedBy: callerName(caller),
      createdAt: now,
      modifiedAt: now,
      datasourceOwner: caller.objectId,
    };
    core.reporting.reports.set(copy.id, copy);
    return { status: 200, body: reportJson(core, copy, caller) };
  });

  router.get(`${one}/datasources`, async (ctx) => {
    const { report } = await reportFor(core, ctx, 'Viewer');
    const model = paginatedOnly(report, 'Get Datasources of a report');
    return {
      status: 200,
      body: {
        '@odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${report.groupId}/$metadata#datasources`,
        value: datasourcesOf(report, model),
      },
    };
  });

  router.post(`${one}/Default.TakeOver`, async (ctx) => {
    const { caller, report } = await reportFor(core, ctx, 'Contributor');
    paginatedOnly(report, 'Default.TakeOver');
    report.datasourceOwner = caller.objectId;
    return { status: 200 };
  });

  router.post(`${one}/Default.UpdateDatasources`, async (ctx) => {
    const { caller, report } = await reportFor(core, ctx, 'Contributor');
    const model = paginatedOnly(report, 'Default.UpdateDatasources');
    const body = await json(ctx);
    const details = body?.updateDetails;
    if (!Array.isArray(details) || !details.length)
      throw invalidRequest("The request field 'updateDetails' is required: a non-empty array of {datasourceName, connectionDetails}.");
    if (report.datasourceOwner !== caller.objectId) {
      throw pbiError(403, 'PowerBINotAuthorizedException', [
        { code: 'NotDatasourceOwner', detail: "Only the owner of the report's data sources can update them; call Default.TakeOver first." },
      ]);
    }
    let source = report.definition.toString('utf8');
    details.forEach((d: any, i: number) => {
      const at = `updateDetails[${i}]`;
      if (typeof d?.datasourceName !== 'string' || !d.datasourceName) throw invalidRequest(`${at}.datasourceName is required.`);
      const ds = model.dataSources.find((x) => x.name === d.datasourceName);
      if (!ds)
        throw invalidRequest(
          `${at}.datasourceName '${d.datasourceName}' is not a data source of the report (it has ${model.dataSources.map((x) => x.name).join(', ') || 'none'}).`,
        );
      const cd = d.connectionDetails;
      if (!cd || typeof cd !== 'object' || Array.isArray(cd))
        throw invalidRequest(`${at}.connectionDetails is required: {server?, database?}.`);
      const extra = Object.keys(cd).filter((k) => k !== 'server' && k !== 'database');
      if (extra.length)
        throw invalidRequest(`${at}.connectionDetails: only server and database can be updated; ${extra.join(', ')} cannot.`);
      for (const k of ['server', 'database'] as const)
        if (cd[k] !== undefined && (typeof cd[k] !== 'string' || !cd[k]))
          throw invalidRequest(`${at}.connectionDetails.${k} must be a non-empty string.`);
      if (cd.server === undefined && cd.database === undefined)
        throw invalidRequest(`${at}.connectionDetails must set server or database.`);
      const type = datasourceType(ds.provider);
      if (type === 'ODBC')
        throw invalidRequest(`Data source '${ds.name}' is an ODBC data source; updating ODBC data sources is not supported.`);
      if (type !== 'Sql' && type !== 'AnalysisServices' && type !== 'Oracle' && type !== 'OleDb')
        throw invalidRequest(`Data source '${ds.name}' of type ${type} has no server or database to update.`);
      if (cd.server !== undefined && (type === 'AnalysisServices') !== isAnalysisServer(cd.server)) {
        throw invalidRequest(
          `${at}: the data source type cannot change; '${ds.name}' is ${type} and server '${cd.server}' is ${isAnalysisServer(cd.server) ? 'an Analysis Services / semantic model' : 'not an Analysis Services'} address.`,
        );
      }
      source = replaceConnectString(source, ds.name, rewriteConnectString(ds.connectString, cd.server, cd.database));
    });
    report.definition = Buffer.from(source, 'utf8');
    report.modifiedAt = Date.now();
    report.modifiedBy = callerName(caller);
    return { status: 200 };
  });
}
