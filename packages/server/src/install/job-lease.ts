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

/** Extends the lease; false when another worker holds it now (the caller must stop). */
export async function heartbeatJob(db: Db, leaseMs: number, jobId: string, owner: string): Promise<boolean> {
  const r =
    await sql`UPDATE install_jobs SET lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval WHERE id = ${jobId} AND lease_owner = ${owner} AND status = 'running'`.execute(
      db,
    );
  return Number(r.numAffectedRows ?? 0) === 1;
}

export async function releaseJob(db: Db, jobId: string, owner: string): Promise<void> {
  await db
    .updateTable('install_jobs')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .execute();
}
