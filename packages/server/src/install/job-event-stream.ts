import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One stored job event, as the store reads it. */
export interface StoredJobEvent {
  seq: number;
  kind: string;
  data: unknown;
  at: string;
}

/**
 * Streams a job's events as server-sent events, replaying after Last-Event-ID, until the job's last `done` or `failed`
 * event (or the job is no longer running). `events` answers 404 before the stream opens for a job the caller cannot see.
 */
export async function streamJobEvents(
  req: FastifyRequest,
  reply: FastifyReply,
  source: { events(after: number): Promise<StoredJobEvent[]>; running(): Promise<boolean> },
): Promise<void> {
  let after = Number(req.headers['last-event-id'] ?? 0);
  const first = await source.events(after); // 404 before the stream opens
  reply.hijack();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders), // what the hooks set before the stream (the security headers)
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': req.id,
  });
  let closed = false;
  req.raw.on('close', () => {
    closed = true;
  });
  const send = (batch: StoredJobEvent[]) => {
    for (const e of batch) {
      reply.raw.write(`id: ${e.seq}\nevent: ${e.kind}\ndata: ${JSON.stringify({ ...(e.data as object), at: e.at })}\n\n`);
      after = e.seq;
    }
    // The stream ends with the job: a done or failed event that is the last one so far (a step retry re-opens a
    // finished job, so a replay can hold an earlier run's done followed by more events).
    if (batch.length && ['done', 'failed'].includes(batch.at(-1)!.kind)) closed = true;
  };
  let batch = first;
  for (;;) {
    send(batch);
    if (closed) break;
    if (!batch.length) {
      // A finished job whose events were all sent already (Last-Event-ID at or past its end): the stream ends with
      // whatever came last, instead of polling for events that will never come.
      if (!(await source.running().catch(() => false))) {
        send(await source.events(after).catch(() => []));
        break;
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    batch = await source.events(after).catch(() => []);
  }
  reply.raw.end();
}
