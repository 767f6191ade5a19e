import type { Caller } from '../auth/caller.js';
import { expandSeedTokens } from '../catalog/seed-tokens.js';
import type { CatalogItem, CuratedApp } from '../catalog/types.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { ServiceError, type RemediationGate } from '../errors.js';
import type { PlannedCall } from '../item-types/calls.js';
import { backendOf, dependenciesOf, plannerOf, storedReason } from '../item-types/index.js';
import { StepRefused, type Backends, type ProvisionContext } from '../provisioning/context.js';
import { JobLists } from '../provisioning/job-lists.js';
import { installTarget, type ResolvedTarget } from '../provisioning/targets.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import type { InstallBody, InstallService } from './install-service.js';
import { compareParts } from './plan-compare.js';
import { bindContent } from './runner.js';
import { failedStep } from './step-failure.js';
import { planUninstall } from './plan-uninstall.js';
import type { Db } from '../store/db.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import type { StepResult } from './types.js';
import type { MergeConflict } from '../lifecycle/merge3.js';

/**
 * What an install would do to an item: create, update or leave its live resource, stop at a gate, or only store it; an
 * upgrade adds conflict (the user's edit and the new version change the same part), remove and keep (dropped items); an
 * uninstall delete and keep.
 */
export const PLAN_ACTIONS = [
  'create',
  'update',
  'no-change',
  'blocked',
  'failed',
  'stored',
  'conflict',
  'remove',
  'keep',
  'delete',
] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

/** One item of a plan: its action, the unified diff of an update, the gate that blocks it, the calls an install makes. */
export interface PlanItem {
  key: string;
  itemType: string;
  displayName: string;
  action: PlanAction;
  resourceId?: string;
  diff?: string;
  gate?: RemediationGate;
  calls?: PlannedCall[];
  /** An upgrade's conflicting parts (JSON pointers into the content) with the three versions. */
  conflicts?: MergeConflict[];
  /** A failed read: the backing service's text, unmodified, or the service's own code and message. */
  error?: string;
  code?: string;
  message?: string;
  /** uninstall: a data store deleted under purgeData (its data goes with it). */
  dataLoss?: boolean;
  /** The backend the item is provisioned on in this cloud (`stored`: kept in the service only; `message` says why). */
  backend?: string;
}

/** What a plan is asked: the install body, and which operation to plan (install by default). */
export type PlanBody = InstallBody & { operation?: 'install' | 'uninstall'; purgeData?: boolean };

/** The plan of an install: per item of the app, what installing it now would do. */
export interface InstallPlan {
  appId: string;
  version: string;
  /** An upgrade's plan: the version installed now (`version` is the one upgraded to). */
  fromVersion?: string;
  workspaceId: string;
  mode: string;
  items: PlanItem[];
}

/** How long a plan may read live state: answered within the gateway window (about 30 s), or 504 plan_timeout. */
export const PLAN_BOUND_MS = 25_000;
/** Items read at once (the install's PROVISION_CONCURRENCY). */
const PLAN_CONCURRENCY = 6;

/**
 * The dry run of an install (DESIGN.md "Installed apps and their lifecycle"): the install body is validated as an install
 * validates it, then each live item's desired state (what provisioning would send) is compared with what its backing
 * service holds, read with read-only calls only. Nothing is stored and nothing is changed.
 */
export class PlanService {
  constructor(
    private readonly deps: {
      installs: InstallService;
      tenancy: TenancyService;
      profile: CloudProfile;
      backends: Backends;
      boundMs?: number;
      /** For the plans of the lifecycle's operations (uninstall) that read the stored app. */
      db: Db;
      workspaces: WorkspaceService;
    },
  ) {}

  async plan(caller: Caller, appId: string, body: PlanBody): Promise<InstallPlan> {
    const { operation, purgeData, ...install } = body;
    if (operation === 'uninstall') return planUninstall(this.deps, caller, appId, { workspaceId: body.workspaceId, purgeData });
    return this.planInstall(caller, appId, install);
  }

