import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import { platformCaller } from './auth.js';
import { fabricError } from './errors.js';
import type { Operation } from './store.js';

const opUrl = (core: SandboxCore, id: string) => `${core.urls.dataPlatform}/v1/operations/${id}`;

/** 202 Accepted for a long-running operation: empty body, Location, x-ms-operation-id, Retry-After. */
export function accepted(core: SandboxCore, op: Operation): Reply {
  return {
    status: 202,
    headers: { location: opUrl(core, op.id), 'x-ms-operation-id': op.id, 'retry-after': core.switches['dataPlatform.retryAfterSeconds'] },
  };
}

type OpStatus = 'NotStarted' | 'Running' | 'Succeeded' | 'Failed';

/** The operation's state now: NotStarted for the first third of its run, then Running, then Succeeded or Failed. */
function operationState(op: Operation, now = Date.now()): { status: OpStatus; percentComplete: number; lastUpdated: number } {
  const span = Math.max(1, op.readyAt - op.createdAt);
  if (now >= op.readyAt) return { status: op.error ? 'Failed' : 'Succeeded', percentComplete: 100, lastUpdated: op.readyAt };
  const elapsed = now - op.createdAt;
  if (elapsed < span / 3) return { status: 'NotStarted', percentComplete: 0, lastUpdated: op.createdAt };
  return { status: 'Running', percentComplete: Math.min(99, Math.round((elapsed / span) * 100)), lastUpdated: now };
}

async function find(core: SandboxCore, ctx: RequestContext): Promise<Operation> {
  const caller = await platformCaller(core, ctx, 'lro');
  const op = core.dataPlatform.operations.get(ctx.params.id!.toLowerCase());
  // Operations are visible only to the identity that started them.
  if (!op || op.ownerId !== caller.objectId) throw fabricError(404, 'OperationNotFound', 'The requested operation was not found');
  return op;
}

/** GET /v1/operations/{id} and /v1/operations/{id}/result. */
export function operationRoutes(core: SandboxCore, router: Router): void {
  for (const prefix of ['/v1/operations', '/operations']) {
    router.get(`${prefix}/:id`, async (ctx) => {
      const op = await find(core, ctx);
      const s = operationState(op);
      // Retry-After on every poll answer, finished or not, as the real service sends it.
      const headers: Record<string, string | number> = {
        'x-ms-operation-id': op.id,
        'retry-after': core.switches['dataPlatform.retryAfterSeconds'],
      };
      if (s.status === 'NotStarted' || s.status === 'Running') headers.location = opUrl(core, op.id);
      else if (s.status === 'Succeeded' && op.result) headers.location = `${opUrl(core, op.id)}/result`;
      const body: Record<string, unknown> = {
        status: s.status,
        createdTimeUtc: new Date(op.createdAt).toISOString(),
        lastUpdatedTimeUtc: new Date(s.lastUpdated).toISOString(),
        percentComplete: s.percentComplete,
      };
      if (s.status === 'Failed' && op.error) {
        body.error = { errorCode: op.error.code, message: op.error.message, requestId: ctx.requestId, ...op.error.extra };
      }
      return { status: 200, headers, body };
    });
    router.get(`${prefix}/:id/result`, async (ctx) => {
      const op = await find(core, ctx);
      const s = operationState(op);
      if (s.status !== 'Succeeded')
        throw fabricError(400, 'OperationNotSucceeded', `The operation ${op.id} has not succeeded (status ${s.status})`);
      if (!op.result) throw fabricError(400, 'OperationHasNoResult', `The operation ${op.id} has no result`);
      return { status: 200, body: op.result() };
    });
  }
}
