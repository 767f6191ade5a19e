import { key, page, query, rest, type Transport } from '../transport.js';
import type { ApiToken, PageOptions, RequestBody, Result } from '../types.js';

/** The caller's API tokens. */
export function tokensApi(t: Transport) {
  const tokens = {
    list: (o?: PageOptions) =>
      t.run('listTokens', (i) => t.api.GET('/api/tokens', { ...i, params: { query: query(o) } }), page<ApiToken>('tokens')),
    iterate: (o?: Omit<PageOptions, 'cursor'>) => t.pages((cursor) => tokens.list({ ...o, cursor })),
    /** Creates a token; `secret` is shown only in this answer. */
    create: (body: RequestBody<'createToken'>) =>
      t.run('createToken', (i) => t.api.POST('/api/tokens', { ...i, body }), rest<Result<'createToken'>>),
    revoke: (tokenId: string) =>
      t.run('revokeToken', (i) => t.api.DELETE('/api/tokens/{tokenId}', { ...i, params: { path: { tokenId } } }), key<string>('revoked')),
  };
  return tokens;
}
