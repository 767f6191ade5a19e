import type { SandboxCore } from '../core.js';
import { AUDIENCES } from '../identity/resources.js';
import type { TdsServerOptions, TokenClaims } from './index.js';

/**
 * What every TDS endpoint of the sandbox shares: logins verified against the sandbox identity provider (signature,
 * issuer, expiry; a wrong audience still comes back with its claims, so the endpoint refuses it with 18456 and logs who
 * tried), database users resolved from its directory, and each batch in the request log under `service`.
 */
export function sandboxTdsHooks(
  core: SandboxCore,
  service: 'sql' | 'sqlServerless',
): Pick<TdsServerOptions, 'verifyToken' | 'resolvePrincipal' | 'onRequest'> {
  return {
    verifyToken: async (jwt) => {
      const r = await core.tokens.verify(jwt, [...AUDIENCES.sql]);
      if (!r.ok && r.reason !== 'audience') throw new Error(r.detail);
      return r.claims as unknown as TokenClaims;
    },
    resolvePrincipal: (name) => {
      const p = core.directory.find(name);
      return p ? { objectId: p.objectId } : undefined;
    },
    onRequest: (e) => {
      const path =
        e.method === 'LOGIN' ? `/${e.database}` : `/${e.database}/${e.method === 'RPC' ? 'rpc' : 'batch'}/${e.text.slice(0, 200)}`;
      const entry = core.log.begin(service, e.method, path, e.method === 'LOGIN' ? {} : { text: e.text });
      entry.startedAt = new Date(Date.now() - (performance.now() - e.started)).toISOString();
      if (e.faultId) entry.fault = e.faultId;
      if (e.error !== undefined) entry.sqlError = e.error;
      core.log.finish(entry, e.reset ? 0 : e.error !== undefined ? 400 : 200, e.started, e.identity);
    },
  };
}
