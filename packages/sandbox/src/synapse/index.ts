import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { checkBody, checkName, checkNotReferenced, checkReferences, KINDS } from './artifacts.js';
import { authorizeSynapse, checkApiVersion } from './auth.js';
import { ARTIFACT_KINDS, type Artifact, type ArtifactKind, type ArtifactOperation } from './store.js';

const notFound = (kind: ArtifactKind, name: string) =>
  new ServiceError(404, 'NotFound', `The ${KINDS[kind].singular} '${name}' was not found in the workspace.`);

/** An artifact as the service answers it (the resource envelope around its properties). */
function resourceOf(core: SandboxCore, a: Artifact) {
  const ws = core.synapse.workspace;
  return {
    id: `/subscriptions/${core.ids.subscriptionId}/resourceGroups/${core.ids.resourceGroup}/providers/Microsoft.Synapse/workspaces/${ws}/${a.kind}/${a.name}`,
    name: a.name,
    type: KINDS[a.kind].type,
    etag: a.etag,
    properties: a.properties,
  };
}

/**
 * Where an operation is followed: notebooks have their own operation results path (notebooks.json); the other artifacts
 * answer `/operationResults/{id}`, as the service's recorded answers show.
 */
const locationOf = (ctx: RequestContext, op: ArtifactOperation, v: string) =>
  `${ctx.origin}/${op.kind === 'notebooks' ? 'notebookOperationResults' : 'operationResults'}/${op.id}?api-version=${v}`;

/** The 202 of a long-running PUT or DELETE: the artifact's state and the operation to follow. */
function accepted(core: SandboxCore, ctx: RequestContext, op: ArtifactOperation, v: string, state: string): Reply {
  return {
    status: 202,
    headers: { location: locationOf(ctx, op, v), 'retry-after': core.switches['synapse.retryAfterSeconds'] },
    body: { recordId: 0, state, name: op.name, type: KINDS[op.kind].type.split('/').pop(), operationId: op.id },
  };
}

async function put(core: SandboxCore, ctx: RequestContext, kind: ArtifactKind): Promise<Reply> {
  const v = checkApiVersion(ctx);
  await authorizeSynapse(core, ctx, 'write');
  const name = ctx.params.name!;
  checkName(kind, name);
  const body = await ctx.json((d) => new ServiceError(400, 'BadRequest', d));
  checkBody(kind, body);
  if (body.name !== undefined && String(body.name).toLowerCase() !== name.toLowerCase())
    throw new ServiceError(400, 'BadRequest', `The name '${body.name}' in the body does not match '${name}' in the URL.`, {
      target: 'name',
    });
  const store = core.synapse;
  const existing = store.get(kind, name);
  const ifMatch = ctx.header('if-match');
  if (ifMatch && ifMatch !== '*' && ifMatch !== existing?.etag)
    throw new ServiceError(412, 'PreconditionFailed', `The etag '${ifMatch}' does not match the ${KINDS[kind].singular}'s current etag.`);
  if (store.pending(kind, name))
    throw new ServiceError(
      409,
      'Conflict',
      `Another operation on ${KINDS[kind].singular} '${name}' is in progress. Retry when it has finished.`,
    );
  checkReferences(store, kind, name, body.properties ?? {});
  const op = store.begin(
    { kind, name: existing?.name ?? name, action: 'put', properties: body.properties },
    core.switches['synapse.lroMs'],
  );
  return accepted(core, ctx, op, v, existing ? 'Updating' : 'Creating');
}

async function remove(core: SandboxCore, ctx: RequestContext, kind: ArtifactKind): Promise<Reply> {
  const v = checkApiVersion(ctx);
  await authorizeSynapse(core, ctx, 'write');
  const store = core.synapse;
  const existing = store.get(kind, ctx.params.name!);
  // An artifact that does not exist is deleted already: No Content, as the service answers.
  if (!existing) return { status: 204 };
  if (store.pending(kind, existing.name))
    throw new ServiceError(
      409,
      'Conflict',
      `Another operation on ${KINDS[kind].singular} '${existing.name}' is in progress. Retry when it has finished.`,
    );
  checkNotReferenced(store, kind, existing.name);
  const op = store.begin({ kind, name: existing.name, action: 'delete' }, core.switches['synapse.lroMs']);
  return accepted(core, ctx, op, v, 'Deleting');
}

