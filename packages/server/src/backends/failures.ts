import type { CloudProfile } from '../cloud/profiles.js';
import { GateError, ServiceError, type RemediationGate } from '../errors.js';
import { gate, type GateDetail, type GateName, type PlatformNeed } from '../provisioning/gates.js';
import { BackingError, HostNotAllowedError, transientFailure } from './http-pipeline.js';

// The one classifier of backing failures: installs (a step's result), reports and identity operations (an HTTP answer)
// all ask it what a failed backing call means. It decides by status and error codes, never by the message text.

/**
 * The gates a failed call can call for, named by the call's purpose: `auth`, the service identity refused (401/403, or a
 * T-SQL login or permission error) → that gate; `platform`, the data platform's tenant setting or the workspace role the
 * call needs; `reporting`, a reporting tenant setting that is off (the operation's `setting`), no capacity, or the identity.
 */
export type GateFamily = { auth: GateName; detail?: GateDetail } | { platform: PlatformNeed } | { reporting: { setting?: string } };

/** What a failure is judged against: the cloud (the gates' links) and the gate family of the call, if it has one. */
export interface FailureContext {
  profile: CloudProfile;
  gates?: GateFamily;
}

/** A backing status passed on to an API caller: the backing service's answer about the caller's own request. */
export type CallerStatus = 400 | 404 | 409 | 429;

/** The verdict on a failed backing call: a gate for an admin, a transient failure, or a failure (of the caller's input, when `callerStatus`). */
export type Verdict =
  | { kind: 'gate'; gate: RemediationGate; cause?: BackingError }
  | { kind: 'failed' | 'transient'; cause: BackingError; callerStatus?: CallerStatus };

/** Data-platform 401 codes that say the token itself is bad (expired, malformed), not that a grant or setting is missing. */
const PLATFORM_TOKEN_CODES = new Set(['TokenExpired', 'InvalidToken']);
/** Data-platform 403 codes that say the caller's workspace role is missing or too low. */
const PLATFORM_ROLE_CODES = new Set(['InsufficientPrivileges', 'InsufficientWorkspaceRole']);
/** Reporting codes (top-level or pbi.error detail) that mean a tenant setting is off. */
const REPORTING_SETTING_CODES = new Set(['FeatureDisabledByTenantSetting']);
/** Reporting codes that mean a capacity or licence refusal. */
const REPORTING_CAPACITY_CODES = new Set([
  'FeatureNotAvailableError',
  'LicenseRequired',
  'CapacityNotFound',
  'NotSupportedOnPPU',
  'PPUExportRateLimit',
]);
/** Reporting 403 detail codes that refuse this request, not the service's identity. */
const REPORTING_REQUEST_CODES = new Set(['NotDatasourceOwner']);
/** T-SQL error numbers that refuse the identity: login failed, object permission denied, CREATE permission denied. */
const SQL_AUTH_NUMBERS = new Set(['18456', '229', '262']);

/**
 * How an API passes on a backing refusal of the caller's request (any other failure is a 502): the statuses passed and
 * the code each is answered with; any other 4xx as 400 with `otherClientErrors`; the code of a call refused before
 * sending; and the hint's wording. The reporting operations (gate family `reporting`) answer in the paginated report
 * API's own codes; every other operation as DEFAULT_ANSWERS.
 */
interface CallerAnswers {
  passed: Partial<Record<CallerStatus, string>>;
  otherClientErrors?: string;
  hostNotAllowed: string;
  speaker?: string;
  diagnose: boolean;
}
const DEFAULT_ANSWERS: CallerAnswers = {
  passed: { 400: 'backing_refused', 404: 'backing_refused', 409: 'backing_refused' },
  hostNotAllowed: 'backing_refused',
  diagnose: true,
};
const REPORTING_ANSWERS: CallerAnswers = {
  passed: { 404: 'not_found', 409: 'conflict', 429: 'rate_limited' },
  otherClientErrors: 'reporting_refused',
  hostNotAllowed: 'host_not_allowed',
  speaker: 'the reporting service',
  diagnose: false,
};
/** How long a caller is asked to wait after a passed-on 429 (s). */
const PASSED_RETRY_AFTER_S = 30;

/** The codes of an error body: the top code and each of the reporting service's pbi.error detail codes. */
function codesOf(err: BackingError): string[] {
  const codes = err.code ? [err.code] : [];
  try {
    const body = JSON.parse(err.body);
    for (const d of body?.error?.['pbi.error']?.details ?? []) if (typeof d?.code === 'string') codes.push(d.code);
  } catch {
    /* not JSON */
  }
  return codes;
}

/** Whether the backing service refused the service identity: 401/403, or for T-SQL a login or permission error. */
const identityRefused = (err: BackingError) =>
  err.status === 401 || err.status === 403 || (err.service === 'sql' && SQL_AUTH_NUMBERS.has(err.code ?? ''));

