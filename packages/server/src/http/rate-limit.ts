import { isIPv6 } from 'node:net';
import { RateLimitError } from '../errors.js';

/** A token bucket per key (a caller, or a client address): `perMinute` requests a minute with bursts up to the same number. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number) {}

  /** Takes one request from the key's bucket; returns 0, or the seconds to wait when it is empty. */
  take(key: string, now = Date.now()): number {
    const rate = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.buckets.clear();
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
  }

  /** Takes one request from the key's bucket, or throws 429 with the seconds to wait (Retry-After). */
  limit(key: string): void {
    const wait = this.take(key);
    if (wait > 0) throw new RateLimitError(wait);
  }
}

/**
 * The bucket of a client address: an IPv4 address itself, an IPv6 address its /64, since one subscriber is handed a
 * whole /64 and could otherwise take a fresh budget with every address of it.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const before = groups(head);
  const after = groups(tail);
  const all = tail === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
