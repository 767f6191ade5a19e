import type { SandboxCore } from '../core.js';
import { AUDIENCES } from '../identity/resources.js';
import { listPaths } from '../onelake/tree.js';
import { startTdsServer, type TdsServer } from './index.js';
import { sandboxTdsHooks } from './tds-hooks.js';

/** The Synapse workspace role that makes a principal an admin of its serverless SQL pool (dbo in every database). */
export const SERVERLESS_ADMIN_ROLE = 'Synapse SQL Administrator';

/**
 * The files a lake URL names in the sandbox's lake: `abfss://<filesystem>@<account>.dfs.<suffix>/<path>` or
 * `https://<account>.dfs.<suffix>/<filesystem>/<path>` (the account is the host's first label); a folder is read
 * recursively. Undefined when the account, filesystem or path does not exist.
 */
export function readLake(core: SandboxCore, url: string): Array<{ path: string; text: string }> | undefined {
  const m = /^abfss:\/\/([^@/]+)@([^./]+)[^/]*\/?(.*)$/i.exec(url) ?? /^https:\/\/([^./]+)[^/]*\/([^/]+)\/?(.*)$/i.exec(url);
  if (!m) return undefined;
  const [fsName, account, rawPath] = url.toLowerCase().startsWith('abfss') ? [m[1]!, m[2]!, m[3]!] : [m[2]!, m[1]!, m[3]!];
  const tree = core.lake.accounts.get(account.toLowerCase())?.filesystems.get(fsName)?.tree;
  if (!tree) return undefined;
  const path = decodeURIComponent(rawPath).replace(/^\/+|\/+$/g, '');
  const entry = path ? tree.get(path) : { isDirectory: true, lastModified: 0 };
  if (!entry) return undefined;
  if (!entry.isDirectory) return [{ path, text: (entry.content ?? Buffer.alloc(0)).toString('utf8') }];
  return listPaths(tree, path, true)
    .filter(([name, e]) => !e.isDirectory && !name.split('/').some((s) => s.startsWith('_') || s.startsWith('.')))
    .map(([name, e]) => ({ path: name, text: (e.content ?? Buffer.alloc(0)).toString('utf8') }));
}

/**
 * The Synapse workspace's serverless SQL pool (`<workspace>-ondemand`) on its own TDS endpoint: master plus the
 * databases CREATE DATABASE makes, the serverless dialect (external tables over the lake, views; no tables or DML).
 * Its admins (the workspace's Synapse SQL Administrators: Ada Admin and the service identity) log in as dbo; anyone
 * else has no login (18456), as the pool answers a principal without a role on the workspace.
 */
export function startServerlessEndpoint(core: SandboxCore, tls?: { key: string; cert: string }): Promise<TdsServer> {
  return startTdsServer({
    host: core.host,
    tls,
    serverName: `${core.ids.warehouseWorkspace}-ondemand`,
    databases: ['master'],
    dialect: 'synapse-serverless',
    audience: [...AUDIENCES.sql],
    grants: [],
    // Read at each login: the admin grants change them (a getter, so a reset's new list is seen too).
    get admins() {
      return core.serverlessAdmins;
    },
    readLake: (url) => readLake(core, url),
    faults: { match: (_service, method, path) => core.faults.match('sqlServerless', method, path) },
    latencyMs: () => core.latency.sqlServerless ?? 0,
    ...sandboxTdsHooks(core, 'sqlServerless'),
  });
}
