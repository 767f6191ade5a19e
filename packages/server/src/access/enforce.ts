import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/caller.js';
import { NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { type AccessService, isTenantAdmin, outsideLimit } from './access-service.js';

const field = (part: unknown, name: string): string | undefined => {
  const v = (part as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : undefined;
};

/** The workspace a request addresses by id: params, then query, then body. */
function requestWorkspace(req: FastifyRequest): string | undefined {
  return field(req.params, 'workspaceId') ?? field(req.query, 'workspaceId') ?? field(req.body, 'workspaceId');
}

/**
 * The one enforcement of workspace roles: a route's `config.role` is checked after validation (params, query and body
 * are parsed) against the workspace the request addresses, or the one its job ran in.
 */
export function registerWorkspaceAccess(app: FastifyInstance, deps: { access: AccessService; db: Db }) {
  app.addHook('preHandler', (req, _reply, done) => {
    let reading: Promise<void> | undefined;
    try {
      reading = check(req, deps);
    } catch (err) {
      return done(err as Error);
    }
    if (!reading) return done();
    reading.then(() => done(), done);
  });
}

/** Checks the request's role: at once when the caller's roles there are kept (undefined), else a promise of reading them. */
function check(req: FastifyRequest, deps: { access: AccessService; db: Db }): Promise<void> | undefined {
  const { config, url } = req.routeOptions;
  const { role, workspaceOf = 'request' } = config;
  const caller = req.caller;
  if (!role || !caller) return undefined;
  if (workspaceOf === 'job') {
    const what = url?.startsWith('/api/apps/install-jobs') ? 'Install job' : 'Job';
    return requireForJob(deps, req, caller, field(req.params, 'jobId'), role, what);
  }
  const workspaceId = requestWorkspace(req);
  if (workspaceId === undefined) {
    if (workspaceOf === 'optional') return undefined;
    throw new Error(`route ${url} names a role but no workspace id`);
  }
  // An operation writing into a second workspace (a report's clone) needs the same role there.
  const target = field(req.body, 'targetWorkspaceId');
  const workspaces = target !== undefined && target !== workspaceId ? [workspaceId, target] : [workspaceId];
  if (workspaces.every((id) => deps.access.requireKept(caller, id, role))) return undefined;
  return (async () => {
    for (const id of workspaces) await deps.access.require(caller, id, role);
  })();
}

/**
 * A job's workspace decides: unknown jobs are left to the route (its own 404). A job whose workspace was deleted
 * (a forced workspace delete ends so) stays readable by the user who started it and by tenant admins.
 */
async function requireForJob(
  deps: { access: AccessService; db: Db },
  req: FastifyRequest,
  caller: Caller,
  jobId: string | undefined,
  role: Parameters<AccessService['require']>[2],
  what: string,
): Promise<void> {
  if (!jobId) throw new Error('a job route without a jobId parameter');
  const found = await deps.db
    .selectFrom('install_jobs')
    .leftJoin('workspaces', 'workspaces.id', 'install_jobs.workspace_id')
    .selectAll('install_jobs')
    .select('workspaces.id as live')
    .where('install_jobs.id', '=', jobId)
    .where('install_jobs.tenant_id', '=', caller.tenantId)
    .executeTakeFirst();
  if (!found) return;
  const { live, ...job } = found;
  if (!live && role === 'Viewer' && !outsideLimit(caller, job.workspace_id)) {
    if (isTenantAdmin(caller) || job.created_by === caller.userId) {
      req.job = job;
      return;
    }
  }
  await deps.access.require(caller, job.workspace_id, role).catch((err: unknown) => {
    // The job, not the workspace, is what the caller named.
    if ((err as { status?: number }).status === 404) throw new NotFoundError(what, jobId);
    throw err;
  });
  req.job = job;
}
