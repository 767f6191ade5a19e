import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { activeTraceparent, attributes, tracer } from './spans.js';
import { formatTraceparent } from './traceparent.js';
import { tracingOn } from './tracing.js';

// One HTTP call to a backing service as a client span (OpenTelemetry's HTTP client conventions), and the
// `traceparent` it carries. The pipeline sends only to the cloud's hosts, so the header goes nowhere else.

/** What a call ended with: an answer's status, a failure without one (status 0 and its code), or a redirect followed. */
export type CallEnd = { status: number; code?: string } | { redirectTo: string };

/** A backing call being made: `end` once its answer (or failure) is known. */
export interface BackingCallSpan {
  end(answer: CallEnd): void;
}

const NOTHING: BackingCallSpan = { end: () => undefined };

// Identifiers in a path (GUIDs, numbers, long opaque tokens) become {id}, so a call's name stays one per operation.
const ID_SEGMENT = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|[A-Za-z0-9_=+-]{32,})$/i;

/** The path of a URL with its identifiers as {id}: the call's `url.template` (no query, so no signature or key). */
export function urlTemplate(url: URL): string {
  return url.pathname
    .split('/')
    .map((segment) => (ID_SEGMENT.test(segment) ? '{id}' : segment))
    .join('/');
}

/**
 * Starts the span of one backing call and sets its `traceparent` in `headers`. With tracing off no span is made, and
 * the header carries the trace a request brought, if any.
 */
export function startBackingCall(service: string, method: string, rawUrl: string, headers: Record<string, string>): BackingCallSpan {
  if (!tracingOn()) {
    const traceparent = activeTraceparent();
    if (traceparent) headers.traceparent = traceparent;
    return NOTHING;
  }
  const url = new URL(rawUrl);
  const template = urlTemplate(url);
  const span = tracer().startSpan(`${method} ${template}`, {
    kind: SpanKind.CLIENT,
    attributes: attributes({
      'http.request.method': method,
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      'url.full': `${url.origin}${url.pathname}`,
      'url.template': template,
      'svc.backing.service': service,
    }),
  });
  const traceparent = formatTraceparent(span.spanContext());
  if (traceparent) headers.traceparent = traceparent;
  return { end: (answer) => endCall(span, answer) };
}

function endCall(span: Span, answer: CallEnd): void {
  if ('redirectTo' in answer) span.setAttribute('svc.redirected', true);
  else if (answer.status > 0) {
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 400) {
      span.setAttribute('error.type', String(answer.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  } else {
    span.setAttribute('error.type', answer.code ?? 'network_error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: answer.code });
  }
  span.end();
}
