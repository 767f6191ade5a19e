import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.js';
import type { StoreRow } from '../store/schema.js';
import type { Metrics } from '../metrics.js';
import type { SignalPoint } from './severity.js';
import { tenantContext } from '../tenancy/tenant-context.js';

/** One backing call refused on authentication or authorization: who, which service, the code, when; never a token. */
export interface IdentitySignal {
  id: string;
  principal: string;
  service: string;
  status: number;
  code?: string;
  path: string;
  at: string;
}

const toSignal = (r: StoreRow<'identity_signals'>): IdentitySignal => ({
  id: r.id,
  principal: r.principal,
  service: r.service,
  status: r.status,
  ...(r.code ? { code: r.code } : {}),
  path: r.path,
  at: r.at.toISOString(),
});

/**
 * A refusal's code as a metric label: a status or a service's error name (AADSTS7000215, InsufficientPrivileges); anything
 * else (an id, free text) is 'other', so a scrape never carries a tenant's identifiers.
 */
const codeLabel = (code: string) =>
  /^(?:\d{1,3}|[A-Za-z][A-Za-z0-9_.]{0,63})$/.test(code) && !/[0-9a-f]{16,}/i.test(code) ? code : 'other';

/** Records identity signals (the pipeline's onAuthFailure hook and the probes) and reads them back. */
export class IdentitySignals {
  private pending = new Set<Promise<unknown>>();
  now: () => Date = () => new Date();

  constructor(
    private readonly db: Db,
    private readonly metrics?: Metrics,
  ) {}

  /**
   * Records a failure for the tenant whose work made the call (tenantContext; none for the deployment's own work);
   * the URL is kept as a path without its query string (no secrets travel in paths).
   */
  record(f: { service: string; status: number; code?: string; url?: string; principal: string; at?: Date }): void {
    const tenantId = tenantContext.current() ?? null;
    let path = '';
    try {
      path = f.url ? new URL(f.url).pathname : '';
    } catch {
      /* not a URL */
    }
    this.metrics?.count(
      'svc_identity_auth_failures_total',
      'Backing calls refused on authentication or authorization, by service and code',
      { service: f.service, code: codeLabel(f.code ?? String(f.status)) },
    );
    const p = this.db
      .insertInto('identity_signals')
      .values({
        id: randomUUID(),
        tenant_id: tenantId,
        principal: f.principal,
        service: f.service,
        status: f.status,
        code: f.code ?? null,
        path,
        at: (f.at ?? this.now()).toISOString(),
      })
      .execute()
      .catch(() => undefined)
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Waits for records still being written (reads see every signal recorded before them). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Signals, newest first: of one tenant, or (tenantId undefined: the operator) of every tenant and the deployment. */
  async list(filter: { tenantId: string | undefined; since?: Date; principal?: string; limit?: number }): Promise<IdentitySignal[]> {
    await this.flush();
    let q = this.db.selectFrom('identity_signals').selectAll();
    if (filter.tenantId !== undefined) q = q.where('tenant_id', '=', filter.tenantId);
    if (filter.since) q = q.where('at', '>=', filter.since as never);
    if (filter.principal) q = q.where('principal', '=', filter.principal);
    const rows = await q
      .orderBy('at', 'desc')
      .orderBy('id')
      .limit(filter.limit ?? 500)
      .execute();
    return rows.map(toSignal);
  }

  async points(tenantId: string, since: Date): Promise<SignalPoint[]> {
    return (await this.list({ tenantId, since, limit: 10_000 })).map((s) => ({
      principal: s.principal,
      status: s.status,
      code: s.code,
      at: new Date(s.at),
    }));
  }
}
