import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IfMatchHeaders, Ok } from '../http/schemas.js';
import { hasScope } from '../auth/scopes.js';
import { ServiceError } from '../errors.js';
import type { PaginatedReportService } from './report-service.js';
import {
  Definition,
  DEFINITION_BODY_LIMIT,
  DatasourceSchema,
  DatasourceUpdate,
  ExportParams,
  ExportRequest,
  PaginatedReportSchema,
  ReportExportSchema,
  ReportName,
  ReportParameterSchema,
  ReportParams,
  WorkspaceQuery,
} from './schemas.js';

const BASE = '/api/items/paginated-report';
const tags = ['paginated-reports'];
const Report = Type.Ref(PaginatedReportSchema);
const ReportingWorkspaceSchema = Type.Object(
  {
    id: Type.String({ description: 'the platform workspace (reporting group) that holds the reports' }),
    source: Type.Union([Type.Literal('binding'), Type.Literal('tenant-default')], {
      description:
        'binding: the workspace’s own platform workspace binding; tenant-default: the workspace is unbound and uses the tenant’s default platform workspace (the default tenant: SVC_DEFAULT_PLATFORM_WORKSPACE; another tenant: the first platform workspace the operator assigned to it)',
    }),
  },
  // x-client-context: the clients' list method keeps answering the reports (as before this field); this is context.
  { description: 'the reporting workspace the reports live in, and why', 'x-client-context': true },
);
const read = { scope: 'reports' as const, role: 'Viewer' as const };
const edit = { scope: 'reports' as const, role: 'Contributor' as const };

