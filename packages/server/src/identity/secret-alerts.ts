/** Expiry alerts fire at 90, 30 and 7 days remaining (SPEC.md, credential operations). */
export const ALERT_THRESHOLDS = [90, 30, 7] as const;
const DAY_MS = 86_400_000;

export interface ExpiryAlert {
  /** The threshold crossed: 90, 30 or 7 days, or 0 once expired. */
  threshold: 90 | 30 | 7 | 0;
  level: 'notice' | 'warning' | 'critical' | 'expired';
  daysRemaining: number;
}

/** The alert a secret expiring at `expiresAt` raises at `now`, or undefined while more than 90 days remain. */
export function expiryAlert(expiresAt: Date, now: Date): ExpiryAlert | undefined {
  const days = (expiresAt.getTime() - now.getTime()) / DAY_MS;
  const daysRemaining = Math.max(0, Math.floor(days));
  if (days <= 0) return { threshold: 0, level: 'expired', daysRemaining: 0 };
  if (days <= 7) return { threshold: 7, level: 'critical', daysRemaining };
  if (days <= 30) return { threshold: 30, level: 'warning', daysRemaining };
  if (days <= 90) return { threshold: 90, level: 'notice', daysRemaining };
  return undefined;
}
