import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { attributes, contextOf, inSpan } from '../tracing/spans.js';
import type { JobRecord } from './job-rows.js';

/**
 * Runs a claimed job in its span, a child of the request that accepted it (its stored traceparent), whichever process
 * claims it; a job no request started begins a trace of its own.
 */
export function inJobSpan(job: JobRecord, work: (span: Span) => Promise<void>): Promise<void> {
  return inSpan(
    `job ${job.kind}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: attributes({
        'svc.job.id': job.id,
        'svc.job.kind': job.kind,
        'svc.job.attempt': job.attempts,
        'svc.app.id': job.appId,
        'svc.workspace.id': job.workspaceId,
        'svc.tenant_id': job.tenantId,
      }),
    },
    work,
    { parent: contextOf(job.traceParent) },
  );
}

/** What a step's span records of it. */
export interface TracedStep {
  stepIndex: number;
  itemType: string;
  itemKey: string;
}

/** Runs one step of a job in its span; the span records the step's outcome and backend, and fails with the step. */
export function inStepSpan<R extends { status: string; backend?: string }>(step: TracedStep, work: () => Promise<R>): Promise<R> {
  return inSpan(
    `step ${step.itemType}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: attributes({ 'svc.step.index': step.stepIndex, 'svc.item.type': step.itemType, 'svc.item.key': step.itemKey }),
    },
    work,
    {
      outcome: (result, span) => {
        span.setAttributes(attributes({ 'svc.step.outcome': result.status, 'svc.backend': result.backend }));
        if (result.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR });
      },
    },
  );
}
