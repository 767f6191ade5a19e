import type { PrettyOptions } from 'pino-pretty';

/** The fields a request's log lines carry (Fastify's request logging and the req serializer of app.ts). */
interface RequestFields {
  msg?: unknown;
  reqId?: unknown;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: unknown;
}

/** One line a request event: the message, method and path, status, time taken and request id; other fields follow it. */
export function requestLine(log: RequestFields): string {
  const parts = [String(log.msg ?? '')];
  if (log.req?.method) parts.push(`${log.req.method} ${log.req.url ?? ''}`);
  if (log.res?.statusCode) parts.push(String(log.res.statusCode));
  if (typeof log.responseTime === 'number') parts.push(`${log.responseTime.toFixed(1)} ms`);
  if (typeof log.reqId === 'string') parts.push(`[${log.reqId}]`);
  return parts.join(' ');
}

/**
 * The log stream of SVC_LOG_FORMAT=pretty: pino's lines formatted for a person at a terminal (time, level, one line per
 * request event; errors and other fields below it). pino-pretty is loaded only then.
 */
export async function prettyLogStream(): Promise<{ write(line: string): void }> {
  const { default: pretty } = await import('pino-pretty');
  const options: PrettyOptions = {
    sync: true, // a line is on the terminal before the process exits
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (log) => requestLine(log as RequestFields),
  };
  return pretty(options);
}
