/**
 * The scopes a token or session can carry. The tenant's scopes end with `admin`, which implies the others of the
 * tenant; `metrics` and `operator` are deployment-wide (`operator` implies `metrics`) and never implied by `admin`:
 * a tenant's administrator does not manage the deployment.
 */
export const TENANT_SCOPES = ['read', 'write', 'install', 'reports', 'tokens', 'admin'] as const;
const DEPLOYMENT_SCOPES = ['metrics', 'operator'] as const;
export const SCOPES = [...TENANT_SCOPES, ...DEPLOYMENT_SCOPES] as const;
export type Scope = (typeof SCOPES)[number];
export type TenantScope = (typeof TENANT_SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'read workspaces, items, apps, install jobs and the thread',
  write: 'create, change and delete workspaces, items and thread edges',
  install: 'install curated apps and retry install steps',
  reports: 'list, read, publish and export paginated reports',
  tokens: 'create, list and revoke your own API tokens',
  admin: 'everything in the tenant, plus platform bindings, dedicated installs, every token of the tenant and identity operations',
  metrics: 'read the deployment’s Prometheus metrics',
  operator: 'the deployment: tenants, the platform workspaces and targets each may use, every tenant’s identity signals, metrics',
};

const isTenantScope = (s: string): s is TenantScope => (TENANT_SCOPES as readonly string[]).includes(s);

/** True when `s` names a scope. */
export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** True when the held scopes grant `needed`. */
export function hasScope(held: readonly string[], needed: Scope): boolean {
  if (held.includes(needed)) return true;
  if (isTenantScope(needed)) return held.includes('admin');
  return needed === 'metrics' && held.includes('operator');
}

/** The effective scopes: admin expands to every tenant scope, operator adds metrics. */
export function expandScopes(held: readonly string[]): Scope[] {
  return SCOPES.filter((s) => hasScope(held, s));
}
