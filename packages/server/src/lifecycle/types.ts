import type { RemediationGate } from '../errors.js';
import type { JobStatus } from '../install/types.js';

/** What a job does. One mechanism runs them all; an install keeps the spec's exact behaviour and its own poll path. */
export const JOB_KINDS = ['install', 'upgrade', 'uninstall', 'apply', 'drift'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** The kinds after install: polled at GET /api/jobs/{jobId}. */
export type LifecycleKind = Exclude<JobKind, 'install'>;

/** A lifecycle job's phases: its kind's work, then finalizing (what the job records), then done. */
export const LIFECYCLE_PHASES = ['applying', 'reading', 'removing', 'upgrading', 'finalizing', 'done'] as const;
export type LifecyclePhase = (typeof LIFECYCLE_PHASES)[number];

/** The phase a kind's steps run in. */
export const WORK_PHASE: Record<LifecycleKind, LifecyclePhase> = {
  apply: 'applying',
  drift: 'reading',
  uninstall: 'removing',
  upgrade: 'upgrading',
};

/**
 * What a lifecycle step did to its item:
 * - apply/upgrade: `created`, `updated` (the live resource now holds the stored content), `no-change`, `conflict`
 *   (an upgrade found the user's edit and the new version changing the same part: nothing written, both shown);
 * - drift: `in-sync`, `drifted` (with the diff), `missing` (deleted outside the service);
 * - uninstall: `deleted`, `kept` (a data store kept without purgeData), `not-found` (already gone), `dropped` (an item
 *   the new version removed, listed and kept without removeDropped);
 * - any: `stored` (no live resource: only the stored item was changed), `remediation` (a gate), `failed`.
 */
export const LIFECYCLE_STEP_STATUSES = [
  'created',
  'updated',
  'no-change',
  'conflict',
  'in-sync',
  'drifted',
  'missing',
  'deleted',
  'kept',
  'not-found',
  'dropped',
  'stored',
  'remediation',
  'failed',
] as const;
export type LifecycleStepStatus = (typeof LIFECYCLE_STEP_STATUSES)[number];

/** One conflicting part of an upgrade's three-way merge (a JSON pointer into the item's content). */
export interface StepConflict {
  path: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

/** The result of one lifecycle step: the fields of an install's StepResult, plus a diff and the conflicts of a merge. */
export interface LifecycleStepResult {
  status: LifecycleStepStatus;
  resourceId?: string;
  secondaryIds?: Record<string, string>;
  /** A unified diff: the live resource against the stored content (drift), or what the step changed (apply, upgrade). */
  diff?: string;
  conflicts?: StepConflict[];
  gate?: RemediationGate;
  /** The backing service's error text, unmodified. */
  error?: string;
  code?: string;
  /** The service's own words (why an item was kept, a failure that is not a backing answer). */
  message?: string;
  steps: string[];
  diagnosis?: string;
}

/** What a lifecycle job was asked, fixed when it was accepted. */
export interface JobOptions {
  /** uninstall: delete data stores (and their data) too. */
  purgeData?: boolean;
  /** upgrade: remove the items the new version dropped. */
  removeDropped?: boolean;
  /** upgrade: the catalog version moved to, and the one moved from. */
  toVersion?: string;
  fromVersion?: string;
  /** uninstall: delete the workspace once every app is uninstalled (DELETE workspace with force). */
  deleteWorkspace?: boolean;
  /** apply, or an uninstall of one item (DELETE item with deleteLive): the stored item. */
  itemId?: string;
}

/** A step of a lifecycle job as the API shows it. */
export interface LifecycleStep {
  stepIndex: number;
  key: string;
  itemType: string;
  displayName: string;
  itemId: string | null;
  live: boolean;
  /** Null until the step has run. */
  result: LifecycleStepResult | null;
}

/** A job of any kind, as polled at GET /api/jobs/{jobId}. */
export interface Job {
  id: string;
  kind: JobKind;
  workspaceId: string;
  appId: string | null;
  status: JobStatus;
  phase: string;
  percentComplete: number;
  options: JobOptions;
  /** Counts of the finished steps by status. */
  summary: Record<string, number>;
  steps: LifecycleStep[];
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  finishedAt: string | null;
}
