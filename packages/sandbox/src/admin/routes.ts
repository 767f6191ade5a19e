import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import type { SwitchName } from '../switches.js';
import type { SandboxAdmin } from './api.js';
import { AdminError } from './grants.js';
import { SEQ_MAX, SINCE_HINT } from './request-log.js';

const bad = (detail: string) => new ServiceError(400, 'InvalidRequest', detail);
/** Request log entries one admin call answers by default, and at most. */
const REQUESTS_PAGE = 1000;
const REQUESTS_PAGE_MAX = 10_000;

/** Runs an admin operation, turning its AdminError into a 400/404 answer. */
async function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AdminError) throw new ServiceError(err.status, err.status === 404 ? 'NotFound' : 'InvalidRequest', err.message);
    throw err;
  }
}

/** The admin API under /_sandbox: faults, latency, request log, state, reset, grants, connections, switches, tokens. */
export function adminService(core: SandboxCore, admin: SandboxAdmin, summary: () => unknown): ServiceModule {
  const router = new Router();
  const json = (ctx: RequestContext) => ctx.json(bad);
  router.get('/_sandbox', () => ({ status: 200, body: summary() }));
  router.get('/_sandbox/faults', async () => ({ status: 200, body: { faults: await admin.faults() } }));
  router.post('/_sandbox/faults', async (ctx) => ({ status: 201, body: await run(async () => admin.addFault(await json(ctx))) }));
  router.delete('/_sandbox/faults', async () => (await admin.clearFaults(), { status: 204 }));
  router.delete('/_sandbox/faults/:id', async (ctx) => {
    if (!(await admin.removeFault(ctx.params.id!))) throw new ServiceError(404, 'NotFound', `no fault rule '${ctx.params.id}'`);
    return { status: 204 };
  });
  router.get('/_sandbox/latency', async () => ({ status: 200, body: { latencyMs: await admin.latency() } }));
  router.put('/_sandbox/latency', async (ctx) => {
    const body = await json(ctx);
    const latencyMs = await run(() =>
      typeof body.service === 'string' ? admin.setLatency(body.service, body.ms) : admin.setLatency(body.latencyMs ?? body),
    );
    return { status: 200, body: { latencyMs } };
  });
  // A page of the request log (headers and bodies included, secrets redacted); `next` is the `since` of the next page.
  router.get('/_sandbox/requests', async (ctx) => {
    const limit = ctx.query('limit') === undefined ? REQUESTS_PAGE : Number(ctx.query('limit'));
    if (!Number.isInteger(limit) || limit < 1 || limit > REQUESTS_PAGE_MAX)
      throw bad(`'limit' must be a whole number from 1 to ${REQUESTS_PAGE_MAX}`);
    const since = ctx.query('since');
    if (since !== undefined && Number(since) > SEQ_MAX) throw bad(SINCE_HINT(Number(since)));
    const requests = await admin.requests({
      service: ctx.query('service') as never,
      since: ctx.query('since'),
      traceId: ctx.query('traceId'),
      limit,
    });
    return { status: 200, body: { requests, ...(requests.length === limit ? { next: requests.at(-1)!.seq } : {}) } };
  });
  router.delete('/_sandbox/requests', async () => (await admin.clearRequests(), { status: 204 }));
  router.get('/_sandbox/in-flight', async () => ({ status: 200, body: { inFlight: await admin.inFlight() } }));
  router.get('/_sandbox/state', async () => ({ status: 200, body: await admin.state() }));
  router.post('/_sandbox/reset', async () => (await admin.reset(), { status: 200, body: { ok: true } }));
  router.post('/_sandbox/grant', async (ctx) => ({ status: 200, body: await run(async () => admin.grant(await json(ctx))) }));
  router.post('/_sandbox/revoke', async (ctx) => ({ status: 200, body: await run(async () => admin.revoke(await json(ctx))) }));
  router.get('/_sandbox/grants', async () => {
    const s = await admin.state();
    return {
      status: 200,
      body: {
        dataPlatform: s.dataPlatform.workspaces.map((w) => ({ workspaceId: w.id, roleAssignments: w.roleAssignments })),
        arm: s.arm.roleAssignments,
        kql: {
          clusterPrincipalAssignments: s.kql.principalAssignments,
          databases: s.kql.databases.map((d) => ({ name: d.name, principals: d.principals })),
        },
        search: s.search.roleAssignments,
        sql: s.sql.databases.filter((d) => !d.attached).map((d) => ({ database: d.name, users: d.users })),
      },
    };
  });
  router.delete('/_sandbox/connections/:id', async (ctx) => {
    if (!(await admin.removeConnection(ctx.params.id!))) throw new ServiceError(404, 'NotFound', `no connection '${ctx.params.id}'`);
    return { status: 204 };
  });
  router.get('/_sandbox/switches', async () => ({ status: 200, body: { switches: await admin.switches() } }));
  router.put('/_sandbox/switches/:name', async (ctx) => {
    const body = await json(ctx);
    return {
      status: 200,
      body: { switches: await run(() => admin.setSwitch(ctx.params.name as SwitchName, 'value' in body ? body.value : body)) },
    };
  });
  router.post('/_sandbox/tokens', async (ctx) => {
    const body = await json(ctx);
    if (typeof body.audience !== 'string')
      throw bad("'audience' is required (a resource URI, or dataPlatform | arm | kql | search | storage)");
    return { status: 200, body: { access_token: await run(() => admin.token(body)), token_type: 'Bearer' } };
  });
  return {
    name: 'identity',
    router,
    errorReply: (err) => ({ status: err.status, body: { error: { code: err.code, message: err.message } } }),
  };
}
