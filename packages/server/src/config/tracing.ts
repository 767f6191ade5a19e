import { ConfigError, int, list, type Section, text, url, type Values, WEB } from './setting.js';

/** One `name=value` entry of OTEL_EXPORTER_OTLP_HEADERS (the value percent-decoded, as the OTLP exporter spec says). */
function header(entry: string): [string, string] {
  const eq = entry.indexOf('=');
  const name = eq > 0 ? entry.slice(0, eq).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new ConfigError('OTEL_EXPORTER_OTLP_HEADERS', 'must be name=value pairs separated by commas (a header name before each =)');
  try {
    return [name.toLowerCase(), decodeURIComponent(entry.slice(eq + 1).trim())];
  } catch {
    throw new ConfigError('OTEL_EXPORTER_OTLP_HEADERS', `the value of ${name} is not valid percent-encoding`);
  }
}

/** Tracing: where spans are exported (none by default), what the service is called there, how many traces are kept. */
export const TRACING = {
  otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', WEB, {
    meaning:
      'turns tracing on: the OTLP/HTTP collector the spans go to (JSON, at `<endpoint>/v1/traces`), e.g. `http://localhost:4318`; unset: no spans are made or exported (see [Tracing](#tracing))',
  }),
  otlpTracesEndpoint: url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', WEB, {
    meaning: 'the full URL spans are posted to, when the collector does not take them at `<endpoint>/v1/traces`; also turns tracing on',
  }),
  otlpHeaders: list('OTEL_EXPORTER_OTLP_HEADERS', header, {
    meaning: "`name=value,…` (values percent-encoded) sent with every export, e.g. a collector's API key",
  }),
  serviceName: text('OTEL_SERVICE_NAME', { fallback: 'analytics-workspace-service', meaning: '`service.name` of every span' }),
  samplePercent: int(
    'SVC_TRACE_SAMPLE_PERCENT',
    100,
    0,
    100,
    'share of new traces recorded (by trace id); a request whose `traceparent` says sampled or not is followed as it says, and a job follows the request that started it',
  ),
} satisfies Section;

/** The tracing settings as read. */
export type TracingConfig = Values<typeof TRACING>;

/** Where spans go: the OTLP traces URL; none: tracing is off. */
export function traceExport(c: TracingConfig): { otlpUrl?: string } {
  const otlpUrl = c.otlpTracesEndpoint ?? (c.otlpEndpoint ? `${c.otlpEndpoint}/v1/traces` : undefined);
  return otlpUrl ? { otlpUrl } : {};
}
