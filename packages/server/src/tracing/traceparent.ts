import { isSpanContextValid, type SpanContext, TraceFlags } from '@opentelemetry/api';

// The W3C Trace Context `traceparent` header (version 00): what a request brings, what a job keeps in the store, and
// what every backing call carries. Written here rather than with the SDK's propagator so that reading and sending it
// costs nothing to load when tracing is off.

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The span context a `traceparent` names, or undefined when it is absent or malformed (the trace then starts here). */
export function parseTraceparent(header: string | string[] | null | undefined): SpanContext | undefined {
  if (typeof header !== 'string') return undefined;
  const m = TRACEPARENT.exec(header.trim());
  // Version ff is invalid; version 00 has exactly four fields; a later version may add fields after them.
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return undefined;
  const context: SpanContext = {
    traceId: m[2]!,
    spanId: m[3]!,
    traceFlags: Number.parseInt(m[4]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(context) ? context : undefined;
}

/** The `traceparent` header of a span context (undefined for the invalid context of no trace). */
export function formatTraceparent(context: SpanContext | undefined): string | undefined {
  if (!context || !isSpanContextValid(context)) return undefined;
  return `00-${context.traceId}-${context.spanId}-0${(context.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}
