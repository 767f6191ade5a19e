import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type TracingConfig, traceExport } from '../config/tracing.js';

// The process's tracing: the context manager (always, so that a request's `traceparent` reaches the backing calls it
// makes), and the SDK with its exporters only when one is configured. Without an exporter the SDK is never loaded: the
// API's no-op tracer answers, and the hooks skip their work (spans.ts).

interface Provider {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

let provider: Provider | undefined;
let contextManager: AsyncLocalStorageContextManager | undefined;

/** Whether spans are recorded and exported in this process. */
export const tracingOn = (): boolean => provider !== undefined;

/** Registers the context manager once per process (it stays: every app of the process shares the API's globals). */
function ensureContextManager(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

/** What the process's tracing started: `stop` exports what is left and turns the SDK off again. */
export interface Tracing {
  readonly on: boolean;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts tracing as configured: with `OTEL_EXPORTER_OTLP_ENDPOINT` (or `_TRACES_ENDPOINT`), a tracer provider whose
 * batches go to that collector, sampled parent-first; otherwise nothing but the context manager.
 */
export async function startTracing(settings: TracingConfig, attributes: Record<string, string> = {}): Promise<Tracing> {
  ensureContextManager();
  const { otlpUrl } = traceExport(settings);
  if (!otlpUrl) return { on: false, flush: async () => undefined, stop: async () => undefined };
  if (provider) throw new Error('tracing is already started in this process');
  const [sdk, resources, otlp] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const exporter = new otlp.OTLPTraceExporter({ url: otlpUrl, headers: Object.fromEntries(settings.otlpHeaders) });
  const root = settings.samplePercent === 100 ? new sdk.AlwaysOnSampler() : new sdk.TraceIdRatioBasedSampler(settings.samplePercent / 100);
  const started = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': settings.serviceName,
      'service.instance.id': randomUUID(),
      'host.name': os.hostname(),
      'process.pid': process.pid,
      ...attributes,
    }),
    sampler: new sdk.ParentBasedSampler({ root }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  trace.setGlobalTracerProvider(started);
  provider = started;
  return {
    on: true,
    flush: () => started.forceFlush(),
    async stop() {
      if (provider !== started) return;
      provider = undefined;
      trace.disable();
      await started.shutdown();
    },
  };
}
