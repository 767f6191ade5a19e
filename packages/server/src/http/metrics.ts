import type { FastifyInstance } from 'fastify';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Metrics } from '../metrics.js';

/**
 * This process's event-loop delay, sampled every 10 ms from now on. The monitor records the interval between its
 * timer's turns, so the delay is what exceeds those 10 ms. `read` answers milliseconds since the last `reset`.
 */
export function eventLoopDelay() {
  const RESOLUTION_MS = 10;
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();
  const ms = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : 0);
  return {
    read: () => ({ p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) }),
    reset: () => loop.reset(),
    stop: () => loop.disable(),
  };
}

/** Times every routed request into the metrics, and reports the event loop's delay since the previous scrape. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics) {
  const loop = eventLoopDelay();
  metrics.gauge('svc_event_loop_delay_seconds', 'Event-loop delay of this process since the previous scrape (quantiles and max)', () => {
    const { p50, p99, max } = loop.read();
    loop.reset();
    return [
      { labels: { quantile: '0.5' }, value: p50 / 1000 },
      { labels: { quantile: '0.99' }, value: p99 / 1000 },
      { labels: { quantile: '1' }, value: max / 1000 },
    ];
  });
  app.addHook('onClose', async () => loop.stop());
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
