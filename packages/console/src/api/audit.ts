import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Schema } from './schemas';

/** One recorded access change or destructive operation: who, when, what, on which target, and how it ended. */
export type AuditEvent = Schema<'AuditEvent'>;

/** The filters of the audit page, as the API's query parameters take them (empty ones are left out). */
export interface AuditFilter {
  workspaceId?: string;
  kind?: string;
  actor?: string;
  since?: string;
  until?: string;
}

/** The tenant's audit events, newest first, a page at a time ("Load more" follows the cursor). */
export const useAuditEvents = (filter: AuditFilter, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: ['audit-events', filter],
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const q = new URLSearchParams({ limit: '50' });
      for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
      if (pageParam) q.set('cursor', pageParam);
      return api<{ auditEvents: AuditEvent[]; nextCursor?: string | null }>('GET', `/api/audit-events?${q}`);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
