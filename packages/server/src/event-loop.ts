import { monitorEventLoopDelay } from 'node:perf_hooks';

/** This process's event-loop delay (milliseconds): what exceeds the monitor's sampling interval, since the last reset. */
export interface EventLoopDelay {
  read(): { p50: number; p90: number; p99: number; max: number };
  reset(): void;
  stop(): void;
}

/**
 * This process's event-loop delay, sampled every 10 ms from now on. The monitor records the interval between its
 * timer's turns, so the delay is what exceeds those 10 ms. `read` answers milliseconds since the last `reset`.
 */
export function eventLoopDelay(): EventLoopDelay {
  const RESOLUTION_MS = 10;
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();
  const ms = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : 0);
  return {
    read: () => ({ p50: ms(loop.percentile(50)), p90: ms(loop.percentile(90)), p99: ms(loop.percentile(99)), max: ms(loop.max) }),
    reset: () => loop.reset(),
    stop: () => loop.disable(),
  };
}
