import type { CloudProfile } from '../cloud/profiles.js';
import { sql } from 'kysely';
import type { RemediationGate } from '../errors.js';
import { isItemTypeId, isLive } from '../item-types/index.js';
import type { Db } from '../store/db.js';

/** The last drift check of an item: its verdict and, when drifted, the diff of the live resource against the stored content. */
export interface DriftRecord {
  status: 'in-sync' | 'drifted' | 'missing';
  diff?: string;
  jobId: string;
  at: string;
  /** The content's ETag when it was checked: an edit since makes the verdict stale. */
  etag: string;
}

/**
 * An item's live provisioning record (items.provisioning): the last step that provisioned, applied or deleted it, the
 * content ETag it sent, and the last drift check.
 */
export interface LiveRecord {
  status: string;
  resourceId?: string | null;
  secondaryIds?: Record<string, string> | null;
  gate?: RemediationGate | null;
  error?: string | null;
  code?: string | null;
  message?: string | null;
  at: string;
  /** The job that last worked on the item (an apply accepted, or the step that wrote this record). */
  jobId?: string;
  /** The content's ETag that the live resource was last made from (absent on records written before issue 19). */
  etag?: string;
  drift?: DriftRecord;
  /** The service deleted the live resource (an uninstall step ran; the stored item is about to go). */
  deleted?: boolean;
  /** The backend that provisioned it: drift, apply and uninstall go to the same service even if the cloud's choice changed. */
  backend?: string;
}

/** An item's live state, as the items table and the item page show it. */
export const LIVE_STATES = [
  'stored-only',
  'not-provisioned',
  'created',
  'changed',
  'drifted',
  'missing',
  'deleted',
  'remediation',
  'failed',
] as const;
export type LiveState = (typeof LIVE_STATES)[number];

/**
 * The live state of an item from its type, its content's ETag and its provisioning record: stored only (a type with no
 * backing service), not provisioned yet, created, changed since provisioned (edited after the content was sent),
 * drifted or missing (the last drift check), deleted, or waiting on remediation / failed.
 */
export function liveStateOf(itemType: string, etag: string, live: LiveRecord | null, profile: CloudProfile): LiveState {
  if (!isItemTypeId(itemType) || !isLive(itemType, profile, live?.backend) || live?.status === 'stored') return 'stored-only';
  if (!live || live.status === 'skipped' || live.status === 'pending') return 'not-provisioned';
  if (live.deleted) return 'deleted';
  if (live.status === 'remediation' || live.status === 'failed') return live.resourceId ? stateOfLive(etag, live) : live.status;
  return stateOfLive(etag, live);
}

function stateOfLive(etag: string, live: LiveRecord): LiveState {
  if (live.drift?.status === 'missing') return 'missing';
  if (live.etag && live.etag !== etag) return 'changed';
  if (live.drift?.status === 'drifted' && live.drift.etag === etag) return 'drifted';
  return 'created';
}

/** What a provisioning or apply step left: written as the item's live record (its drift verdict is cleared). */
export interface LiveStep {
  status: string;
  jobId?: string;
  resourceId?: string;
  secondaryIds?: Record<string, string>;
  gate?: RemediationGate;
  error?: string;
  code?: string;
  message?: string;
  backend?: string;
}

/**
 * Records a step's result as the item's live record. `etag` is the content ETag the step sent (null: the item's ETag
 * now, as an install sends what it stored). A failed step keeps the live ids the item had.
 */
export async function recordLiveStep(db: Db, tenantId: string, itemId: string, step: LiveStep, etag: string | null): Promise<void> {
  const record = {
    status: step.status,
    resourceId: step.resourceId ?? null,
    secondaryIds: step.secondaryIds ?? null,
    gate: step.gate ?? null,
    error: step.error ?? null,
    code: step.code ?? null,
    message: step.message ?? null,
    jobId: step.jobId ?? null,
    backend: step.backend ?? null,
    at: new Date().toISOString(),
  };
  const provisioned = step.status !== 'remediation' && step.status !== 'failed';
  // In SET, `etag` and `provisioning` are the row's values before the update.
  await db
    .updateTable('items')
    .set({
      provisioning: provisioned
        ? sql`${JSON.stringify(record)}::jsonb || jsonb_build_object('etag', coalesce(${etag}::text, etag))`
        : sql`${JSON.stringify(record)}::jsonb || jsonb_strip_nulls(jsonb_build_object('resourceId', provisioning->'resourceId', 'secondaryIds', provisioning->'secondaryIds', 'etag', provisioning->'etag', 'backend', provisioning->'backend'))`,
    })
    .where('id', '=', itemId)
    .where('tenant_id', '=', tenantId)
    .execute();
}

/** Records a drift verdict on the item's live record. */
export async function recordDrift(db: Db, tenantId: string, itemId: string, drift: DriftRecord): Promise<void> {
  await db
    .updateTable('items')
    .set({ provisioning: sql`coalesce(provisioning, '{}'::jsonb) || jsonb_build_object('drift', ${JSON.stringify(drift)}::jsonb)` })
    .where('id', '=', itemId)
    .where('tenant_id', '=', tenantId)
    .execute();
}

/** Marks the item's live resource as deleted by the service. */
export async function recordDeleted(db: Db, tenantId: string, itemId: string): Promise<void> {
  await db
    .updateTable('items')
    .set({
      provisioning: sql`coalesce(provisioning, '{}'::jsonb) || jsonb_build_object('deleted', true, 'at', ${new Date().toISOString()}::text)`,
    })
    .where('id', '=', itemId)
    .where('tenant_id', '=', tenantId)
    .execute();
}
