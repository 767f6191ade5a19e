import type { Db } from '../store/db.js';
import type { NamedLocks } from '../store/named-locks.js';
import { provisionUnderLiveLock } from '../provisioning/live-lock.js';
import { JobLists } from '../provisioning/job-lists.js';
import type { Catalog, CatalogItem, CuratedApp } from '../catalog/types.js';
import { expandSeedTokens } from '../catalog/seed-tokens.js';
import { resolveBindings } from '../catalog/bindings.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { Backends, ProvisionContext } from '../provisioning/context.js';
import { backendIdOf, backendOf, dependenciesOf, provisionerOf, storedReason } from '../item-types/index.js';
import { installTarget, targetRecord, type ResolvedTarget } from '../provisioning/targets.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { upsertCatalogItems } from './item-upsert.js';
import { recordAppEdges } from './thread-edges.js';
import type { JobRecord, StepRow } from './job-rows.js';
import type { JobStore } from './job-store.js';
import { failedStep } from './step-failure.js';
import { appStatusOf, installedAppOf } from './app-record.js';
import { creatingPercent, jobStatusOf, provisioningPercent, reportOf } from './report.js';
import type { InstalledItem, StepResult } from './types.js';
import { recordLiveStep } from '../lifecycle/item-state.js';
import { inStepSpan } from './job-trace.js';

export interface RunnerDeps {
  db: Db;
  jobs: JobStore;
  catalog: Catalog;
  profile: CloudProfile;
  tenancy: TenancyService;
  backends: Backends;
  concurrency: number;
  locks: NamedLocks;
}

/** Thrown when this worker's lease was taken over: it stops writing at once. */
export class LeaseLost extends Error {}

/** Runs one provisioner and turns what it throws into a StepResult; never throws. */
export async function runProvisioner(ctx: Omit<ProvisionContext, 'log'>): Promise<StepResult> {
  const steps: string[] = [];
  const provisioner = provisionerOf(ctx.item.itemType, ctx.profile, ctx.backend)!;
  const backend = backendIdOf(ctx.item.itemType, ctx.profile, ctx.backend);
  try {
    const outcome = await provisioner({ ...ctx, log: (line) => steps.push(line) });
    return { ...outcome, steps, backend };
  } catch (err) {
    return { ...failedStep(err, ctx.item.itemType, steps), backend };
  }
}

/** The backend of each live item type of the app in this cloud (the report's `backends`). */
function appBackends(app: CuratedApp, profile: CloudProfile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of app.items) {
    const backend = backendOf(item.itemType, profile);
    if (backend) out[item.itemType] = backend.backing;
  }
  return out;
}

/** Moves one claimed job through creating-items, provisioning, finalizing and done; resumable at every point. */
export class InstallRunner {
  constructor(private readonly deps: RunnerDeps) {}

  async run(job: JobRecord, owner: string): Promise<void> {
    const app = this.deps.catalog.get(job.appId ?? '');
    const fence = { owner };
    const write = async (...args: Parameters<JobStore['update']> extends [string, unknown, ...infer R] ? R : never) => {
      if (!(await this.deps.jobs.update(job.id, fence, ...args))) throw new LeaseLost(`lease of ${job.id} lost`);
    };
    if (!app) {
      await write(
        { status: 'failed', phase: 'done', percentComplete: 100, finished: true },
        { kind: 'failed', data: { error: `app ${job.appId} is no longer in the catalog` } },
      );
      return;
    }
    const now = new Date();
    const steps = await this.deps.jobs.steps(job.id);
    const installed = await this.createItems(job, app, steps, now, write);

    const ws = await this.deps.db
      .selectFrom('workspaces')
      .select('platform_workspace_id')
      .where('id', '=', job.workspaceId)
      .where('tenant_id', '=', job.tenantId)
      .executeTakeFirst();
    const target = await installTarget(this.deps.tenancy, this.deps.profile, {
      tenantId: job.tenantId,
      mode: job.mode,
      binding: ws?.platform_workspace_id ?? null,
      overrides: job.targetOverrides,
    });
    await write(
      { phase: 'provisioning', percentComplete: 35, createdItems: installed.length, installed, target: targetRecord(target) },
      { kind: 'phase', data: { phase: 'provisioning', percentComplete: 35 } },
    );
    await this.provision(job, app, steps, target, now, write);

    await write({ phase: 'finalizing', percentComplete: 95 }, { kind: 'phase', data: { phase: 'finalizing', percentComplete: 95 } });
    await this.recordThread(job, app, steps);
    const finalSteps = await this.deps.jobs.steps(job.id);
    const report = reportOf(job.mode, targetRecord(target), finalSteps, appBackends(app, this.deps.profile));
    const status = jobStatusOf(
      report.outcome,
      report.steps.map((s) => s.result),
    );
    // The job's end and its installed app are written in one transaction.
    const installedApp = installedAppOf(job, app, finalSteps, report.target, appStatusOf(report.outcome, status));
    const finished = await this.deps.jobs.finish(
      job.id,
      fence,
      { status, phase: 'done', percentComplete: 100, provision: report, finished: true },
      { kind: 'done', data: { status, outcome: report.outcome, percentComplete: 100 } },
      installedApp,
    );
    if (!finished) throw new LeaseLost(`lease of ${job.id} lost`);
  }

