import type { CloudProfile } from '../cloud/profiles.js';
import { BackingError, HostNotAllowedError } from '../backends/http-pipeline.js';
import { GateError, ServiceError, type RemediationGate } from '../errors.js';
import { gate } from '../provisioning/gates.js';

/** The tenant setting that governs each export format (exact names of the Export and sharing settings). */
export const EXPORT_SETTINGS: Record<string, string> = {
  PDF: 'Export reports as PowerPoint presentations or PDF documents',
  ACCESSIBLEPDF: 'Export reports as PowerPoint presentations or PDF documents',
  PPTX: 'Export reports as PowerPoint presentations or PDF documents',
  DOCX: 'Export reports as Word documents',
  XLSX: 'Export to Excel',
  CSV: 'Export to .csv',
  XML: 'Export reports as XML documents',
  MHTML: 'Export reports as MHTML documents',
  IMAGE: 'Export reports as image files',
};

/** Error codes (top-level or pbi.error detail codes) that mean a capacity or licence refusal. */
const CAPACITY_CODES = new Set(['FeatureNotAvailableError', 'LicenseRequired', 'CapacityNotFound', 'NotSupportedOnPPU', 'PPUExportRateLimit']);
/** Codes that mean a tenant setting is off. */
const SETTING_CODES = new Set(['FeatureDisabledByTenantSetting']);
/** 403 detail codes that are a refusal of this request, not of the service's identity. */
const REQUEST_CODES = new Set(['NotDatasourceOwner']);

/** The codes of a reporting-service error body: the top code and each pbi.error detail code. */
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

/** The reporting service refused a call: its status for client errors (502 otherwise), its text unmodified, its code in the hint. */
export class ReportingRefused extends ServiceError {
  constructor(readonly cause: BackingError, status: number, code: string) {
    super(status, code, cause.body || cause.message, {
      hint: `the reporting service answered ${cause.status || 'no status'}${cause.code ? ` ${cause.code}` : ''}`,
      ...(status === 429 ? { retryAfter: 30 } : {}),
    });
  }
}

/**
 * The gate a reporting-service refusal calls for, decided by status and error codes (the top code and pbi.error's detail
 * codes), never by text: a tenant setting that is off (named by the operation's `setting`); a capacity or licence
 * refusal; any other 401/403 for the service identity. Undefined when the refusal is not a gate.
 */
export function reportingGate(err: BackingError, profile: CloudProfile, setting?: string): RemediationGate | undefined {
  const codes = codesOf(err);
  if (codes.some((c) => SETTING_CODES.has(c))) return gate('reporting-tenant-setting', profile, { setting });
  if (codes.some((c) => CAPACITY_CODES.has(c))) return gate('reporting-capacity', profile);
  if ((err.status === 401 || err.status === 403) && !codes.some((c) => REQUEST_CODES.has(c))) return gate('reporting-auth', profile);
  return undefined;
}

/**
 * Turns a reporting-service failure into the service's answer: a gate → 424; 404/409 → the same status; 429 → 429;
 * other client errors → 400; the rest → 502. The backing text is kept unmodified as the message.
 */
export function reportingFailure(err: unknown, profile: CloudProfile, context: { setting?: string } = {}): never {
  if (!(err instanceof BackingError)) throw err;
  if (err instanceof HostNotAllowedError) throw new ReportingRefused(err, 502, 'host_not_allowed');
  const g = reportingGate(err, profile, context.setting);
  if (g) throw new GateError(g, err.body || err.message);
  if (err.status === 404) throw new ReportingRefused(err, 404, 'not_found');
  if (err.status === 409) throw new ReportingRefused(err, 409, 'conflict');
  if (err.status === 429) throw new ReportingRefused(err, 429, 'rate_limited');
  if (err.status >= 400 && err.status < 500) throw new ReportingRefused(err, 400, 'reporting_refused');
  throw new ReportingRefused(err, 502, 'backing_refused');
}
