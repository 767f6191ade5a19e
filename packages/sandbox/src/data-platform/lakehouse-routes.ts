import type { SandboxCore } from '../core.js';
import type { Router } from '../http/router.js';
import { platformCaller, requireRole, workspaceOf } from './auth.js';
import { fabricError, invalidInput, invalidJson } from './errors.js';
import { itemOf } from './items-routes.js';
import { accepted } from './operations.js';
import { page } from './paging.js';

/** Lakehouse tables: the list (under `data`) read from OneLake's Tables/ folders, and load-table as a long-running operation. */
export function lakehouseRoutes(core: SandboxCore, router: Router): void {
  const base = '/v1/workspaces/:ws/lakehouses/:id/tables';
  router.get(base, async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Viewer');
    const lh = itemOf(core, ws, ctx.params.id!, 'Lakehouse');
    const schemas = lh.creationPayload?.enableSchemas === true;
    if (schemas)
      throw fabricError(
        400,
        'UnsupportedOperationForSchemasEnabledLakehouse',
        'Listing tables is not supported for lakehouses with schemas enabled',
      );
    const max = Number(ctx.query('maxResults') ?? core.switches['dataPlatform.pageSize']);
    if (!Number.isInteger(max) || max < 1 || max > 100) throw invalidInput('maxResults', 'must be an integer from 1 to 100');
    const host = new URL(core.urls.oneLake).host;
    const tables = core.oneLake
      .tables(ws.id, lh.id, false)
      .map((name) => ({ type: 'Managed', name, location: `abfss://${ws.id}@${host}/${lh.id}/Tables/${name}`, format: 'Delta' }));
    const p = page(ctx, tables, max, `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/lakehouses/${lh.id}/tables`, `${lh.id}|tables`);
    return {
      status: 200,
      body: {
        data: p.value,
        ...(p.continuationToken ? { continuationToken: p.continuationToken, continuationUri: p.continuationUri } : {}),
      },
    };
  });
  router.post(`${base}/:table/load`, async (ctx) => {
    const caller = await platformCaller(core, ctx);
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Contributor');
    const lh = itemOf(core, ws, ctx.params.id!, 'Lakehouse');
    const body = await ctx.json(invalidJson);
    const table = ctx.params.table!;
    if (!/^[A-Za-z0-9_]{1,256}$/.test(table)) throw invalidInput('tableName', 'may contain only letters, numbers and underscores');
    if (typeof body.relativePath !== 'string' || !/^Files(\/|$)/.test(body.relativePath))
      throw invalidInput('relativePath', "must start with 'Files'");
    if (!['File', 'Folder'].includes(body.pathType)) throw invalidInput('pathType', 'must be File or Folder');
    if (body.mode !== undefined && !['Overwrite', 'Append'].includes(body.mode)) throw invalidInput('mode', 'must be Overwrite or Append');
    const format = body.formatOptions?.format ?? 'Csv';
    if (!['Csv', 'Parquet'].includes(format)) throw invalidInput('formatOptions.format', 'must be Csv or Parquet');
    const source = core.oneLake.get(ws.id, lh.id, body.relativePath.replace(/\/+$/, ''));
    const error = source ? undefined : fabricError(400, 'PathNotFound', `The path '${body.relativePath}' was not found in the lakehouse`);
    const apply = () => core.oneLake.put(ws.id, lh.id, `Tables/${table}/_delta_log`, { isDirectory: true, lastModified: Date.now() });
    return accepted(core, core.dataPlatform.startOperation(caller.objectId, error ? { error } : { apply }));
  });
}
