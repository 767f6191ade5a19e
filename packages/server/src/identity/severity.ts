/** A recorded identity signal, as severity rules read it. */
export interface SignalPoint {
  principal: string;
  status: number;
  code?: string | null;
  at: Date;
}

/** What the operator knows beyond the signals (SPEC.md's severity triggers that signals cannot show). */
export interface SeverityFacts {
  productionPipelineHalted?: boolean;
  complianceReportingBlocked?: boolean;
  tenantWidePolicyMisconfiguration?: boolean;
  singleWorkspaceDown?: boolean;
  primaryCicdIdentityBroken?: boolean;
  /** Minutes one production pipeline has been failing on authentication. */
  productionPipelineAuthFailingMinutes?: number;
  guestWithoutAccess?: boolean;
  nonProduction?: boolean;
  /** Documentation or UX issue with no production impact. */
  noProductionImpact?: boolean;
}

export type Severity = 'SEV1' | 'SEV2' | 'SEV3' | 'SEV4';

const WINDOW_MS = 5 * 60_000;

/** The most distinct principals failing within any 5-minute window, and when that window started. */
function peakDistinctPrincipals(signals: SignalPoint[]): { count: number; from?: Date } {
  const sorted = [...signals].sort((a, b) => a.at.getTime() - b.at.getTime());
  let best = { count: 0, from: undefined as Date | undefined };
  const inWindow = new Map<string, number>();
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    const e = sorted[end]!;
    inWindow.set(e.principal, (inWindow.get(e.principal) ?? 0) + 1);
    while (e.at.getTime() - sorted[start]!.at.getTime() > WINDOW_MS) {
      const p = sorted[start++]!.principal;
      const n = inWindow.get(p)! - 1;
      if (n) inWindow.set(p, n);
      else inWindow.delete(p);
    }
    if (inWindow.size > best.count) best = { count: inWindow.size, from: sorted[start]!.at };
  }
  return best;
}

/** SPEC.md's severity classification from the recorded signals and the facts the operator states. */
export function classifySeverity(signals: SignalPoint[], facts: SeverityFacts = {}): { severity: Severity; reasons: string[] } {
  const peak = peakDistinctPrincipals(signals);
  const sev1: string[] = [];
  if (peak.count > 10) sev1.push(`${peak.count} distinct principals failed within 5 minutes (from ${peak.from!.toISOString()})`);
  if (facts.productionPipelineHalted) sev1.push('a production pipeline is halted');
  if (facts.complianceReportingBlocked) sev1.push('compliance reporting is blocked');
  if (facts.tenantWidePolicyMisconfiguration) sev1.push('a tenant-wide policy misconfiguration');
  if (sev1.length)
    return { severity: 'SEV1', reasons: [...sev1, 'check the identity provider’s status page before assuming a service-side fault'] };
  const sev2: string[] = [];
  if (facts.singleWorkspaceDown) sev2.push('a single workspace is down');
  if (facts.primaryCicdIdentityBroken) sev2.push('the primary CI/CD identity is broken');
  if ((facts.productionPipelineAuthFailingMinutes ?? 0) > 30)
    sev2.push(`a production pipeline has failed on authentication for ${facts.productionPipelineAuthFailingMinutes} minutes`);
  if (sev2.length) return { severity: 'SEV2', reasons: sev2 };
  if (facts.noProductionImpact && !signals.length)
    return { severity: 'SEV4', reasons: ['documentation or UX issue with no production impact'] };
  const sev3: string[] = [];
  const principals = new Set(signals.map((s) => s.principal));
  if (principals.size === 1 && signals.every((s) => s.status === 403)) sev3.push(`a single principal’s 403 (${[...principals][0]})`);
  else if (principals.size) sev3.push(`${principals.size} principal(s) failing, below the SEV1 and SEV2 triggers`);
  if (facts.guestWithoutAccess) sev3.push('a guest user without access');
  if (facts.nonProduction) sev3.push('a non-production identity issue');
  if (!sev3.length) sev3.push('no SEV1 or SEV2 trigger holds');
  return { severity: 'SEV3', reasons: sev3 };
}
