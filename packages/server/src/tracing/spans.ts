import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  ROOT_CONTEXT,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { formatTraceparent, parseTraceparent } from './traceparent.js';
import { tracingOn } from './tracing.js';

// The few ways the service makes spans: around a unit of work (a job, a step), and around one call to a backing
// service. With tracing off each is a check and a call of the work itself.

const TRACER = 'analytics-workspace-service';
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** The tracer of the moment (not kept: tracing may be stopped and started again in one process, as tests do). */
export const tracer = () => trace.getTracer(TRACER);

/** The `traceparent` of the work running now (a request's or a job's span), to be kept with what outlives it (a job). */
export function activeTraceparent(): string | undefined {
  return formatTraceparent(trace.getSpanContext(context.active()));
}

/** A context whose parent is the span a `traceparent` names (a request's header, a job's stored one); the root without one. */
export function contextOf(traceparent: string | string[] | null | undefined): Context {
  const parent = parseTraceparent(traceparent);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
}

/** Runs `work` outside any trace (background work started from inside a request that is not that request's). */
export function detached<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}

/** The trace and span ids of the work running now, for a log line (none outside a trace). */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpanContext(context.active());
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** Marks a span failed with the error's name and message (never a token: backing errors carry no credentials). */
export function failSpan(span: Span, error: unknown, type?: string): void {
  const e = error instanceof Error ? error : new Error(String(error));
  span.setAttribute('error.type', type ?? ((e as { code?: string }).code || e.name));
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message.slice(0, 500) });
}

/**
 * Runs `work` in a new span, a child of `parent` (default: the work running now), and ends it; `outcome` adds what the
 * result says. A throw marks the span failed and is rethrown. With tracing off the work runs as is, under `parent`
 * when one is given, so a trace that came with a request still reaches the backing calls.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
  extra: { parent?: Context; outcome?: (result: T, span: Span) => void } = {},
): Promise<T> {
  if (!tracingOn()) return extra.parent ? context.with(extra.parent, () => work(NO_SPAN)) : work(NO_SPAN);
  const parent = extra.parent ?? context.active();
  const span = tracer().startSpan(name, options, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), () => work(span));
    extra.outcome?.(result, span);
    return result;
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** Attributes without the unset ones (the API refuses undefined values). */
export function attributes(values: Record<string, string | number | boolean | undefined | null>): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