/** Paginated-report routes: every call goes to the reporting service of the workspace's bound group. */
export const reportRoutes =
  (service: PaginatedReportService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      BASE,
      {
        config: read,
        schema: {
          operationId: 'listPaginatedReports',
          tags,
          summary:
            'The paginated reports of a workspace (the reporting service’s list, kept to reportType PaginatedReport), and the reporting workspace they live in',
          querystring: WorkspaceQuery,
          response: {
            200: Type.Object({ ok: Ok, reports: Type.Array(Report), reportingWorkspace: ReportingWorkspaceSchema }),
            ...errors(404, 424, 502),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await service.list(req.caller!, req.query.workspaceId)) }),
    );

    app.post(
      BASE,
      {
        config: edit,
        bodyLimit: DEFINITION_BODY_LIMIT,
        schema: {
          operationId: 'publishPaginatedReport',
          tags,
          summary: 'Publish a new paginated report from an RDL definition (import with nameConflict Abort)',
          querystring: WorkspaceQuery,
          body: Type.Object({ name: ReportName, definition: Definition }, { additionalProperties: false }),
          response: { 201: Type.Object({ ok: Ok, report: Report }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({
          ok: true as const,
          report: await service.publish(req.caller!, req.query.workspaceId, req.body.name.trim(), req.body.definition),
        }),
    );

    app.get(
      `${BASE}/:reportId`,
      {
        config: read,
        schema: {
          operationId: 'getPaginatedReport',
          tags,
          summary: 'A paginated report’s metadata: name, type, dataset, web and embed addresses',
          params: ReportParams,
          querystring: WorkspaceQuery,
          response: { 200: Type.Object({ ok: Ok, report: Report }), ...errors(404, 424, 502) },
        },
      },
      async (req) => ({ ok: true as const, report: await service.get(req.caller!, req.query.workspaceId, req.params.reportId) }),
    );

    app.delete(
      `${BASE}/:reportId`,
      {
        config: edit,
        schema: {
          operationId: 'deletePaginatedReport',
          tags,
          summary: 'Delete a paginated report in the reporting service',
          params: ReportParams,
          querystring: WorkspaceQuery,
          response: { 200: Type.Object({ ok: Ok, deleted: Type.String() }), ...errors(404, 424, 502) },
        },
      },
      async (req) => {
        await service.delete(req.caller!, req.query.workspaceId, req.params.reportId);
        return { ok: true as const, deleted: req.params.reportId };
      },
    );

    app.get(
      `${BASE}/:reportId/definition`,
      {
        config: read,
        schema: {
          operationId: 'getPaginatedReportDefinition',
          tags,
          summary: 'The report’s RDL (downloaded through Export), its ETag and its parameters',
          params: ReportParams,
          querystring: WorkspaceQuery,
          response: {
            200: Type.Object({
              ok: Ok,
              report: Report,
              definition: Type.String({ description: 'the RDL' }),
              etag: Type.String(),
              parameters: Type.Array(Type.Ref(ReportParameterSchema)),
            }),
            ...errors(404, 424, 502),
          },
        },
      },
      async (req, reply) => {
        const d = await service.getDefinition(req.caller!, req.query.workspaceId, req.params.reportId);
        reply.header('etag', d.etag);
        return { ok: true as const, ...d };
      },
    );

    app.put(
      `${BASE}/:reportId/definition`,
      {
        config: edit,
        bodyLimit: DEFINITION_BODY_LIMIT,
        schema: {
          operationId: 'putPaginatedReportDefinition',
          tags,
          summary:
            'Publish a changed RDL back (import with Overwrite, waited for); If-Match must carry the ETag read (428 without it, 412 when stale); invalid RDL is 400 naming the line and element',
          params: ReportParams,
          querystring: WorkspaceQuery,
          headers: IfMatchHeaders,
          body: Type.Object({ definition: Definition }, { additionalProperties: false }),
          response: { 200: Type.Object({ ok: Ok, report: Report, etag: Type.String() }), ...errors(404, 412, 424, 428, 502) },
        },
      },
      async (req, reply) => {
        const r = await service.putDefinition(
          req.caller!,
          req.query.workspaceId,
          req.params.reportId,
          req.body.definition,
          req.headers['if-match'],
        );
        reply.header('etag', r.etag);
        return { ok: true as const, ...r };
      },
    );

    app.post(
      `${BASE}/:reportId/clone`,
      {
        config: edit,
        schema: {
          operationId: 'clonePaginatedReport',
          tags,
          summary: 'Copy a report under a new name, into this or another workspace of the tenant',
          params: ReportParams,
          querystring: WorkspaceQuery,
          body: Type.Object(
            {
              name: ReportName,
              targetWorkspaceId: Type.Optional(
                Type.String({
                  minLength: 1,
                  maxLength: 64,
                  pattern: '^[A-Za-z0-9_-]+$',
                  description: 'a service workspace; default the same one',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, report: Report }), ...errors(404, 424, 502) },
        },
      },
      async (req, reply) =>
        reply.status(201).send({
          ok: true as const,
          report: await service.clone(req.caller!, req.query.workspaceId, req.params.reportId, {
            ...req.body,
            name: req.body.name.trim(),
          }),
        }),
    );

    app.get(
      `${BASE}/:reportId/datasources`,
      {
        config: read,
        schema: {
          operationId: 'listPaginatedReportDatasources',
          tags,
          summary: 'The report’s data sources as the reporting service binds them',
          params: ReportParams,
          querystring: WorkspaceQuery,
          response: { 200: Type.Object({ ok: Ok, datasources: Type.Array(Type.Ref(DatasourceSchema)) }), ...errors(404, 424, 502) },
        },
      },
      async (req) => ({
        ok: true as const,
        datasources: await service.datasources(req.caller!, req.query.workspaceId, req.params.reportId),
      }),
    );

    app.post(
      `${BASE}/:reportId/datasources`,
      {
        config: edit,
        schema: {
          operationId: 'updatePaginatedReportDatasources',
          tags,
          summary:
            'Rebind data sources (Default.UpdateDatasources: same type, server and database only); a refusal comes back with the reporting service’s text',
          params: ReportParams,
          querystring: WorkspaceQuery,
          body: DatasourceUpdate,
          response: { 200: Type.Object({ ok: Ok, datasources: Type.Array(Type.Ref(DatasourceSchema)) }), ...errors(404, 424, 502) },
        },
      },
      async (req) => ({
        ok: true as const,
        datasources: await service.updateDatasources(req.caller!, req.query.workspaceId, req.params.reportId, req.body.updateDetails),
      }),
    );

    app.post(
      `${BASE}/:reportId/embed-token`,
      {
        config: read,
        schema: {
          operationId: 'createPaginatedReportEmbedToken',
          tags,
          summary: 'A view embed token for the report (GenerateToken, accessLevel View)',
          params: ReportParams,
          querystring: WorkspaceQuery,
          body: Type.Optional(
            Type.Object(
              {
                lifetimeInMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
                username: Type.Optional(
                  Type.String({
                    minLength: 1,
                    maxLength: 256,
                    pattern: '^\\S+$',
                    description: 'effective identity; becomes User!UserID in the RDL',
                  }),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          response: {
            200: Type.Object({
              ok: Ok,
              token: Type.String(),
              tokenId: Type.String(),
              expiration: Type.String(),
              embedUrl: Type.Union([Type.String(), Type.Null()]),
              reportId: Type.String(),
            }),
            ...errors(404, 424, 502),
          },
        },
      },
      async (req) => ({
        ok: true as const,
        ...(await service.embedToken(req.caller!, req.query.workspaceId, req.params.reportId, req.body ?? {})),
      }),
    );

    app.post(
      `${BASE}/:reportId/exports`,
      {
        config: read,
        schema: {
          operationId: 'startPaginatedReportExport',
          tags,
          summary:
            'Start rendering the report to a file (ExportTo); poll the export, then fetch its file. A report over a semantic model renders for an effective identity: your user principal name (for an API token, its owner’s or SVC_REPORT_EFFECTIVE_USERNAME; 424 without one), with the model’s row-level roles',
          params: ReportParams,
          querystring: WorkspaceQuery,
          body: ExportRequest,
          response: { 202: Type.Object({ ok: Ok, export: Type.Ref(ReportExportSchema) }), ...errors(404, 424, 502) },
        },
      },
      async (req, reply) => {
        if (req.body.effectiveIdentity && !hasScope(req.caller!.scopes, 'admin'))
          throw new ServiceError(
            403,
            'forbidden',
            'effectiveIdentity may be set by a tenant admin (scope admin) only; leave it out to export as yourself',
            { field: 'effectiveIdentity' },
          );
        return reply.status(202).send({
          ok: true as const,
          export: await service.startExport(req.caller!, req.query.workspaceId, req.params.reportId, req.body),
        });
      },
    );

    app.get(
      `${BASE}/:reportId/exports/:exportId`,
      {
        config: read,
        schema: {
          operationId: 'getPaginatedReportExport',
          tags,
          summary: 'An export’s status and progress; Retry-After (seconds) while it is unfinished',
          params: ExportParams,
          querystring: WorkspaceQuery,
          response: { 200: Type.Object({ ok: Ok, export: Type.Ref(ReportExportSchema) }), ...errors(404, 424, 502) },
        },
      },
      async (req, reply) => {
        const r = await service.getExport(req.caller!, req.query.workspaceId, req.params.reportId, req.params.exportId);
        if (r.retryAfter) reply.header('retry-after', String(r.retryAfter));
        return { ok: true as const, export: r.export };
      },
    );

    app.get(
      `${BASE}/:reportId/exports/:exportId/file`,
      {
        config: read,
        schema: {
          operationId: 'getPaginatedReportExportFile',
          tags,
          summary: 'The exported file, with its content type and a file name (409 until the export has Succeeded)',
          params: ExportParams,
          querystring: WorkspaceQuery,
          response: {
            200: { description: 'the file', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } },
            ...errors(404, 409, 424, 502),
          },
        },
      },
      async (req, reply) => {
        const f = await service.exportFile(req.caller!, req.query.workspaceId, req.params.reportId, req.params.exportId);
        const ascii = f.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
        return reply
          .type(f.contentType)
          .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
          .header('cache-control', 'private, no-store')
          .send(Buffer.from(f.bytes) as never); // bytes as received: the schema documents them as a binary string
      },
    );
  };