async function get(core: SandboxCore, ctx: RequestContext, kind: ArtifactKind): Promise<Reply> {
  checkApiVersion(ctx);
  await authorizeSynapse(core, ctx, 'read');
  const a = core.synapse.get(kind, ctx.params.name!);
  if (!a) throw notFound(kind, ctx.params.name!);
  if (ctx.header('if-none-match') && (ctx.header('if-none-match') === '*' || ctx.header('if-none-match') === a.etag))
    return { status: 304 };
  return { status: 200, headers: { etag: a.etag }, body: resourceOf(core, a) };
}

/** A page of a collection; `nextLink` carries the position of the next page while there is one. */
async function list(core: SandboxCore, ctx: RequestContext, kind: ArtifactKind): Promise<Reply> {
  const v = checkApiVersion(ctx);
  await authorizeSynapse(core, ctx, 'read');
  core.synapse.settle();
  const all = [...core.synapse.artifacts[kind].values()].sort((a, b) => a.name.localeCompare(b.name));
  const size = core.switches['synapse.pageSize'];
  const from = Number(ctx.query('continuationToken') ?? 0);
  if (!Number.isInteger(from) || from < 0) throw new ServiceError(400, 'BadRequest', 'The continuation token is invalid.');
  const page = all.slice(from, from + size);
  const more = from + size < all.length;
  return {
    status: 200,
    body: {
      value: page.map((a) => resourceOf(core, a)),
      ...(more ? { nextLink: `${ctx.origin}/${kind}?api-version=${v}&continuationToken=${from + size}` } : {}),
    },
  };
}

/** An operation's status: 202 InProgress while it runs, then 200 with the artifact (a PUT) or empty (a DELETE). */
async function operation(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const v = checkApiVersion(ctx);
  await authorizeSynapse(core, ctx, 'read');
  core.synapse.settle();
  const op = core.synapse.operations.get(ctx.params.id!);
  if (!op) throw new ServiceError(404, 'OperationNotFound', `The operation '${ctx.params.id}' was not found.`);
  if (!op.done)
    return {
      status: 202,
      headers: { location: locationOf(ctx, op, v), 'retry-after': core.switches['synapse.retryAfterSeconds'] },
      body: { status: 'InProgress' },
    };
  if (op.action === 'delete') return { status: 200 };
  const a = core.synapse.get(op.kind, op.name);
  return a ? { status: 200, body: resourceOf(core, a) } : { status: 200 };
}

/** The Synapse workspace development endpoint: notebooks, pipelines, linked services and datasets (artifacts API 2020-12-01). */
export function synapseService(core: SandboxCore): ServiceModule {
  const router = new Router();
  for (const kind of ARTIFACT_KINDS) {
    router.get(`/${kind}`, (ctx) => list(core, ctx, kind));
    router.put(`/${kind}/:name`, (ctx) => put(core, ctx, kind));
    router.get(`/${kind}/:name`, (ctx) => get(core, ctx, kind));
    router.delete(`/${kind}/:name`, (ctx) => remove(core, ctx, kind));
  }
  router.get('/notebookOperationResults/:id', (ctx) => operation(core, ctx));
  router.get('/operationResults/:id', (ctx) => operation(core, ctx));
  return {
    name: 'synapse',
    router,
    // CloudError (synapse-artifacts/common/v1/types.json).
    errorReply: (err) => ({
      status: err.status,
      body: { error: { code: err.code || 'Error', message: err.message, ...err.extra } },
      headers: { ...err.headers },
    }),
    commonHeaders: (ctx) => ({ 'x-ms-request-id': ctx.requestId }),
    notFound: (ctx) => new ServiceError(404, 'NotFound', `The requested resource '${ctx.path}' was not found.`),
  };
}
