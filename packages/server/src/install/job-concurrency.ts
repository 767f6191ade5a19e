import { eventLoopDelay } from '../event-loop.js';
import type { PoolWait } from '../store/pool-wait.js';

/** What the job concurrency is steered by, each read since its previous read. */
export interface LoadSignals {
  /** The event-loop delay's p99 in ms. */
  loopDelayMs(): number;
  /** The p99 of the waits for a database connection, in ms. */
  dbWaitMs(): number;
  stop(): void;
}

/** The process's own signals: its event-loop delay and its store pool's waits. */
export function processSignals(poolWait: PoolWait): LoadSignals {
  const loop = eventLoopDelay();
  let pool = poolWait.snapshot();
  return {
    loopDelayMs: () => {
      const p99 = loop.read().p99;
      loop.reset();
      return p99;
    },
    dbWaitMs: () => {
      const p99 = poolWait.quantileSince(pool, 0.99);
      pool = poolWait.snapshot();
      return p99;
    },
    stop: () => loop.stop(),
  };
}

/** Jobs added to the count in a window whose signals stayed under target. */
const GROWTH = 2;
/** Signals under this share of their targets leave room for more: the count then grows by a quarter (at least GROWTH). */
const IDLE_SHARE = 0.25;

export interface JobConcurrencyOptions {
  /** The fewest jobs at once (where it starts); never above max. */
  min: number;
  /** The ceiling. */
  max: number;
  /** Over this event-loop delay p99 (ms) in a window, the count goes down. */
  loopDelayTargetMs: number;
  /** Over this p99 wait for a database connection (ms) in a window, the count goes down. */
  dbWaitTargetMs: number;
  /** How often the count is reconsidered. */
  windowMs: number;
}

/** One reconsideration of the count: what was measured and what the count became. */
export interface ConcurrencyDecision {
  loopDelayMs: number;
  dbWaitMs: number;
  heldBack: boolean;
  limit: number;
}

/**
 * How many jobs the worker may run at once. Each window it reads the event-loop delay and the database pool's wait: when
 * both stayed under their targets and the worker had work it left unclaimed because of the count, the count grows: by a
 * quarter while both stayed under a quarter of their targets (an idle process), else by two; when either went over, it
 * shrinks by a quarter. Between `min` and `max`; with min = max it is fixed. Running jobs are never stopped: a lower
 * count only holds back new claims, so near the targets the count grows by steps (a job's load shows in the signals a
 * few seconds after its claim; growing by a share of the count there overshot, to 50 jobs, on a loaded machine).
 */
export class JobConcurrency {
  private current: number;
  private heldBack = false;
  private timer?: NodeJS.Timeout;
  private readonly min: number;

  constructor(
    private readonly options: JobConcurrencyOptions,
    private readonly signals?: LoadSignals,
    /** Called when the count grew, so the worker claims at once. */
    private readonly onRaise: () => void = () => undefined,
  ) {
    this.min = Math.min(options.min, options.max);
    this.current = this.min;
  }

  get limit(): number {
    return this.current;
  }

  get max(): number {
    return this.options.max;
  }

  /** The worker stopped claiming because of the count (there may be more work). */
  reachedLimit(): void {
    this.heldBack = true;
  }

  start(): void {
    if (this.min === this.options.max || !this.signals || this.timer) return;
    this.timer = setInterval(() => this.reconsider(), this.options.windowMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.signals?.stop();
  }

  /** Reads the signals of the window that just ended and sets the count from them. */
  reconsider(): ConcurrencyDecision {
    const loopDelayMs = this.signals?.loopDelayMs() ?? 0;
    const dbWaitMs = this.signals?.dbWaitMs() ?? 0;
    const heldBack = this.heldBack;
    this.heldBack = false;
    const before = this.current;
    if (loopDelayMs > this.options.loopDelayTargetMs || dbWaitMs > this.options.dbWaitTargetMs) {
      this.current = Math.max(this.min, Math.floor(before * 0.75));
    } else if (heldBack) {
      const idle = loopDelayMs <= this.options.loopDelayTargetMs * IDLE_SHARE && dbWaitMs <= this.options.dbWaitTargetMs * IDLE_SHARE;
      this.current = Math.min(this.options.max, before + (idle ? Math.max(GROWTH, Math.ceil(before / 4)) : GROWTH));
    }
    if (this.current > before) this.onRaise();
    return { loopDelayMs, dbWaitMs, heldBack, limit: this.current };
  }
}

/** The worker's concurrency from its settings (SVC_WORKER_JOBS and the rest), steered by this process's own signals. */
export function adaptiveConcurrency(
  settings: { workerJobs: number; workerJobsMin: number; workerLoopDelayMs: number; workerDbWaitMs: number },
  poolWait: PoolWait,
  onRaise: () => void,
): JobConcurrency {
  const options = {
    min: settings.workerJobsMin,
    max: settings.workerJobs,
    loopDelayTargetMs: settings.workerLoopDelayMs,
    dbWaitTargetMs: settings.workerDbWaitMs,
    // Half a second: a burst of work reaches its count in half the time; the signals of a window still hold 50 samples of
    // the loop's delay.
    windowMs: 500,
  };
  // A fixed count (min = max) measures nothing.
  return new JobConcurrency(options, options.min >= options.max ? undefined : processSignals(poolWait), onRaise);
}
