// The per-process limiter of calls to a throttled backing service. It knows only what the real services send: a 429
// and its Retry-After. Until the first 429 it does nothing; a 429 holds every caller of that service, host and identity
// until Retry-After has passed and sets the pace to the rate the service was found to allow; while callers wait for
// that pace it is raised slowly, so the limit follows the quota without hammering it.
import type { Semaphore } from '../semaphore.js';

/** A pace is learned only from at least this many answers: fewer say little about a quota (the 429 still pauses). */
const MIN_ANSWERS = 10;
/** Slowest pace ever set (calls per second), so a pace learned from a few answers still moves. */
const MIN_RATE = 0.2;
/**
 * The pace after a 429 is this share of the highest rate the service was found to allow over the last ESTIMATES_MS,
 * so the next overshoot comes late, and 429s that come at any rate do not push the pace down one after the other.
 */
const MARGIN = 0.9;
const ESTIMATES_MS = 2 * 60_000;
/**
 * How the pace rises while callers wait for it: by 1 % a second at first, faster the longer they waited without a 429
 * (×1.22 after 10 s, ×1.8 after 20 s, ×3.3 after 30 s), so the next overshoot comes late and a pace set too low recovers.
 */
const PROBE_PER_SECOND = 0.01;
const PROBE_RAMP_MS = 10_000;
/** Calls let through at once when the pace has saved them up (seconds of the pace). */
const BURST_SECONDS = 1;
/** After this long without a 429 the pace is forgotten: the service may have raised the quota. */
const FORGET_MS = 5 * 60_000;
/**
 * Services whose 429s are about one resource, not the caller's quota (reference/reporting-service.md: a capacity's
 * concurrent renders, a PPU workspace's one export per 5 minutes, a push dataset's rows): one holds no other call.
 */
const PER_RESOURCE_429 = new Set(['reporting']);
/** How far back answers are kept for the estimate. */
const HISTORY_MS = 5 * 60_000;

/** The milliseconds a Retry-After header asks for (delta seconds or an HTTP date); undefined when absent or malformed. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (value && /^\d+$/.test(value)) return Number(value) * 1000;
  if (value && Number.isFinite(Date.parse(value))) return Math.max(0, Date.parse(value) - now);
  return undefined;
}

/**
 * The rate a service allowed, from the send times of the calls it answered before a 429 and how long it then refuses:
 * over every recent span, the calls in it over the span plus the Retry-After. A sliding-window quota lets at most its
 * limit through in any window, so the best span is about one window and the estimate is its limit over its length.
 */
export function allowedRate(answeredAt: readonly number[], now: number, blockedMs: number): number | undefined {
  let best: number | undefined;
  for (let k = 1; k <= answeredAt.length; k++) {
    const rate = (k * 1000) / Math.max(now - answeredAt[answeredAt.length - k]! + blockedMs, 1);
    if (best === undefined || rate > best) best = rate;
  }
  return best;
}

/** What one 429 changed, kept so that it can be undone when a call sent after it got through. */
interface Refusal {
  sentAt: number;
  answeredAt: number;
  pausedUntil: number;
  rate: number;
  learned: number;
  probingMs: number;
  estimated: boolean;
}