  /**
   * Stores every item of the app (an edited item keeps the user's content), 0 to 35 %: those not stored yet in one
   * statement, then one write of the job that records them on their steps with an event each.
   */
  private async createItems(
    job: JobRecord,
    app: CuratedApp,
    steps: StepRow[],
    now: Date,
    write: (...a: any[]) => Promise<void>,
  ): Promise<InstalledItem[]> {
    const missing = steps.filter((s) => !s.cosmosItemId);
    const where = { tenantId: job.tenantId, workspaceId: job.workspaceId, appId: app.id };
    const ids = await upsertCatalogItems(
      this.deps.db,
      where,
      missing.map((s) => app.items[s.stepIndex]!),
      now,
    );
    for (const [i, step] of missing.entries()) {
      const item = app.items[step.stepIndex]!;
      // An item kept in the service only in this cloud (no backend here for its type or its content) says why.
      const reason = job.deploy ? storedReason(item.itemType, item.content, app, this.deps.profile) : undefined;
      if (reason) await recordLiveStep(this.deps.db, job.tenantId, ids[i]!, { status: 'stored', message: reason, backend: 'stored' }, null);
    }
    const installed: InstalledItem[] = steps.map((step) => {
      const item = app.items[step.stepIndex]!;
      const id = step.cosmosItemId ?? ids[missing.indexOf(step)]!;
      return { itemType: item.itemType, id, displayName: item.displayName, status: 'created' };
    });
    if (missing.length) {
      await write(
        { createdItems: installed.length, installed, percentComplete: creatingPercent(installed.length, steps.length) },
        missing.map((step, i) => {
          const item = app.items[step.stepIndex]!;
          return {
            kind: 'item-created',
            data: { stepIndex: step.stepIndex, itemType: item.itemType, id: ids[i], displayName: item.displayName },
          };
        }),
        missing.map((step, i) => ({ stepIndex: step.stepIndex, cosmosItemId: ids[i] })),
      );
      for (const [i, step] of missing.entries()) step.cosmosItemId = ids[i]!;
    }
    return installed;
  }

