import { SpanKind } from '@opentelemetry/api';
import { attributes, inSpan } from './spans.js';

// A login or a T-SQL batch sent over TDS as a client span (OpenTelemetry's database conventions). TDS has no header to
// carry a `traceparent`, so the trace ends at the service's span; the statement's text stays out (seed rows are data).

/** The first keyword of a batch (CREATE, INSERT, IF …), the operation a span is named by. */
export function operationOf(sql: string): string {
  return /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'BATCH';
}

/** Runs one login (`sql` = 'LOGIN') or batch on an endpoint inside its span; a SQL error's number becomes the span's status code. */
export function tdsCall<T>(endpoint: { host: string; port: number; database: string }, sql: string, run: () => Promise<T>): Promise<T> {
  const operation = sql === 'LOGIN' ? 'LOGIN' : operationOf(sql);
  return inSpan(
    `${operation} ${endpoint.database}`,
    {
      kind: SpanKind.CLIENT,
      attributes: attributes({
        'db.system.name': 'microsoft.sql_server',
        'db.namespace': endpoint.database,
        'db.operation.name': operation,
        'server.address': endpoint.host,
        'server.port': endpoint.port,
      }),
    },
    async (span) => {
      try {
        return await run();
      } catch (err) {
        // A SqlError's code is its number too, so the span's error.type is the server's error number.
        const number = (err as { number?: unknown }).number;
        if (typeof number === 'number') span.setAttribute('db.response.status_code', String(number));
        throw err;
      }
    },
  );
}