/** The gate a failure calls for within its family, if any. */
function gateOf(err: BackingError, profile: CloudProfile, family: GateFamily): RemediationGate | undefined {
  if ('auth' in family) return identityRefused(err) ? gate(family.auth, profile, family.detail) : undefined;
  if ('platform' in family) {
    const need = family.platform;
    if (err.service !== 'data-platform') return undefined;
    if (err.status === 401 && !PLATFORM_TOKEN_CODES.has(err.code ?? '')) return gate('data-platform-tenant-setting', profile, { need });
    if (err.status === 403 && (!err.code || PLATFORM_ROLE_CODES.has(err.code))) return gate('data-platform-role', profile, { need });
    return undefined;
  }
  const codes = codesOf(err);
  if (codes.some((c) => REPORTING_SETTING_CODES.has(c)))
    return gate('reporting-tenant-setting', profile, { setting: family.reporting.setting });
  if (codes.some((c) => REPORTING_CAPACITY_CODES.has(c))) return gate('reporting-capacity', profile);
  if ((err.status === 401 || err.status === 403) && !codes.some((c) => REPORTING_REQUEST_CODES.has(c)))
    return gate('reporting-auth', profile);
  return undefined;
}

const answersOf = (context?: FailureContext) => (context?.gates && 'reporting' in context.gates ? REPORTING_ANSWERS : DEFAULT_ANSWERS);

/** The status passed on to an API caller when the backing service answered about the caller's request. */
function callerStatusOf(err: BackingError, context?: FailureContext): CallerStatus | undefined {
  const answers = answersOf(context);
  if (err.status in answers.passed) return err.status as CallerStatus;
  if (answers.otherClientErrors && err.status >= 400 && err.status < 500) return 400;
  return undefined;
}

/** The verdict on a failed backing call: its family's gate if one applies, else transient or failed. */
export function classify(err: BackingError, context?: FailureContext): Verdict {
  const g = context?.gates && gateOf(err, context.profile, context.gates);
  if (g) return { kind: 'gate', gate: g, cause: err };
  const callerStatus = callerStatusOf(err, context);
  const kind = !(err instanceof HostNotAllowedError) && transientFailure(err.status, err.code) ? 'transient' : 'failed';
  return { kind, cause: err, ...(callerStatus ? { callerStatus } : {}) };
}

/** The verdict on what a provisioner threw: a gate it raised, or a BackingError classified; undefined for anything else. */
export function verdictOf(err: unknown): Verdict | undefined {
  if (err instanceof GateError) return { kind: 'gate', gate: err.gate, ...(err.cause ? { cause: err.cause } : {}) };
  return err instanceof BackingError ? classify(err) : undefined;
}

/** Rethrows a provisioner's failed call: as a GateError when its verdict is a gate, else as it is. */
export function raiseGate(err: unknown, context: FailureContext): never {
  const v = err instanceof BackingError ? classify(err, context) : undefined;
  if (v?.kind === 'gate') throw new GateError(v.gate, backingText(v.cause!), v.cause);
  throw err;
}

/** What the backing service said, unmodified; the pipeline's description when it said nothing. */
const backingText = (err: BackingError) => err.body || err.message;

/** Where to read a diagnosis of a backing failure (identity operations). */
export function diagnosisLink(err: BackingError): string {
  const q = new URLSearchParams({ service: err.service, status: String(err.status), ...(err.code ? { code: err.code } : {}) });
  return `/api/admin/identity/diagnose?${q}`;
}

/** A backing call refused for an API caller: the status and code its verdict calls for, the backing text unmodified. */
export class BackingRefused extends ServiceError {
  constructor(
    readonly cause: BackingError,
    status: number,
    code: string,
    hint: string,
  ) {
    super(status, code, backingText(cause), { hint, ...(status === 429 ? { retryAfter: PASSED_RETRY_AFTER_S } : {}) });
  }
}

/** The API's answer to a verdict: 424 with the gate; the passed status when the caller's request was refused; else 502. */
export function answerOf(v: Verdict, context?: FailureContext): ServiceError {
  if (v.kind === 'gate') return new GateError(v.gate, v.cause && backingText(v.cause), v.cause);
  const err = v.cause;
  const answers = answersOf(context);
  const hint = `${answers.speaker ?? err.service} answered ${err.status || 'no status'}${err.code ? ` ${err.code}` : ''}${answers.diagnose ? `; diagnose at ${diagnosisLink(err)}` : ''}`;
  if (v.callerStatus) return new BackingRefused(err, v.callerStatus, answers.passed[v.callerStatus] ?? answers.otherClientErrors!, hint);
  return new BackingRefused(err, 502, err instanceof HostNotAllowedError ? answers.hostNotAllowed : 'backing_refused', hint);
}

/** Runs a backing call for an API caller (reports, identity operations); a BackingError is thrown as answerOf its verdict. */
export async function backing<T>(fn: () => Promise<T>, context?: FailureContext): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw err instanceof BackingError ? answerOf(classify(err, context), context) : err;
  }
}
