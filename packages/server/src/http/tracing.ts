import type { FastifyInstance, FastifyRequest } from 'fastify';
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { attributes, contextOf, tracer } from '../tracing/spans.js';
import { tracingOn } from '../tracing/tracing.js';
import { loggableUrl } from './loggable-url.js';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * The span of every request, first of the hooks so that the rest of the request (authentication, the handler, the
 * backing calls and the job it writes) runs inside it. A request with a `traceparent` continues that trace; without
 * one, tracing on starts a new trace. Tracing off makes no span: a caller's trace is passed on as it came, and a
 * request without one costs a header lookup.
 */
export function registerTracing(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const incoming = req.headers.traceparent;
    // Off: the caller's trace, if any, is all there is to pass on (no span of the service's own).
    if (!tracingOn()) return incoming ? context.with(contextOf(incoming), done) : done();
    const parent = contextOf(incoming);
    const route = req.routeOptions.url;
    const span = tracer().startSpan(
      route ? `${req.method} ${route}` : req.method,
      {
        kind: SpanKind.SERVER,
        attributes: attributes({
          'http.request.method': req.method,
          'http.route': route,
          'url.path': loggableUrl(req.url).split('?')[0],
          'url.scheme': req.protocol,
          'client.address': req.ip,
          'svc.request_id': req.id,
        }),
      },
      parent,
    );
    spans.set(req, span);
    context.with(trace.setSpan(parent, span), done);
  });
  const end = (req: FastifyRequest, status: number | undefined) => {
    const span = spans.get(req);
    if (!span) return;
    spans.delete(req);
    if (req.caller) span.setAttribute('svc.tenant_id', req.caller.tenantId);
    if (status === undefined) {
      span.setAttribute('error.type', 'aborted');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection before the answer' });
    } else {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  };
  app.addHook('onResponse', (req, reply, done) => {
    end(req, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    end(req, undefined);
    done();
  });
}
