/**
 * Background work (the install worker) gives the event loop back to requests: at its pause points it waits its turn,
 * and each turn of the event loop releases waiting work for at most SLICE_MS before the loop goes back to I/O
 * (incoming requests and their database answers), so a poll is never queued behind a whole wave of install steps.
 */
const SLICE_MS = 3;
const waiting: Array<() => void> = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(turn);
}

function turn(): void {
  scheduled = false;
  const started = performance.now();
  // Each released continuation runs (as a microtask) before the next check of the clock.
  const next = () => {
    if (!waiting.length) return;
    if (performance.now() - started >= SLICE_MS) return schedule();
    waiting.shift()!();
    queueMicrotask(next);
  };
  next();
}

/** A pause point of background work: resolves in a later turn of the event loop, in arrival order. */
export function pauseForRequests(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