  /**
   * Provisions live steps with at most `concurrency` in flight, dependencies first; 35 to 95 %. A step's slot and its
   * dependents are released as soon as its result is known: storing the result runs alongside the next steps (a job
   * resumed before a result was stored re-runs that step, idempotently), and the phase ends once every result is stored.
   */
  private async provision(
    job: JobRecord,
    app: CuratedApp,
    steps: StepRow[],
    target: ResolvedTarget,
    now: Date,
    write: (...a: any[]) => Promise<void>,
  ) {
    const live = steps.filter((s) => s.live);
    const results = new Map<string, StepResult>();
    for (const s of live) if (s.result) results.set(s.itemKey, s.result);
    const liveKeys = new Set(live.map((s) => s.itemKey));
    const contentByKey = new Map(app.items.map((i) => [i.key, expandSeedTokens(i.content, now)]));
    const pending = live.filter((s) => !s.result);
    // The data platform's items of each type, and its connections, are listed once for all the job's steps.
    const lists = new JobLists(this.deps.backends.dataPlatform);
    const running = new Map<number, Promise<unknown>>();
    const saving = new Set<Promise<void>>();
    let saveFailure: { error: unknown } | undefined;
    let done = results.size;
    const ready = (s: StepRow) =>
      dependenciesOf(app.items[s.stepIndex]!.itemType, contentByKey.get(s.itemKey), this.deps.profile).every(
        (k) => !liveKeys.has(k) || results.has(k),
      );
    const save = (step: StepRow, item: CatalogItem, result: StepResult, percent: number) => {
      const saved = (async () => {
        await write(
          { percentComplete: percent },
          {
            kind: 'step',
            data: { stepIndex: step.stepIndex, itemType: item.itemType, displayName: item.displayName, status: result.status },
          },
          { stepIndex: step.stepIndex, result },
        );
        if (!job.deploy) await recordLiveStep(this.deps.db, job.tenantId, step.cosmosItemId!, { ...result, jobId: job.id }, null);
      })();
      saving.add(saved);
      saved
        .catch((error) => {
          saveFailure ??= { error };
        })
        .finally(() => saving.delete(saved));
    };
    while ((pending.length || running.size) && !saveFailure) {
      while (running.size < this.deps.concurrency && pending.length) {
        const next = pending.findIndex(ready);
        // Nothing ready and nothing running can only be a reference cycle: start in order rather than stall.
        const pick = next >= 0 ? next : running.size === 0 ? 0 : -1;
        if (pick < 0) break;
        const step = pending.splice(pick, 1)[0]!;
        const item = app.items[step.stepIndex]!;
        const p = inStepSpan(step, async () => {
          // The live resource is made and its record written under its lock: a removal of the same resource (another
          // workspace's uninstall of the app) either finds this record and keeps it, or runs wholly before.
          const result: StepResult = job.deploy
            ? await provisionUnderLiveLock(
                this.deps.locks,
                job.tenantId,
                { target, item },
                () =>
                  runProvisioner({
                    app,
                    item,
                    content: bindContent(contentByKey.get(item.key), results, target, this.deps.profile),
                    storedItemId: step.cosmosItemId!,
                    target,
                    profile: this.deps.profile,
                    backends: this.deps.backends,
                    dependency: (k) => results.get(k),
                    contentOf: (k) => contentByKey.get(k),
                    lists,
                  }),
                (made) =>
                  recordLiveStep(this.deps.db, job.tenantId, step.cosmosItemId!, { ...made, jobId: job.id }, null).catch((error) => {
                    saveFailure ??= { error };
                  }),
              )
            : { status: 'skipped', steps: ['deploy is false: stored in the service only, no backing call'] };
          results.set(step.itemKey, result);
          done++;
          save(step, item, result, provisioningPercent(done, live.length));
          return result;
        }).finally(() => running.delete(step.stepIndex));
        running.set(step.stepIndex, p);
      }
      if (running.size) await Promise.race(running.values());
    }
    await Promise.allSettled([...saving]);
    if (saveFailure) throw saveFailure.error;
  }

  /** Records the thread edges the app declares, in one statement (idempotent). */
  private async recordThread(job: JobRecord, app: CuratedApp, steps: StepRow[]) {
    try {
      await recordAppEdges(this.deps.db, job, app, new Map(steps.map((s) => [s.itemKey, s.cosmosItemId])));
    } catch (err) {
      // The workspace (and with it its items) was deleted while the job ran: there is no thread left to record into,
      // and the job still finishes rather than being resumed forever.
      if ((err as { code?: string }).code !== '23503') throw err;
    }
  }
}

/** Replaces ${item:<key>.id|sqlEndpoint|sqlEndpointId}, ${workspace.id} and ${bi.apiHost} with the live values of this install. */
export function bindContent(content: unknown, results: Map<string, StepResult>, target: ResolvedTarget, profile: CloudProfile): any {
  return resolveBindings(content, (token) => {
    if (token === 'workspace.id') return target.platformWorkspaceId;
    if (token === 'bi.apiHost') return new URL(profile.biApiUrl).host;
    const ref = /^item:([a-z0-9-]+)\.(id|sqlEndpoint|sqlEndpointId)$/.exec(token);
    if (!ref) return undefined;
    const r = results.get(ref[1]!);
    return ref[2] === 'id' ? r?.resourceId : r?.secondaryIds?.[ref[2]!];
  });
}
