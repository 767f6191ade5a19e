import type { Metrics } from '../metrics.js';

const DAY_MS = 86_400_000;

export interface ExpiryAlert {
  /** The threshold crossed: 90, 30 or 7 days, or 0 once expired. */
  threshold: 90 | 30 | 7 | 0;
  level: 'notice' | 'warning' | 'critical' | 'expired';
  daysRemaining: number;
}

/** Expiry alerts fire at 90, 30 and 7 days remaining (SPEC.md, credential operations), and once expired; widest first. */
const LEVELS: ReadonlyArray<Pick<ExpiryAlert, 'threshold' | 'level'>> = [
  { threshold: 90, level: 'notice' },
  { threshold: 30, level: 'warning' },
  { threshold: 7, level: 'critical' },
  { threshold: 0, level: 'expired' },
];

/** The alert a secret expiring at `expiresAt` raises at `now` (the tightest threshold reached), or undefined while more than 90 days remain. */
export function expiryAlert(expiresAt: Date, now: Date): ExpiryAlert | undefined {
  const days = (expiresAt.getTime() - now.getTime()) / DAY_MS;
  const reached = LEVELS.filter((l) => days <= l.threshold).at(-1);
  return reached && { ...reached, daysRemaining: Math.max(0, Math.floor(days)) };
}

/**
 * The secret-expiry gauges of /metrics, over every tenant's registered secrets: how many are inside each alert
 * threshold, how many are registered, and the days until the soonest expiry. Counts only: a scrape never shows a
 * client id, key id, credential name or tenant.
 */
export function registerExpiryGauges(metrics: Metrics, expiries: () => Date[], now: () => Date): void {
  metrics.gauge(
    'svc_identity_secret_expiry_alerts',
    'Registered secrets inside each expiry alert threshold (90, 30, 7 days; 0 = expired), every tenant together',
    () => {
      const at = now();
      const alerts = expiries()
        .map((e) => expiryAlert(e, at))
        .filter((a) => a !== undefined);
      return LEVELS.map(({ threshold, level }) => ({
        labels: { threshold: String(threshold), level },
        value: alerts.filter((a) => a.level === level).length,
      }));
    },
  );
  metrics.gauge('svc_identity_secrets_registered', 'Registered service-principal secrets, every tenant together', () => [
    { labels: {}, value: expiries().length },
  ]);
  metrics.gauge(
    'svc_identity_secret_soonest_expiry_days',
    'Days until the soonest expiry of a registered secret (negative once expired); absent when none is registered',
    () => {
      const soonest = expiries().reduce((min, e) => Math.min(min, e.getTime()), Infinity);
      return Number.isFinite(soonest) ? [{ labels: {}, value: Math.floor((soonest - now().getTime()) / DAY_MS) }] : [];
    },
  );
}
