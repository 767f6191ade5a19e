import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, PreconditionError, ServiceError } from '../errors.js';
import { patternText } from './schemas.js';
import { type ConsolePages, isConsolePath } from '../web/console.js';
import { RouteMethods } from './route-methods.js';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

// "body/name must NOT have fewer than 1 characters" → field "name".
function fieldOf(context: string | undefined, issue: ValidationIssue): string {
  const extra = (issue.params.missingProperty ?? issue.params.additionalProperty) as string | undefined;
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = [path, extra].filter(Boolean).join('.');
  return field || (context ?? 'body');
}

function describe(context: string | undefined, issue: ValidationIssue): string {
  const where = `${context ?? 'body'}${issue.instancePath}`;
  if (issue.keyword === 'additionalProperties') return `${where} has an unknown field '${String(issue.params.additionalProperty)}'`;
  if (issue.keyword === 'required') return `${where} is missing the required field '${String(issue.params.missingProperty)}'`;
  const text = issue.keyword === 'pattern' ? patternText(String(issue.params.pattern)) : undefined;
  if (text) return `${where} ${text}`;
  return `${where} ${issue.message ?? 'is not valid'}`;
}

/**
 * Errors the HTTP parser meets before there is a request (headers over the size limit, a malformed request line, a
 * client too slow to send its headers): answered with the same envelope as every other error, then the socket closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: import('node:net').Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request line and headers are over the size limit (16 KiB)']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'The request was not received in time']
        : [400, 'Bad Request', 'invalid_request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ ok: false, error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * One error handler for every route: ServiceErrors, validation, body limits, and the unexpected; and the answer to an
 * unmatched request (405 with Allow for a known path, else 404). Register it before the routes.
 */
export function registerErrorHandling(app: FastifyInstance, consolePages?: ConsolePages) {
  const routeMethods = RouteMethods.collect(app);
  app.setErrorHandler((err: FastifyError & { validation?: ValidationIssue[]; validationContext?: string }, req, reply) => {
    // A request that matched no route (a QUERY without a content type fails before the not-found handler) is answered
    // for what it is: a method the path does not take, or a path that does not exist.
    if (req.is404 && !(err instanceof ServiceError)) return unmatched(req, reply);
    if (err instanceof ServiceError) {
      if (err.extra.retryAfter) reply.header('retry-after', String(err.extra.retryAfter));
      if (err.status >= 500) req.log.error({ err }, 'service error');
      return reply.status(err.status).send(errorBody(err));
    }
    if (err.validation?.length) {
      const issue = err.validation[0]!;
      // A conditional write without If-Match (IfMatchHeaders) is 428 Precondition Required (RFC 6585), not 400.
      if (err.validationContext === 'headers' && issue.keyword === 'required' && issue.params.missingProperty === 'if-match') {
        return reply
          .status(428)
          .send(errorBody(new PreconditionError(428, 'This change needs an If-Match header with the ETag you read (or *)')));
      }
      const field = fieldOf(err.validationContext, issue);
      return reply
        .status(400)
        .send({ ok: false, error: { code: 'invalid_request', message: describe(err.validationContext, issue), field } });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'body_too_large'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'unsupported_media_type'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
              ? 'invalid_request'
              : status === 400
                ? 'invalid_request'
                : 'request_refused';
      return reply.status(status).send({ ok: false, error: { code, message: err.message } });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send({
      ok: false,
      error: { code: 'internal', message: 'An unexpected error occurred; the request id is in the x-request-id header' },
    });
  });

  function unmatched(req: FastifyRequest, reply: FastifyReply) {
    const path = req.url.split('?')[0]!;
    const allow = routeMethods.allowed(path);
    if (allow.length) {
      return reply
        .status(405)
        .header('allow', allow.join(', '))
        .send({
          ok: false,
          error: { code: 'method_not_allowed', message: `${req.method} is not allowed on ${path}; it answers ${allow.join(', ')}` },
        });
    }
    return reply.status(404).send({ ok: false, error: { code: 'route_not_found', message: `No route ${req.method} ${path}` } });
  }

  app.setNotFoundHandler((req, reply) => {
    // A console page (GET of /, or of a deep link by a browser) is answered with the console's page.
    const page = req.url === '/' || req.url.startsWith('/?') || (req.headers.accept ?? '').includes('text/html');
    if ((req.method === 'GET' || req.method === 'HEAD') && consolePages && isConsolePath(req.url) && page) {
      return consolePages.send(req, reply);
    }
    return unmatched(req, reply);
  });
}
