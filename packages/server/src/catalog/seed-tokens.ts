/** Matches one install-time clock token: `${now}`, `${now-5m}`, `${now+2h}` (units s, m, h, d). */
export const NOW_TOKEN = /\$\{now(?:([+-])(\d+)([smhd]))?\}/g;

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** True when the whole string is exactly one clock token. */
export function isNowToken(s: string): boolean {
  return /^\$\{now(?:[+-]\d+[smhd])?\}$/.test(s);
}

/** The ISO-8601 UTC instant a clock token names, relative to `now`. */
function resolve(now: Date, sign?: string, amount?: string, unit?: string): string {
  const offset = amount && unit ? Number(amount) * UNIT_MS[unit]! * (sign === '-' ? -1 : 1) : 0;
  return new Date(now.getTime() + offset).toISOString();
}

/** Returns a copy of `value` with every `${now±N<unit>}` token in its strings replaced by an ISO-8601 UTC timestamp; other `${…}` tokens stay. */
export function expandSeedTokens<T>(value: T, now: Date): T {
  if (typeof value === 'string') return value.replace(NOW_TOKEN, (_m, sign, amount, unit) => resolve(now, sign, amount, unit)) as T;
  if (Array.isArray(value)) return value.map((v) => expandSeedTokens(v, now)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandSeedTokens(v, now)])) as T;
  }
  return value;
}
