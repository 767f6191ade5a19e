import type { Scope } from './scopes.js';

/** Who is calling: resolved once per request by the authentication hook. */
export interface Caller {
  tenantId: string;
  userId: string;
  userName: string;
  /** The user principal name the identity provider gave the user (for a token, its owner's), when known. */
  upn?: string;
  method: 'token' | 'session';
  /** The API token used directly, or the one the console session was opened with. */
  tokenId?: string;
  scopes: Scope[];
  /** The session's CSRF token when the caller came with the console cookie. */
  csrfToken?: string;
  sessionIdHash?: string;
  /** The identity provider's group ids of a signed-in user (a token carries none). */
  groups?: string[];
  /** The workspaces a limited token (or a session opened with one) may reach; absent for unlimited. */
  workspaceIds?: string[];
}
