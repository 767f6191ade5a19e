/** The scopes a token or session can carry. `admin` implies every other scope. */
export const SCOPES = ['read', 'write', 'install', 'reports', 'tokens', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'read workspaces, items, apps, install jobs and the thread',
  write: 'create, change and delete workspaces, items and thread edges',
  install: 'install curated apps and retry install steps',
  reports: 'list, read, publish and export paginated reports',
  tokens: 'create, list and revoke API tokens',
  admin: 'everything, plus platform bindings and identity operations',
};

/** True when the held scopes grant `needed`. */
export function hasScope(held: readonly string[], needed: Scope): boolean {
  return held.includes('admin') || held.includes(needed);
}

/** The effective scopes: admin expands to every scope. */
export function expandScopes(held: readonly string[]): Scope[] {
  return held.includes('admin') ? [...SCOPES] : SCOPES.filter((s) => held.includes(s));
}
