import { page, query, type Transport } from '../transport.js';
import type { AuditEvent, AuditFilters, PageOptions } from '../types.js';

/** The tenant's audit trail (admin scope), newest first. */
export function auditApi(t: Transport) {
  const audit = {
    /** One page of events matching the filters (kind exact, or a prefix such as `report.*`). */
    list: (o?: AuditFilters & PageOptions) =>
      t.run(
        'listAuditEvents',
        (i) => t.api.GET('/api/audit-events', { ...i, params: { query: query(o) } }),
        page<AuditEvent>('auditEvents'),
      ),
    /** Every matching event, page after page. */
    iterate: (o?: AuditFilters & Omit<PageOptions, 'cursor'>) => t.pages((cursor) => audit.list({ ...o, cursor })),
  };
  return audit;
}
