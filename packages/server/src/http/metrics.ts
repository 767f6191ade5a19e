import type { FastifyInstance } from 'fastify';
import { eventLoopDelay } from '../event-loop.js';
import type { Metrics } from '../metrics.js';
import { sharedStepCounts } from '../provisioning/live-lock.js';
import type { NamedLocks } from '../store/named-locks.js';
import type { PoolWait } from '../store/pool-wait.js';

/**
 * Times every routed request into the metrics, and reports the event loop's delay and the waits for a database
 * connection since the previous scrape, the statements sent to the database, and how long steps waited for a live
 * resource's lock another install held.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, poolWait: PoolWait, locks: NamedLocks, statements: () => number) {
  const loop = eventLoopDelay();
  metrics.gauge('svc_db_statements', "Statements this process's database connections have sent, since the start", () => [
    { labels: {}, value: statements() },
  ]);
  metrics.gauge('svc_event_loop_delay_seconds', 'Event-loop delay of this process since the previous scrape (quantiles and max)', () => {
    const { p50, p99, max } = loop.read();
    loop.reset();
    return [
      { labels: { quantile: '0.5' }, value: p50 / 1000 },
      { labels: { quantile: '0.99' }, value: p99 / 1000 },
      { labels: { quantile: '1' }, value: max / 1000 },
    ];
  });
  let pool = poolWait.snapshot();
  // Installs that make or remove the same resource (one app in workspaces sharing a platform workspace or target) take
  // turns on its lock (provisioning/live-lock.ts): time spent so is bound by the shared resource, not by this process.
  metrics.gauge(
    'svc_live_lock_wait_seconds',
    "Seconds this process's steps have waited for a live resource's lock, since the start",
    () => [{ labels: {}, value: locks.waits().seconds }],
  );
  metrics.gauge('svc_live_lock_waits', "Steps of this process that waited (over 5 ms) for a live resource's lock, since the start", () => [
    { labels: {}, value: locks.waits().count },
  ]);
  metrics.gauge(
    'svc_live_lock_install_steps',
    "Install steps of this process since the start, by the live resource's lock they finished under: shared (beside other installs of it) or exclusive (run again alone, as they needed a call that writes)",
    () => {
      const { shared, exclusive } = sharedStepCounts();
      return [
        { labels: { lock: 'shared' }, value: shared },
        { labels: { lock: 'exclusive' }, value: exclusive },
      ];
    },
  );
  metrics.gauge(
    'svc_db_pool_wait_seconds',
    "Waits for a connection of this process's database pool since the previous scrape (quantiles, as their histogram bucket's upper bound)",
    () => {
      const q = (p: number) => poolWait.quantileSince(pool, p) / 1000;
      const values = [
        { labels: { quantile: '0.5' }, value: q(0.5) },
        { labels: { quantile: '0.99' }, value: q(0.99) },
        { labels: { quantile: '1' }, value: q(1) },
      ];
      pool = poolWait.snapshot();
      return values;
    },
  );
  app.addHook('onClose', async () => loop.stop());
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
