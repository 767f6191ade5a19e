import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import type { Router } from '../http/router.js';
import { platformCaller, requireRole, workspaceOf } from './auth.js';
import { fabricError, invalidInput } from './errors.js';
import { acceptsJob } from './item-types.js';
import { itemOf, typeOfCollection } from './items-routes.js';
import { page } from './paging.js';
import type { Item, JobInstance, Workspace } from './store.js';

const JOB_ALIASES: Record<string, string> = {
  dataPipelines: 'Pipeline',
  notebooks: 'RunNotebook',
  lakehouses: 'TableMaintenance',
  sparkJobDefinitions: 'sparkjob',
};

function jobUrl(core: SandboxCore, job: JobInstance) {
  return `${core.urls.dataPlatform}/v1/workspaces/${job.workspaceId}/items/${job.itemId}/jobs/instances/${job.id}`;
}

function jobJson(core: SandboxCore, job: JobInstance) {
  const status = core.dataPlatform.jobStatus(job);
  const done = status === 'Completed' || status === 'Failed' || status === 'Cancelled';
  return {
    id: job.id,
    itemId: job.itemId,
    jobType: job.jobType,
    invokeType: 'Manual',
    status,
    rootActivityId: job.rootActivityId,
    startTimeUtc: status === 'NotStarted' ? null : new Date(job.startAt).toISOString(),
    endTimeUtc: done ? new Date(Math.min(job.endAt, job.cancelledAt ?? job.endAt)).toISOString() : null,
    failureReason: status === 'Failed' ? { requestId: job.rootActivityId, ...job.failureReason } : null,
  };
}

/** A pipeline fails when one of its activities names a notebook or pipeline that is not in the workspace. */
function pipelineFailure(ws: Workspace, item: Item): JobInstance['failureReason'] {
  const part = item.definition?.parts.find((p) => p.path === 'pipeline-content.json');
  if (!part) return undefined;
  const activities: any[] = JSON.parse(Buffer.from(part.payload, 'base64').toString('utf8'))?.properties?.activities ?? [];
  for (const a of activities) {
    const ref = a?.typeProperties?.notebookId ?? a?.typeProperties?.pipelineId;
    const target = typeof ref === 'string' ? ws.items.get(ref.toLowerCase()) : undefined;
    if (typeof ref === 'string' && (!target || target.deletedAt)) {
      return {
        errorCode: 'JobInstanceStatusFailed',
        message: `Activity '${a.name}' failed: the item '${ref}' it runs was not found in workspace ${ws.id}`,
      };
    }
  }
  return undefined;
}

async function run(core: SandboxCore, ctx: RequestContext, jobType: string | undefined): Promise<Reply> {
  const caller = await platformCaller(core, ctx, 'jobs');
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, 'Contributor');
  const item = itemOf(core, ws, ctx.params.id!, typeOfCollection(ctx.params.collection));
  if (!jobType) throw invalidInput('jobType', 'The jobType query parameter is required');
  if (!acceptsJob(item.type, jobType))
    throw fabricError(400, 'InvalidJobType', `The job type '${jobType}' is not supported for items of type ${item.type}`);
  const text = await ctx.text();
  if (text.trim()) {
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      throw fabricError(400, 'InvalidRequest', 'The request body is not valid JSON');
    }
    if (
      body.parameters !== undefined &&
      (!Array.isArray(body.parameters) || body.parameters.some((p: any) => typeof p?.name !== 'string'))
    ) {
      throw invalidInput('parameters', 'must be an array of {name, value, type}');
    }
  }
  const now = Date.now();
  const span = core.switches['dataPlatform.jobMs'];
  const job: JobInstance = {
    id: core.idSource.next('job'),
    workspaceId: ws.id,
    itemId: item.id,
    jobType,
    createdAt: now,
    startAt: now + span / 4,
    endAt: now + span,
    rootActivityId: core.idSource.next('activity'),
    failureReason: item.type === 'DataPipeline' ? pipelineFailure(ws, item) : undefined,
  };
  core.dataPlatform.jobs.set(job.id, job);
  return { status: 202, headers: { location: jobUrl(core, job), 'retry-after': core.switches['dataPlatform.retryAfterSeconds'] } };
}

async function jobOf(core: SandboxCore, ctx: RequestContext, needed: 'Viewer' | 'Contributor') {
  const caller = await platformCaller(core, ctx, 'jobs');
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, needed);
  const item = itemOf(core, ws, ctx.params.id!, typeOfCollection(ctx.params.collection));
  const job = core.dataPlatform.jobs.get(ctx.params.job!.toLowerCase());
  if (!job || job.itemId !== item.id) throw fabricError(404, 'ItemJobInstanceNotFound', 'The requested job instance was not found');
  return job;
}

/** On-demand job instances: run (both path forms and the typed execute routes), get, list, cancel. */
export function jobRoutes(core: SandboxCore, router: Router): void {
  const item = '/v1/workspaces/:ws/items/:id/jobs';
  router.post(`${item}/instances`, (ctx) => run(core, ctx, ctx.query('jobType')));
  router.get(`${item}/instances`, async (ctx) => {
    const caller = await platformCaller(core, ctx, 'jobs');
    const ws = workspaceOf(core, ctx.params.ws!);
    requireRole(ws, caller, 'Viewer');
    const it = itemOf(core, ws, ctx.params.id!);
    const jobs = [...core.dataPlatform.jobs.values()].filter((j) => j.itemId === it.id).map((j) => jobJson(core, j));
    return {
      status: 200,
      body: page(
        ctx,
        jobs,
        core.switches['dataPlatform.pageSize'],
        `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/items/${it.id}/jobs/instances`,
        `${it.id}|jobs`,
      ),
    };
  });
  router.get(`${item}/instances/:job`, async (ctx) => ({ status: 200, body: jobJson(core, await jobOf(core, ctx, 'Viewer')) }));
  router.post(`${item}/instances/:job/cancel`, async (ctx) => {
    const job = await jobOf(core, ctx, 'Contributor');
    const status = core.dataPlatform.jobStatus(job);
    if (status !== 'NotStarted' && status !== 'InProgress')
      throw fabricError(400, 'JobAlreadyCompleted', `The job instance ${job.id} has already completed (${status})`);
    job.cancelledAt = Date.now();
    return { status: 202, headers: { location: jobUrl(core, job), 'retry-after': core.switches['dataPlatform.retryAfterSeconds'] } };
  });
  router.post(`${item}/:jobType/instances`, (ctx) => run(core, ctx, ctx.params.jobType));
  const typed = '/v1/workspaces/:ws/:collection/:id/jobs';
  router.post(`${typed}/execute/instances`, (ctx) => run(core, ctx, JOB_ALIASES[ctx.params.collection!] ?? 'DefaultJob'));
  router.post(`${typed}/tableMaintenance/instances`, (ctx) => run(core, ctx, 'TableMaintenance'));
  router.get(`${typed}/execute/instances/:job`, async (ctx) => ({ status: 200, body: jobJson(core, await jobOf(core, ctx, 'Viewer')) }));
}
