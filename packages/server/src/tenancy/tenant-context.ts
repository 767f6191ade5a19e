import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<{ tenantId: string }>();

/**
 * The tenant whose work is running: a request's caller, or the install job a worker runs. Whatever that work records
 * on the way (an identity signal of a refused backing call) is the tenant's, and only its admins see it.
 */
export const tenantContext = {
  /** Runs `fn` (and everything it starts) as the tenant's work. */
  run<T>(tenantId: string, fn: () => T): T {
    return storage.run({ tenantId }, fn);
  },
  /** The tenant of the running work, or undefined for the deployment's own (start-up checks, sweeps). */
  current(): string | undefined {
    return storage.getStore()?.tenantId;
  },
};