  private async planInstall(caller: Caller, appId: string, body: InstallBody): Promise<InstallPlan> {
    const { app, mode, workspace } = await this.deps.installs.accept(caller, appId, body);
    const overrides = body.targetOverrides;
    const job = { tenantId: caller.tenantId, mode, binding: workspace.platformWorkspaceId, overrides };
    const target = await installTarget(this.deps.tenancy, this.deps.profile, job, true);
    const items = new Map<string, PlanItem>();
    const deploy = body.deploy ?? true;
    for (const item of app.items) {
      const backend = backendOf(item.itemType, this.deps.profile);
      if (!deploy || !backend) {
        items.set(item.key, { ...head(item), action: 'stored', calls: [] });
        continue;
      }
      // A type this cloud has no published API for, or content its backend here cannot hold, is kept in the service
      // only, and the plan says why.
      const reason = storedReason(item.itemType, item.content, app, this.deps.profile);
      if (reason) items.set(item.key, { ...head(item), action: 'stored', backend: 'stored', calls: [], message: reason });
    }
    const bound = this.deps.boundMs ?? PLAN_BOUND_MS;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const unread = app.items.filter((i) => !items.has(i.key)).map((i) => i.key);
        reject(
          new ServiceError(
            504,
            'plan_timeout',
            `Reading the live state took longer than ${bound / 1000} s; not read yet: ${unread.join(', ')}. Nothing was changed; plan again, or install (installs run as jobs).`,
          ),
        );
      }, bound);
    });
    try {
      await Promise.race([this.readAll(app, target, items), late]);
    } finally {
      clearTimeout(timer);
    }
    return { appId: app.id, version: app.version, workspaceId: workspace.id, mode, items: app.items.map((i) => items.get(i.key)!) };
  }

  /** Plans the live items, dependencies first, at most PLAN_CONCURRENCY at once; a dependency's live ids bind its dependants. */
  private async readAll(app: CuratedApp, target: ResolvedTarget, items: Map<string, PlanItem>) {
    const now = new Date();
    const contentByKey = new Map(app.items.map((i) => [i.key, expandSeedTokens(i.content, now)]));
    const results = new Map<string, StepResult>();
    const pending = app.items.filter((i) => !items.has(i.key));
    const liveKeys = new Set(pending.map((i) => i.key));
    const lists = new JobLists(this.deps.backends.dataPlatform);
    while (pending.length) {
      const ready = pending.filter((i) =>
        dependenciesOf(i.itemType, i.content, this.deps.profile).every((k) => !liveKeys.has(k) || items.has(k)),
      );
      // A reference cycle cannot be ordered: plan in order rather than stall.
      const wave = (ready.length ? ready : pending).slice(0, PLAN_CONCURRENCY);
      await Promise.all(
        wave.map(async (item) => {
          const ctx: ProvisionContext = {
            app,
            item,
            content: bindContent(contentByKey.get(item.key), results, target, this.deps.profile),
            storedItemId: '',
            target,
            profile: this.deps.profile,
            backends: this.deps.backends,
            log: () => {},
            dependency: (k) => results.get(k),
            contentOf: (k) => contentByKey.get(k),
            lists,
          };
          const created = dependenciesOf(item.itemType, item.content, this.deps.profile).filter((k) => items.get(k)?.action === 'create');
          const planned = await planItem(ctx, created);
          if (planned.resourceId)
            results.set(item.key, { status: 'exists', resourceId: planned.resourceId, secondaryIds: planned.secondaryIds, steps: [] });
          items.set(item.key, planned.item);
        }),
      );
      for (const done of wave) pending.splice(pending.indexOf(done), 1);
    }
  }
}

const head = (item: CatalogItem) => ({ key: item.key, itemType: item.itemType, displayName: item.displayName });

/**
 * One live item's plan: its desired parts against the live ones; a gate or a failed read as what stops the install.
 * `created` are the dependencies the install creates first: what the item would send may depend on them (an
 * eventstream's destination is the KQL database's item id), so a refusal to build it is no verdict yet.
 */
export async function planItem(
  ctx: ProvisionContext,
  created: string[],
): Promise<{ item: PlanItem; resourceId?: string; secondaryIds?: Record<string, string> }> {
  const planner = plannerOf(ctx.item.itemType, ctx.profile)!;
  const base = { ...head(ctx.item), backend: planner.backing, calls: [...planner.calls(ctx.item.content)] };
  try {
    const desired = await planner.desired(ctx).catch((err) => {
      if (err instanceof StepRefused && created.length) return undefined;
      throw err;
    });
    const live = await planner.readLive(ctx);
    if (!live) return { item: { ...base, action: 'create' } };
    if (!desired) {
      const message = `what the install sends depends on ${created.join(', ')}, which the install creates first`;
      return { item: { ...base, resourceId: live.resourceId, action: 'update', message }, resourceId: live.resourceId };
    }
    const diff = compareParts(live.parts, desired);
    const item: PlanItem = { ...base, resourceId: live.resourceId, ...(diff ? { action: 'update', diff } : { action: 'no-change' }) };
    return { item, resourceId: live.resourceId, secondaryIds: live.secondaryIds };
  } catch (err) {
    const r = failedStep(err, ctx.item.itemType, []);
    if (r.status === 'remediation') return { item: { ...base, action: 'blocked', gate: r.gate, ...(r.error ? { error: r.error } : {}) } };
    return {
      item: {
        ...base,
        action: 'failed',
        ...(r.error ? { error: r.error } : {}),
        ...(r.code ? { code: r.code } : {}),
        ...(r.message ? { message: r.message } : {}),
      },
    };
  }
}
