import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { StoreRow } from '../store/schema.js';

/** How to undo a change; each kind is performed by the fix service's rollback. */
export type Inverse =
  | { kind: 'delete-firewall-rule'; workspaceId: string; ruleId: string }
  | { kind: 'add-firewall-rule'; workspaceId: string; name: string; startIpAddress: string; endIpAddress: string }
  | { kind: 'delete-role-assignment'; workspaceId: string; assignmentId: string }
  | { kind: 'remove-password'; clientId: string; keyId: string }
  | { kind: 'restore-vault-version'; secretName: string; version: string | null }
  | { kind: 'restore-policy-snapshot'; policy: string; snapshot: unknown };

/** A journaled change with its inverse. */
export interface Change {
  id: string;
  kind: string;
  summary: string;
  target: Record<string, unknown>;
  inverse: Inverse;
  state: 'applied' | 'rolled-back';
  incidentId?: string;
  createdBy: string;
  createdAt: string;
  rolledBackAt?: string;
  rolledBackBy?: string;
}

const toChange = (r: StoreRow<'identity_changes'>): Change => ({
  id: r.id,
  kind: r.kind,
  summary: r.summary,
  target: r.target,
  inverse: r.inverse,
  state: r.state,
  ...(r.incident_id ? { incidentId: r.incident_id } : {}),
  createdBy: r.created_by,
  createdAt: r.created_at.toISOString(),
  ...(r.rolled_back_at ? { rolledBackAt: r.rolled_back_at.toISOString() } : {}),
  ...(r.rolled_back_by ? { rolledBackBy: r.rolled_back_by } : {}),
});

/** The change journal: every fix is written with its inverse, per tenant. */
export class ChangeJournal {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** 404 unless the incident is one of the caller's tenant: a change is never linked to another tenant's incident. */
  async requireIncident(caller: Caller, incidentId: string | undefined): Promise<void> {
    if (incidentId === undefined) return;
    const row = await this.db
      .selectFrom('identity_incidents')
      .select('id')
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', incidentId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Incident', incidentId);
  }

  async record(
    caller: Caller,
    c: { kind: string; summary: string; target: Record<string, unknown>; inverse: Inverse; incidentId?: string },
  ): Promise<Change> {
    await this.requireIncident(caller, c.incidentId);
    const row = await this.db
      .insertInto('identity_changes')
      .values({
        id: randomUUID(),
        tenant_id: caller.tenantId,
        incident_id: c.incidentId ?? null,
        kind: c.kind,
        summary: c.summary,
        target: JSON.stringify(c.target),
        inverse: JSON.stringify(c.inverse),
        state: 'applied',
        created_by: caller.userName,
        created_at: this.now().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toChange(row);
  }

  async list(caller: Caller, filter: { incidentId?: string } = {}): Promise<Change[]> {
    await this.requireIncident(caller, filter.incidentId);
    let q = this.db.selectFrom('identity_changes').selectAll().where('tenant_id', '=', caller.tenantId);
    if (filter.incidentId) q = q.where('incident_id', '=', filter.incidentId);
    return (await q.orderBy('created_at', 'desc').orderBy('id').limit(500).execute()).map(toChange);
  }

  async get(caller: Caller, id: string): Promise<Change> {
    const row = await this.db
      .selectFrom('identity_changes')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Change', id);
    return toChange(row);
  }

  /** Marks a change rolled back; 409 when another rollback got there first. */
  async markRolledBack(caller: Caller, id: string): Promise<Change> {
    const row = await this.db
      .updateTable('identity_changes')
      .set({ state: 'rolled-back', rolled_back_at: this.now().toISOString(), rolled_back_by: caller.userName })
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .where('state', '=', 'applied')
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new ConflictError(`Change '${id}' is already rolled back`, 'already_rolled_back');
    return toChange(row);
  }
}
