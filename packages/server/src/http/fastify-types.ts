import type { Caller } from '../auth/caller.js';
import type { Scope } from '../auth/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a caller needs; absent only on public routes. */
    scope?: Scope;
    /** True for routes anyone may call (health, the document, sign-in). */
    public?: boolean;
  }
  interface FastifyRequest {
    caller?: Caller;
  }
}

export {};
