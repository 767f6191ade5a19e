/** The token audiences each emulator accepts (the commercial cloud's strings). */
export const AUDIENCES = {
  dataPlatform: ['https://analysis.windows.net/powerbi/api', 'https://api.fabric.microsoft.com'],
  arm: [
    'https://management.azure.com/',
    'https://management.azure.com',
    'https://management.core.windows.net/',
    'https://management.core.windows.net',
  ],
  kqlPublic: ['https://kusto.kusto.windows.net', 'https://kusto.kusto.windows.net/'],
  search: ['https://search.azure.com', 'https://search.azure.com/'],
  storage: ['https://storage.azure.com', 'https://storage.azure.com/'],
  sql: ['https://database.windows.net/', 'https://database.windows.net'],
  synapse: ['https://dev.azuresynapse.net', 'https://dev.azuresynapse.net/'],
} as const;

const GRAPH = 'https://graph.microsoft.com';

/**
 * The audience Entra puts in a token for a requested resource (scope without '/.default', or an MI `resource`),
 * or undefined when no such resource principal exists in the tenant (AADSTS500011).
 */
export function audienceFor(resource: string, extraResources: string[]): string | undefined {
  const r = resource.trim();
  const bare = r.replace(/\/+$/, '').toLowerCase();
  // Fabric's scope is requested on api.fabric.microsoft.com but its tokens carry the Power BI audience.
  if (bare === 'https://api.fabric.microsoft.com' || bare === 'https://analysis.windows.net/powerbi/api')
    return 'https://analysis.windows.net/powerbi/api';
  const known = [
    'https://management.azure.com',
    'https://management.core.windows.net',
    'https://kusto.kusto.windows.net',
    'https://search.azure.com',
    'https://database.windows.net',
    'https://storage.azure.com',
    'https://dev.azuresynapse.net',
    GRAPH,
    'https://vault.azure.net',
    'https://ossrdbms-aad.database.windows.net',
  ];
  if (known.includes(bare)) return r;
  if (/^https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*\.kusto\.(windows\.net|fabric\.microsoft\.com)$/.test(bare)) return r;
  if (extraResources.some((x) => x.replace(/\/+$/, '').toLowerCase() === bare)) return r;
  if (/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(bare)) return r;
  return undefined;
}

/** Splits a v2 scope list into the resource (first non-OIDC scope's prefix) and whether it is a /.default request. */
export function resourceOfScopes(scope: string): { resource?: string; oidc: string[]; scopes: string[]; isDefault: boolean } {
  const parts = scope.split(/\s+/).filter(Boolean);
  const oidcNames = ['openid', 'profile', 'email', 'offline_access'];
  const oidc = parts.filter((p) => oidcNames.includes(p));
  const rest = parts.filter((p) => !oidcNames.includes(p));
  if (!rest.length) return { oidc, scopes: [], isDefault: false, resource: oidc.length ? GRAPH : undefined };
  const first = rest[0]!;
  const cut = first.lastIndexOf('/');
  if (!/^[a-z]+:\/\//i.test(first) || cut < 0) return { resource: GRAPH, oidc, scopes: rest, isDefault: false };
  const resource = first.slice(0, cut);
  const names = rest.map((s) => s.slice(s.lastIndexOf('/') + 1));
  return { resource, oidc, scopes: names, isDefault: names.includes('.default') };
}
