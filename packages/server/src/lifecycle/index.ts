import type { InstallService } from '../install/install-service.js';
import type { JobStore } from '../install/job-store.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { applyKind } from './apply-kind.js';
import { ApplyService } from './apply-service.js';
import { driftKind } from './drift-kind.js';
import { DriftService } from './drift-service.js';
import { JobService } from './job-service.js';
import { LifecycleRunner } from './lifecycle-runner.js';
import { UpgradePlanner } from '../install/plan-upgrade.js';
import { upgradeKind } from './upgrade-kind.js';
import { UpgradeService } from './upgrade-service.js';
import type { StoredAppDeps } from './stored-app.js';
import { uninstallKind } from './uninstall-kind.js';
import { UninstallService } from './uninstall-service.js';

/** What the lifecycle is built from: the install's job store and worker, and what its steps read and call. */
export interface LifecycleDeps {
  jobs: JobStore;
  workspaces: WorkspaceService;
  installs: InstallService;
  /** The worker's background clients and the stores (StoredAppDeps). */
  stored: StoredAppDeps;
  concurrency: number;
  /** Tells the worker a job was accepted. */
  poke(): void;
}

/** The lifecycle's runners (for the worker) and its services (lifecycle/routes.ts serves them). */
export function buildLifecycle(deps: LifecycleDeps) {
  const { jobs, workspaces, installs, stored, poke } = deps;
  const runner = new LifecycleRunner({
    jobs,
    concurrency: deps.concurrency,
    handlers: {
      apply: applyKind(stored),
      drift: driftKind({ ...stored, jobs }),
      upgrade: upgradeKind(stored),
      uninstall: uninstallKind(stored),
    },
  });
  const jobService = new JobService({ jobs, workspaces, installs, onAccepted: poke });
  const applies = new ApplyService({ db: stored.db, jobs, workspaces, onAccepted: poke });
  const drift = new DriftService({ db: stored.db, profile: stored.profile, jobs, jobService, workspaces, onAccepted: poke });
  const uninstalls = new UninstallService({ db: stored.db, profile: stored.profile, jobs, workspaces, onAccepted: poke });
  const upgrades = new UpgradeService({
    db: stored.db,
    profile: stored.profile,
    jobs,
    catalog: stored.catalog,
    workspaces,
    onAccepted: poke,
  });
  const upgradePlans = new UpgradePlanner({ ...stored, workspaces });
  const runners = { upgrade: runner, uninstall: runner, apply: runner, drift: runner };
  return { runners, jobs: jobService, applies, drift, uninstalls, upgrades, upgradePlans };
}
