import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Caller } from '../auth/caller.js';
import { InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { decodeCursor, encodeCursor, type PageRequest } from '../store/paging.js';
import type { StoreRow } from '../store/schema.js';
import type { AuditEvent, AuditFilters, AuditRecord, AuditTargetType } from './audit-types.js';

// `report.*` asks every kind under `report.`; the route's pattern keeps LIKE's wildcards out of the text.
const PREFIX = /^(.+)\.\*$/;

/**
 * The record with U+0000 taken out of every text: PostgreSQL's text and jsonb cannot hold it, and a refused request's
 * message may quote what the caller sent (a body that is not JSON). Nothing else is changed.
 */
function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  return value;
}

/** A date-time filter as an instant; 400 naming the field when it is not one. */
function instant(value: string | undefined, field: 'since' | 'until'): string | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new InputError(`querystring/${field} must be a date-time (RFC 3339)`, field);
  return d.toISOString();
}

function toEvent(r: StoreRow<'audit_events'>): AuditEvent {
  return {
    id: r.id,
    at: r.at.toISOString(),
    tenantId: r.tenant_id,
    actor: {
      userId: r.actor_user_id,
      userName: r.actor_user_name,
      ...(r.actor_token_id ? { tokenId: r.actor_token_id } : {}),
      method: r.actor_method,
    },
    kind: r.kind as AuditEvent['kind'],
    ...(r.workspace_id ? { workspaceId: r.workspace_id } : {}),
    target: {
      type: r.target_type as AuditTargetType,
      ...(r.target_id ? { id: r.target_id } : {}),
      ...(r.target_name ? { name: r.target_name } : {}),
    },
    outcome: r.outcome,
    status: r.status,
    ...(r.detail ? { detail: r.detail } : {}),
    requestId: r.request_id,
  };
}

/** The audit trail: appends events (the store refuses any change to them) and reads a tenant's, newest first. */
export class AuditService {
  private constructor(private readonly db: Db) {}

  /** An audit service over the store. */
  static create(db: Db): AuditService {
    return new AuditService(db);
  }

  /** Appends one event; `at` is taken here at millisecond precision, so a cursor names an event exactly. */
  async record(event: AuditRecord): Promise<AuditEvent> {
    const e = storable(event);
    const row = await this.db
      .insertInto('audit_events')
      .values({
        id: `aud_${randomUUID().replaceAll('-', '')}`,
        tenant_id: e.tenantId,
        at: new Date().toISOString(),
        actor_user_id: e.actor.userId,
        actor_user_name: e.actor.userName,
        actor_token_id: e.actor.tokenId ?? null,
        actor_method: e.actor.method,
        kind: e.kind,
        workspace_id: e.workspaceId ?? null,
        target_type: e.target.type,
        target_id: e.target.id ?? null,
        target_name: e.target.name ?? null,
        outcome: e.outcome,
        status: e.status,
        detail: e.detail && Object.keys(e.detail).length ? JSON.stringify(e.detail) : null,
        request_id: e.requestId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEvent(row);
  }

  /**
   * 404 for a workspace the tenant never had, exactly as elsewhere; a deleted one is known by its events, which outlive
   * it (the trail is append-only).
   */
  private async knownWorkspace(tenantId: string, workspaceId: string): Promise<void> {
    const [live, recorded] = await Promise.all([
      this.db.selectFrom('workspaces').select('id').where('tenant_id', '=', tenantId).where('id', '=', workspaceId).executeTakeFirst(),
      this.db
        .selectFrom('audit_events')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('workspace_id', '=', workspaceId)
        // A refusal names what the caller asked, perhaps another tenant's workspace: only a success shows it was this tenant's.
        .where('outcome', 'in', ['succeeded', 'accepted'])
        .limit(1)
        .executeTakeFirst(),
    ]);
    if (!live && !recorded) throw new NotFoundError('Workspace', workspaceId);
  }

  /** The caller's tenant's events matching the filters, newest first, a page at a time. */
  async list(caller: Caller, filters: AuditFilters, page: PageRequest): Promise<{ auditEvents: AuditEvent[]; nextCursor?: string }> {
    const since = instant(filters.since, 'since');
    const until = instant(filters.until, 'until');
    if (since && until && since > until) throw new InputError('querystring/since must not be after until', 'since');
    if (filters.workspaceId) await this.knownWorkspace(caller.tenantId, filters.workspaceId);
    let q = this.db.selectFrom('audit_events').selectAll().where('tenant_id', '=', caller.tenantId);
    if (filters.workspaceId) q = q.where('workspace_id', '=', filters.workspaceId);
    if (filters.actor) q = q.where('actor_user_id', '=', filters.actor);
    if (filters.kind) {
      const prefix = PREFIX.exec(filters.kind)?.[1];
      q = prefix ? q.where('kind', 'like', `${prefix}.%`) : q.where('kind', '=', filters.kind);
    }
    if (since) q = q.where('at', '>=', new Date(since));
    if (until) q = q.where('at', '<=', new Date(until));
    if (page.cursor) {
      // A cursor is a position (the shared format of every list): newest first, the events before it.
      const c = decodeCursor(page.cursor);
      q = q.where(sql<boolean>`(at, id) < (${c.createdAt.toISOString()}::timestamptz, ${c.id})`);
    }
    const rows = await q
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    const more = rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    const last = shown.at(-1);
    return { auditEvents: shown.map(toEvent), ...(more && last ? { nextCursor: encodeCursor({ createdAt: last.at, id: last.id }) } : {}) };
  }
}
