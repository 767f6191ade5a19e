import { sql } from 'kysely';
import type { Db } from '../store/db.js';
import { type JobRecord, type JobRow, toRecord } from './job-rows.js';

// The worker's lease on a job: claimed, kept by heartbeats, given back; every write a worker makes is fenced by it.

/** Claims the oldest running job whose lease is free or expired (SKIP LOCKED: replicas never take the same one). */
export async function claimJob(db: Db, leaseMs: number, owner: string): Promise<JobRecord | undefined> {
  const result = await sql<JobRow>`
    UPDATE install_jobs SET lease_owner = ${owner}, lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
    WHERE id = (
      SELECT id FROM install_jobs
      WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < now())
      ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1
    )
    RETURNING *`.execute(db);
  const r = result.rows[0];
  return r ? toRecord(r) : undefined;
}

/**
 * Extends the leases of the owner's running jobs in one statement (one round trip per heartbeat, however many jobs a
 * process runs); answers the ids whose lease it still holds: a job missing from the answer was taken over, or ended.
 */
export async function heartbeatJobs(db: Db, leaseMs: number, jobIds: readonly string[], owner: string): Promise<Set<string>> {
  if (!jobIds.length) return new Set();
  const rows = await db
    .updateTable('install_jobs')
    .set({ lease_expires_at: sql<string>`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where('id', 'in', [...jobIds])
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .returning('id')
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Gives the owner's leases of these jobs back, in one statement (another worker claims them at once). */
export async function releaseJobs(db: Db, jobIds: readonly string[], owner: string): Promise<void> {
  if (!jobIds.length) return;
  await db
    .updateTable('install_jobs')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', 'in', [...jobIds])
    .where('lease_owner', '=', owner)
    .execute();
}
