import type { Caller } from '../auth/caller.js';
import type { Scope } from '../auth/scopes.js';
import type { WorkspaceRole } from '../access/roles.js';
import type { StoreRow } from '../store/schema.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a caller needs; absent only on public routes. */
    scope?: Scope;
    /** True for routes anyone may call (health, the document, sign-in). */
    public?: boolean;
    /** The workspace role a caller needs (after the scope) on the workspace the request addresses. */
    role?: WorkspaceRole;
    /**
     * Where the workspace is: 'request' (default: params, query or body `workspaceId`), 'job' (the job `params.jobId`
     * ran in), or 'optional' (a list that filters by visibility when no `workspaceId` is given).
     */
    workspaceOf?: 'request' | 'job' | 'optional';
  }
  interface FastifyRequest {
    caller?: Caller;
    /**
     * The job a `workspaceOf: 'job'` route names, as its access check read it (the caller's tenant's, and allowed): the
     * handler answers from it instead of reading it again. A job poll is then one statement.
     */
    job?: StoreRow<'install_jobs'>;
  }
}

export {};
