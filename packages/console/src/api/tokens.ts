import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allPages, api } from './client';
import type { Answer, Body, Schema } from './schemas';

/** A live API token of the caller (or, for an admin, of the tenant): never its secret. */
export type ApiToken = Schema<'ApiToken'>;
export type CreateTokenBody = Body<'createToken'>;
export type CreatedToken = Answer<'createToken'>;
export type TokenScope = CreateTokenBody['scopes'][number];

/** The tenant's scopes in the service's order (auth/scopes.ts), each with what it allows. */
export const TENANT_SCOPES: ReadonlyArray<{ scope: TokenScope; text: string }> = [
  { scope: 'read', text: 'read workspaces, items, apps, install jobs and the thread' },
  { scope: 'write', text: 'create, change and delete workspaces, items and thread edges' },
  { scope: 'install', text: 'install curated apps and retry install steps' },
  { scope: 'reports', text: 'list, read, publish and export paginated reports' },
  { scope: 'tokens', text: 'create, list and revoke your own API tokens' },
  { scope: 'admin', text: 'everything in the tenant (implies the scopes above)' },
];
const DEPLOYMENT_SCOPES: ReadonlyArray<{ scope: TokenScope; text: string }> = [
  { scope: 'metrics', text: 'read the deployment’s Prometheus metrics' },
  { scope: 'operator', text: 'the deployment: tenants, platform workspaces and targets (implies metrics)' },
];

/** The longest expiry the service grants (token-service MAX_EXPIRY_DAYS), and its default. */
export const MAX_EXPIRY_DAYS = 90;
export const DEFAULT_EXPIRY_DAYS = 30;

/**
 * The scopes a caller holding `held` may put on a new token, as the service decides it: admin implies every tenant
 * scope, operator implies metrics; a token never grants a scope its maker lacks (403 scope_escalation).
 */
export function grantableScopes(held: readonly string[]): Array<{ scope: TokenScope; text: string }> {
  const has = (s: TokenScope) =>
    held.includes(s) ||
    (TENANT_SCOPES.some((t) => t.scope === s) && held.includes('admin')) ||
    (s === 'metrics' && held.includes('operator'));
  return [...TENANT_SCOPES, ...DEPLOYMENT_SCOPES].filter((s) => has(s.scope));
}

/** The caller's live tokens (every page of listTokens). */
export const useTokens = () => useQuery({ queryKey: ['tokens'], queryFn: () => allPages<ApiToken>('/api/tokens', 'tokens') });

/** Creates a token; the answer holds its secret, which the service never shows again. */
export const useCreateToken = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTokenBody) => api<CreatedToken>('POST', '/api/tokens', body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['tokens'] }),
  });
};

/** Revokes a token (and every token minted with it), effective on its next request. */
export const useRevokeToken = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api<Answer<'revokeToken'>>('DELETE', `/api/tokens/${encodeURIComponent(tokenId)}`),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['tokens'] }),
  });
};