/** One backing service, host and identity as its 429s showed it: a pause, and a pace once one was learned. */
export class AdaptiveLimiter {
  /** The pace (calls per second; Infinity until a 429 taught one), the pace the last 429 set, and the wait since. */
  private rate = Number.POSITIVE_INFINITY;
  private learned = Number.POSITIVE_INFINITY;
  private probingMs = 0;
  private probedAt: number | undefined;
  private tokens = 1;
  private refilledAt = 0;
  private pausedUntil = 0;
  private throttledAt = Number.NEGATIVE_INFINITY;
  private last: Refusal | undefined;
  /** How many 429s this limiter has seen: a call let go before the latest one waits again. */
  private refusals = 0;
  /** Answers since the last 429: none means the pause ended before the service's block did, not that the pace was fast. */
  private answeredSinceRefusal = 0;
  private readonly answeredAt: number[] = [];
  private readonly estimates: Array<{ at: number; rate: number }> = [];
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The longest Retry-After honoured (a longer one is cut to this). */
    private readonly pauseMaxMs: number,
    /** The pause after a 429 without Retry-After. */
    private readonly defaultPauseMs: number,
  ) {}

  /** A mark of the 429s seen so far, for refusedSince(). */
  mark(): number {
    return this.refusals;
  }

  /** Whether a 429 came since mark() answered `mark`. */
  refusedSince(mark: number): boolean {
    return this.refusals !== mark;
  }

  /** Resolves when a call may be sent: at once while the service never refused, else after any pause and at the pace. */
  acquire(): Promise<void> | undefined {
    const now = Date.now();
    if (this.rate !== Number.POSITIVE_INFINITY && now - this.throttledAt > FORGET_MS) {
      this.rate = this.learned = Number.POSITIVE_INFINITY;
      this.estimates.length = 0;
    }
    if (!this.waiting.length && this.take(now) === 0) return undefined;
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.timer) this.pump();
    });
  }

  /** Learns from the answer (status 0: none) to a call sent at `sentAt`, after acquire() let it go. */
  settle(sentAt: number, status: number, retryAfter: string | null | undefined): void {
    const now = Date.now();
    if (status === 429) this.refused(sentAt, now, Math.min(retryAfterMs(retryAfter, now) ?? this.defaultPauseMs, this.pauseMaxMs));
    else if (status !== 0) this.answered(sentAt, now);
  }

  /**
   * A 429 pauses every caller until its Retry-After has passed and sets the pace below the rate the service allowed.
   * One to a call sent before the last 429 arrived, or with nothing answered since, only extends the pause.
   */
  private refused(sentAt: number, now: number, blockedMs: number): void {
    const refusal: Refusal = {
      sentAt,
      answeredAt: now,
      pausedUntil: this.pausedUntil,
      rate: this.rate,
      learned: this.learned,
      probingMs: this.probingMs,
      estimated: false,
    };
    if (sentAt >= this.throttledAt && this.answeredSinceRefusal > 0 && this.answeredAt.length >= MIN_ANSWERS) {
      // A Retry-After in whole seconds is the block rounded up: the estimate takes the middle of its last second.
      this.estimates.push({ at: now, rate: allowedRate(this.answeredAt, now, Math.max(0, blockedMs - 500))! });
      while (now - this.estimates[0]!.at > ESTIMATES_MS) this.estimates.shift();
      refusal.estimated = true;
      const pace = Math.max(MIN_RATE, MARGIN * Math.max(...this.estimates.map((e) => e.rate)));
      if (pace < this.rate) {
        this.rate = this.learned = pace;
        this.probingMs = 0;
      }
    }
    this.last = refusal;
    this.throttledAt = now;
    this.refusals++;
    this.answeredSinceRefusal = 0;
    if (now + blockedMs > this.pausedUntil) {
      this.pausedUntil = now + blockedMs;
      this.tokens = 1;
      this.refilledAt = this.pausedUntil;
    }
    if (this.waiting.length) this.reschedule();
  }

  /**
   * An answer counts toward the estimate. One to a call sent after the last refused call, before its 429 came back,
   * shows the service was not refusing everything (a 429 of its own, not the quota's): that 429's pause and pace go.
   */
  private answered(sentAt: number, now: number): void {
    this.answeredAt.push(sentAt);
    this.answeredSinceRefusal++;
    while (this.answeredAt.length > 4096 || now - this.answeredAt[0]! > HISTORY_MS) this.answeredAt.shift();
    const last = this.last;
    if (!last || sentAt <= last.sentAt || sentAt >= last.answeredAt) return;
    this.last = undefined;
    this.pausedUntil = last.pausedUntil;
    this.rate = last.rate;
    this.learned = last.learned;
    this.probingMs = last.probingMs;
    if (last.estimated) this.estimates.pop();
    if (this.waiting.length) this.reschedule();
  }

  /** Takes a call's token when the pace has one: 0, or the milliseconds until one is there. */
  private take(now: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.rate === Number.POSITIVE_INFINITY) return 0;
    this.tokens = Math.min(Math.max(1, this.rate * BURST_SECONDS), this.tokens + ((now - this.refilledAt) * this.rate) / 1000);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens--;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }

  /** Lets waiting callers through in arrival order as pause and pace allow; raises the pace while they wait for it. */
  private pump(): void {
    this.timer = undefined;
    while (this.waiting.length) {
      const now = Date.now();
      this.probe(now);
      const wait = this.take(now);
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), wait);
        return;
      }
      this.waiting.shift()!();
    }
    this.probedAt = undefined;
  }

  private reschedule(): void {
    clearTimeout(this.timer);
    this.pump();
  }

  /** Callers are waiting for the pace (not for a pause): the service may allow more, so the pace rises. */
  private probe(now: number): void {
    if (now < this.pausedUntil || this.rate === Number.POSITIVE_INFINITY) {
      this.probedAt = undefined;
      return;
    }
    if (this.probedAt !== undefined) {
      this.probingMs += now - this.probedAt;
      this.rate = this.learned * Math.exp((PROBE_PER_SECOND * this.probingMs * (1 + this.probingMs / PROBE_RAMP_MS)) / 1000);
    }
    this.probedAt = now;
  }
}

/** Every limiter of the process, one per backing service, host and identity; none when turned off. */
export class AdaptiveLimiters {
  private readonly byKey = new Map<string, AdaptiveLimiter>();

  constructor(
    readonly enabled: boolean,
    private readonly pauseMaxMs: number,
    private readonly defaultPauseMs: number,
  ) {}

  /** The limiter of calls to `service` at `host` as `identity` (undefined when limiting is off). */
  of(service: string, host: string, identity: string): AdaptiveLimiter | undefined {
    if (!this.enabled || PER_RESOURCE_429.has(service)) return undefined;
    const key = `${service} ${host} ${identity}`;
    let limiter = this.byKey.get(key);
    if (!limiter) this.byKey.set(key, (limiter = new AdaptiveLimiter(this.pauseMaxMs, this.defaultPauseMs)));
    return limiter;
  }
}

const REFUSED_WHILE_WAITING = Symbol('refused while waiting');

/**
 * The slots of a service behind its limiter: run() runs a call in one of `slots` once the limiter lets it go. A call let
 * go before a 429 that came while it waited for its slot goes back to the limiter, so the calls queued for slots do not
 * reach the service while it refuses.
 */
export function throttled(limiter: AdaptiveLimiter | undefined, slots: Semaphore): Pick<Semaphore, 'run'> {
  if (!limiter) return slots;
  return {
    async run<T>(call: () => Promise<T>): Promise<T> {
      for (;;) {
        await limiter.acquire();
        const mark = limiter.mark();
        const answer = await slots.run(async () => (limiter.refusedSince(mark) ? REFUSED_WHILE_WAITING : call()));
        if (answer !== REFUSED_WHILE_WAITING) return answer as T;
      }
    },
  };
}
