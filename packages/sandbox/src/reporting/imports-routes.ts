import busboy from 'busboy';
import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { Caller } from '../identity/caller.js';
import { callerName, groupFor, reportingCaller } from './auth.js';
import { invalidRequest, messageError, notFound, pbiError } from './errors.js';
import { reportJson } from './report-json.js';
import type { ImportRecord } from './store.js';

const NAME_CONFLICTS = ['Ignore', 'Abort', 'Overwrite', 'CreateOrOverwrite', 'GenerateUniqueName'];

/** The one file part of a multipart/form-data body. */
async function filePart(ctx: RequestContext): Promise<{ field: string; filename: string; data: Buffer }> {
  const type = ctx.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type) || !/boundary=/i.test(type)) {
    throw invalidRequest(
      `An .rdl import must be sent as multipart/form-data with one file part; the request's Content-Type is '${type || '(none)'}'.`,
    );
  }
  const body = await ctx.body();
  return new Promise((resolve, reject) => {
    const files: Array<{ field: string; filename: string; data: Buffer }> = [];
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: { 'content-type': type } });
    } catch (err) {
      reject(invalidRequest(`The multipart body cannot be read: ${(err as Error).message}`));
      return;
    }
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => files.push({ field, filename: info.filename ?? '', data: Buffer.concat(chunks) }));
    });
    bb.on('error', (err) => reject(invalidRequest(`The multipart body cannot be read: ${(err as Error).message}`)));
    bb.on('close', () => {
      if (files.length !== 1) reject(invalidRequest(`The multipart body must carry exactly one file part; it carries ${files.length}.`));
      else if (!files[0]!.data.length) reject(invalidRequest('The file part of the multipart body is empty.'));
      else resolve(files[0]!);
    });
    bb.end(body);
  });
}

function importJson(core: SandboxCore, imp: ImportRecord, caller: Caller): Record<string, unknown> {
  const report = imp.reportId ? core.reporting.reports.get(imp.reportId) : undefined;
  return {
    id: imp.id,
    name: imp.name,
    importState: imp.state,
    reports: report ? [reportJson(core, report, caller)] : [],
    datasets: [],
    createdDateTime: new Date(imp.createdAt).toISOString(),
    updatedDateTime: new Date(imp.updatedAt).toISOString(),
    connectionType: 'import',
    source: 'Upload',
    ...(imp.error ? { error: imp.error } : {}),
  };
}

/** POST/GET …/groups/{groupId}/imports[/{importId}]: publishing .rdl files asynchronously. */
export function importRoutes(core: SandboxCore, router: Router): void {
  const base = '/v1.0/myorg/groups/:groupId/imports';
  router.post(base, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Contributor');
    if (!caller.isApp && core.switches['reporting.userLicence'] === 'free') {
      throw pbiError(403, 'PowerBINotAuthorizedException', [
        {
          code: 'LicenseRequired',
          detail: 'A free licence publishes to My workspace only; publishing to a workspace needs a Pro or Premium Per User licence.',
        },
      ]);
    }
    const display = ctx.query('datasetDisplayName');
    if (!display) throw invalidRequest("The query parameter 'datasetDisplayName' is required.");
    if (!/\.rdl$/i.test(display) || display.length <= 4)
      throw invalidRequest(`datasetDisplayName '${display}' must carry the .rdl extension to import a paginated report.`);
    const conflict = ctx.query('nameConflict');
    if (conflict !== undefined && !NAME_CONFLICTS.includes(conflict))
      throw invalidRequest(`nameConflict '${conflict}' is not one of ${NAME_CONFLICTS.join(', ')}.`);
    if (conflict !== 'Abort' && conflict !== 'Overwrite') {
      throw invalidRequest(`nameConflict '${conflict ?? 'Ignore'}' is not supported for .rdl files; use Abort or Overwrite.`);
    }
    const file = await filePart(ctx);
    const name = display.slice(0, -4);
    const sameName = core.reporting
      .inGroup(ws.id)
      .filter((r) => r.reportType === 'PaginatedReport' && r.name.toLowerCase() === name.toLowerCase());
    let targetId: string | undefined;
    if (conflict === 'Abort' && sameName.length)
      throw messageError(
        400,
        'DuplicatePackageFoundError',
        `A paginated report named '${name}' already exists in the workspace and nameConflict is Abort.`,
      );
    if (conflict === 'Overwrite') {
      if (!sameName.length)
        throw pbiError(404, 'DuplicatePackageNotFoundError', [
          { code: 'ReportName', detail: `No paginated report named '${name}' exists in the workspace to overwrite.` },
        ]);
      if (sameName.length > 1)
        throw pbiError(409, 'MoreThanOneDuplicatePackageFoundError', [
          { code: 'ReportName', detail: `${sameName.length} paginated reports are named '${name}'.` },
        ]);
      targetId = sameName[0]!.id;
    }
    const now = Date.now();
    const imp: ImportRecord = {
      id: core.idSource.next('reporting:import'),
      groupId: ws.id,
      name,
      callerId: caller.objectId,
      callerName: callerName(caller),
      nameConflict: conflict,
      definition: file.data,
      targetId,
      createdAt: now,
      readyAt: now + core.switches['reporting.importMs'],
      state: 'Publishing',
      updatedAt: now,
    };
    core.reporting.imports.set(imp.id, imp);
    core.reporting.settle();
    return { status: 202, body: { id: imp.id } };
  });
  router.get(base, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Viewer');
    const value = [...core.reporting.imports.values()].filter((i) => i.groupId === ws.id).map((i) => importJson(core, i, caller));
    return { status: 200, body: { 'odata.context': `${core.urls.reporting}/v1.0/myorg/groups/${ws.id}/$metadata#imports`, value } };
  });
  router.get(`${base}/:importId`, async (ctx) => {
    const caller = await reportingCaller(core, ctx);
    const { ws } = groupFor(core, caller, ctx.params.groupId!, 'Viewer');
    const imp = core.reporting.imports.get(ctx.params.importId!.toLowerCase());
    if (!imp || imp.groupId !== ws.id) throw notFound();
    return { status: 200, body: importJson(core, imp, caller) };
  });
}
