import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];
export type Workspace = Schemas['Workspace'];
export type Item = Schemas['Item'];
export type ApiToken = Schemas['ApiToken'];
export type AppSummary = Schemas['AppSummary'];
export type InstallJob = Schemas['InstallJob'];
export type Job = Schemas['Job'];
export type JobKind = Job['kind'];
export type InstalledApp = Schemas['InstalledApp'];
export type ThreadEdge = Schemas['ThreadEdge'];
export type AuditEvent = Schemas['AuditEvent'];
/** The filters of the audit trail: a workspace, an actor (user id), a kind (exact or `prefix.*`), a time range (date-times). */
export type AuditFilters = NonNullable<operations['listAuditEvents']['parameters']['query']>;
export type ProvisionReport = Schemas['ProvisionReport'];
export type StepResult = Schemas['StepResult'];
export type PaginatedReport = Schemas['PaginatedReport'];
export type ReportExport = Schemas['ReportExport'];
export type Tenant = Schemas['Tenant'];
export type ResourceAssignment = Schemas['ResourceAssignment'];
export type RoleAssignment = Schemas['RoleAssignment'];
export type Principal = Schemas['Principal'];

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The success body of an operation (200, 201 or 202). */
type Success<K extends keyof operations> = operations[K]['responses'] extends infer R
  ? R extends { 200: infer S }
    ? JsonOf<S>
    : R extends { 201: infer S }
      ? JsonOf<S>
      : R extends { 202: infer S }
        ? JsonOf<S>
        : never
  : never;
/** The JSON body an operation takes. */
export type RequestBody<K extends keyof operations> =
  NonNullable<operations[K]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
/** The success body without `ok`. */
export type Result<K extends keyof operations> = Omit<Success<K>, 'ok'>;

export type AppDetail = Success<'getApp'>['app'];
export type ItemType = Success<'listItemTypes'>['itemTypes'][number];
export type WhoAmI = Result<'whoami'>;

/** One page of a list; `nextCursor` is absent on the last page. */
export type Page<T> = T[] & { nextCursor?: string };
export interface PageOptions {
  limit?: number;
  cursor?: string;
}

/** One server-sent event of an install job. */
export interface InstallEvent {
  id?: string;
  event: string;
  data: unknown;
}

export interface SvcClientOptions {
  /** The deployment address; default SVC_BASE_URL in Node, the page's own origin in a browser. */
  baseUrl?: string;
  /** A scoped API token `svc_pat_<id>_<secret>`, sent as `Authorization: Bearer`. */
  token?: string;
  /** A console session cookie for use outside a browser (`svc_session=...`); browsers send theirs themselves. */
  cookie?: string;
  /** The session's CSRF token, sent as X-CSRF-Token on every change; `session.signIn` sets it. */
  csrfToken?: string;
  /** Fetch credentials mode for browser use; default 'include' without a token. */
  credentials?: RequestCredentials;
  /** Per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
}

export interface WaitOptions<J = InstallJob> {
  /** Poll interval in milliseconds; SPEC.md's default is 5 s. */
  intervalMs?: number;
  /** Give up (SvcTimeoutError) after this long; default 10 minutes. */
  timeoutMs?: number;
  /** Called with every polled job, for progress. */
  onProgress?: (job: J) => void;
}
