import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { ServiceName } from '../types.js';
import type { RequestLog } from '../admin/request-log.js';
import type { Faults } from '../admin/faults.js';
import { RequestContext, type Reply } from './context.js';
import { captureBody } from '../admin/logged-body.js';
import { ServiceError, defaultCode, defaultMessage } from './errors.js';
import type { Router } from './router.js';

/** One emulated service: its routes and how it words an error. */
export interface ServiceModule {
  name: ServiceName;
  router: Router;
  /** The service's real error body (and headers) for an error. */
  errorReply(err: ServiceError, ctx: RequestContext): Reply;
  /** Headers every answer carries (request ids and the like). */
  commonHeaders?(ctx: RequestContext): Record<string, string>;
  /** The error for a path no route knows. */
  notFound?(ctx: RequestContext): ServiceError;
  /** The service's own error code for a status (fault rules that name none). */
  faultCode?(status: number): string;
  /** JSON body fields the service holds secret beyond the names the log always redacts (a vault's `value`). */
  secretFields?: readonly string[];
}

/** What every server shares: the request log, the fault rules and the latency setting. */
export interface ServerHooks {
  log: RequestLog;
  faults: Faults;
  latencyMs(service: ServiceName): number;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long the log waits for a body still arriving after the answer went out. */
const BODY_WAIT_MS = 2000;

/** Sends a reply unless the client went away meanwhile. */
export function send(ctx: RequestContext, reply: Reply, extra: Record<string, string> = {}): void {
  const res = ctx.res;
  if (res.writableEnded || res.destroyed || ctx.req.socket.destroyed) return;
  const headers: Record<string, string | number> = { ...extra, ...reply.headers };
  let payload: string | Buffer | undefined = reply.raw;
  if (payload === undefined && reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= reply.contentType ?? 'application/json; charset=utf-8';
  } else if (payload !== undefined && reply.contentType) headers['content-type'] = reply.contentType;
  if (payload !== undefined) headers['content-length'] = Buffer.byteLength(payload);
  else if (reply.status !== 204 && reply.status !== 304) headers['content-length'] = 0;
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** Runs a request through latency, fault rules, the router and the service's error wording, and logs it. */
export async function handle(module: ServiceModule, hooks: ServerHooks, ctx: RequestContext): Promise<void> {
  const started = performance.now();
  const entry = hooks.log.begin(module.name, ctx.method, ctx.pathWithQuery, { host: ctx.req.headers.host, headers: ctx.req.headers });
  // Read from the start, so the log has the body even when a fault answers before a handler would have read it.
  let received: Buffer | undefined;
  const reading = ctx.body().then(
    (b) => {
      received = b;
    },
    () => undefined,
  );
  let reply: Reply;
  try {
    const latency = hooks.latencyMs(module.name);
    if (latency > 0) await sleep(latency);
    const fault = hooks.faults.match(module.name, ctx.method, ctx.pathWithQuery);
    if (fault) entry.fault = fault.id;
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.reset) {
      const socket = ctx.req.socket as Socket & { resetAndDestroy?: () => void };
      if (socket.resetAndDestroy) socket.resetAndDestroy();
      else socket.destroy();
      logBody(hooks, module, ctx, entry, received);
      hooks.log.finish(entry, 0, started);
      return;
    }
    if (fault?.status) {
      const retry: Record<string, string> = fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
      if (fault.body !== undefined) {
        reply = { status: fault.status, raw: fault.body, contentType: 'application/json; charset=utf-8', headers: retry };
      } else {
        const err = new ServiceError(
          fault.status,
          fault.errorCode ?? module.faultCode?.(fault.status) ?? defaultCode(fault.status),
          fault.message ?? defaultMessage(fault.status),
          {},
          retry,
        );
        reply = module.errorReply(err, ctx);
      }
    } else {
      const handler = module.router.match(ctx);
      if (handler === 'method')
        throw new ServiceError(405, 'MethodNotAllowed', `The requested method ${ctx.method} is not allowed for ${ctx.path}.`);
      if (!handler) throw module.notFound?.(ctx) ?? new ServiceError(404, 'NotFound', `No route for ${ctx.method} ${ctx.path}.`);
      reply = await handler(ctx);
    }
  } catch (err) {
    const e =
      err instanceof ServiceError
        ? err
        : new ServiceError(500, 'InternalServerError', `The sandbox failed: ${(err as Error).stack ?? err}`);
    reply = module.errorReply(e, ctx);
  }
  send(ctx, reply, module.commonHeaders?.(ctx));
  // An answer sent before the body was read (a 404, a fault) still logs the body, once it has arrived.
  const sending = ctx.req.headers['content-length']
    ? ctx.req.headers['content-length'] !== '0'
    : ctx.req.headers['transfer-encoding'] !== undefined;
  if (!received && (ctx.req.complete || sending)) await Promise.race([reading, sleep(BODY_WAIT_MS)]);
  logBody(hooks, module, ctx, entry, received);
  hooks.log.finish(entry, reply.status, started, ctx.identity ?? bearerOid(ctx));
}

/** Puts the request's body (and the statement a handler named) into its log entry. */
function logBody(
  hooks: ServerHooks,
  module: ServiceModule,
  ctx: RequestContext,
  entry: ReturnType<RequestLog['begin']>,
  body: Buffer | undefined,
): void {
  hooks.log.detail(entry, {
    body: body && captureBody(body, ctx.header('content-type'), { secretFields: module.secretFields }),
    text: ctx.logText,
  });
}

/** The object id a bearer token names, unverified: the log shows who called even when a fault answered first. */
function bearerOid(ctx: RequestContext): string | undefined {
  const m = /^Bearer\s+[^.]+\.([^.]+)\./i.exec(ctx.header('authorization') ?? '');
  if (!m) return undefined;
  try {
    const oid = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')).oid;
    return typeof oid === 'string' ? oid : undefined;
  } catch {
    return undefined;
  }
}

/** The key and certificate (PEM) a server answers https with. */
export interface ServerTls {
  key: string;
  cert: string;
}

/** Listens on a loopback port chosen by the OS; https when given a key and certificate. */
export function listen(
  host: string,
  onRequest: (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void,
  opts: { unref?: boolean; tls?: ServerTls } = {},
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let base = '';
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => onRequest(req, res, base);
    const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
    server.keepAliveTimeout = 5_000;
    if (opts.unref) server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      base = `${opts.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
      resolve({
        url: base,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Starts the server of one emulated service. */
export function startService(module: ServiceModule, hooks: ServerHooks, host: string, tls?: ServerTls): Promise<RunningServer> {
  return listen(
    host,
    (req, res, base) => {
      void handle(module, hooks, new RequestContext(req, res, base));
    },
    { tls },
  );
}

/** Starts a server that only routes (no log, faults or latency): the admin API. */
export function startPlain(module: ServiceModule, host: string, tls?: ServerTls): Promise<RunningServer> {
  return listen(
    host,
    (req, res, base) => {
      const ctx = new RequestContext(req, res, base);
      void (async () => {
        let reply: Reply;
        try {
          const handler = module.router.match(ctx);
          if (handler === 'method') throw new ServiceError(405, 'MethodNotAllowed', `${ctx.method} is not allowed on ${ctx.path}`);
          if (!handler) throw new ServiceError(404, 'NotFound', `No admin route ${ctx.method} ${ctx.path}`);
          reply = await handler(ctx);
        } catch (err) {
          reply = module.errorReply(
            err instanceof ServiceError ? err : new ServiceError(500, 'InternalServerError', String((err as Error).stack ?? err)),
            ctx,
          );
        }
        send(ctx, reply);
      })();
    },
    { tls },
  );
}
