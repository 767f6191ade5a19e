import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApp, TestTenant } from './helpers.js';

// Reading the audit trail in tests: the events one request recorded.

/** An audit event as GET /api/audit-events answers it. */
export type Event = {
  id: string;
  at: string;
  tenantId: string;
  actor: { userId: string | null; userName: string | null; tokenId?: string; method: string | null };
  kind: string;
  workspaceId?: string;
  target: { type: string; id?: string; name?: string };
  outcome: string;
  status: number;
  detail?: Record<string, unknown>;
  requestId: string;
};

/** One request through the app. */
export const send = (h: TestApp, method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  h.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

/** The events of the request with this x-request-id, read through the API as the tenant's admin. */
export async function eventsOf(h: TestApp, admin: TestTenant, requestId: string): Promise<Event[]> {
  const r = await send(h, 'GET', '/api/audit-events?limit=200', admin.auth);
  assert.equal(r.statusCode, 200, r.body);
  return (r.json().auditEvents as Event[]).filter((e) => e.requestId === requestId);
}

/** Sends a request and answers the one event it recorded. */
export async function recorded(h: TestApp, admin: TestTenant, method: string, url: string, who: Record<string, string>, payload?: unknown) {
  const requestId = `rq-${randomUUID()}`;
  const r = await send(h, method, url, { ...who, 'x-request-id': requestId }, payload);
  const events = await eventsOf(h, admin, requestId);
  assert.equal(events.length, 1, `one event for ${method} ${url} (${r.statusCode} ${r.body}): ${JSON.stringify(events)}`);
  return { r, e: events[0]! };
}
