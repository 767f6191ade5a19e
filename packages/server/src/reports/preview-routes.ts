import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errors } from '../http/schemas.js';
import type { PaginatedReportService } from './report-service.js';
import { DEFINITION_BODY_LIMIT, PreviewRequestSchema, WorkspaceQuery } from './schemas.js';

/** The designer's Run: a draft definition rendered by the reporting service without publishing it. */
export const previewRoutes =
  (service: PaginatedReportService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/items/paginated-report-preview',
      {
        config: { scope: 'reports' as const, role: 'Contributor' as const },
        bodyLimit: DEFINITION_BODY_LIMIT,
        schema: {
          operationId: 'previewPaginatedReport',
          tags: ['paginated-reports'],
          summary:
            'Render a draft RDL without publishing it: checked like a publish (400 invalid_rdl naming the line), imported as a short-lived draft report that lists never show, exported (with your effective identity over a semantic model), answered as the file, and deleted again',
          querystring: WorkspaceQuery,
          body: PreviewRequestSchema,
          response: {
            200: {
              description: 'the rendered file',
              content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } },
            },
            ...errors(404, 424, 502, 504),
          },
        },
      },
      async (req, reply) => {
        const f = await service.preview(req.caller!, req.query.workspaceId, req.body);
        return reply
          .type(f.contentType)
          .header('cache-control', 'private, no-store')
          .send(Buffer.from(f.bytes) as never); // bytes as rendered: the schema documents them as a binary string
      },
    );
  };
