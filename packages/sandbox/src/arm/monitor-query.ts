import type { SandboxCore } from '../core.js';
import { loopbackAliases } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { probeHost } from '../kql/functions.js';
import { runQuery } from '../kql/query.js';

/** `adx('<cluster>/<database>').<Table>` at the start of a query: the cross-service form a workspace-scoped rule reads ADX with. */
const ADX = /^\s*adx\s*\(\s*(['"])([^'"]+)\1\s*\)\s*\.\s*(\[\s*['"][^'"]+['"]\s*\]|[A-Za-z_][A-Za-z0-9_]*)/;

/** The cluster address and database of an `adx()` argument (`https://host/db`, `host/db`, or `cluster=…;database=…` is not served). */
function clusterAndDatabase(arg: string): { origin: string; database: string } | undefined {
  const withScheme = /^[a-z]+:\/\//i.test(arg) ? arg : `https://${arg}`;
  try {
    const u = new URL(withScheme);
    const database = decodeURIComponent(u.pathname.replace(/^\/+|\/+$/g, ''));
    return database && !database.includes('/') ? { origin: u.origin.toLowerCase(), database } : undefined;
  } catch {
    return undefined;
  }
}

/** The detail of a KQL error as Kusto words it, or the error's message. */
const detailOf = (err: unknown) =>
  err instanceof ServiceError && typeof err.extra['@message'] === 'string' ? String(err.extra['@message']) : (err as Error).message;

/**
 * Refuses a log search alert's query the way the real service does when it validates a rule: a query that does not
 * parse, or whose table or columns do not resolve. A workspace-scoped query reads the KQL table through `adx()`; the
 * sandbox's Log Analytics workspace holds no tables of its own. The query runs over one placeholder row per table (the
 * KQL engine's compile check), so every operator resolves its names; a construct the engine does not implement is
 * let through rather than refused.
 */
export function checkRuleQuery(core: SandboxCore, query: string, at: string): void {
  const invalid = (why: string) => new ServiceError(400, 'BadRequest', `The query of ${at} is invalid: ${why}`);
  const m = ADX.exec(query);
  if (!m) {
    if (/^\s*adx\s*\(/.test(query)) throw invalid("the adx() expression must be adx('<cluster URI>/<database>').<table>");
    throw invalid(
      `Failed to resolve table expression '${query.trim().split(/[\s|]/)[0]}': the workspace '${core.arm.monitor.ids.workspaceName}' has no such table`,
    );
  }
  const target = clusterAndDatabase(m[2]!);
  if (!target) throw invalid(`'${m[2]}' is not a cluster URI with a database ('https://<cluster>/<database>')`);
  const known = loopbackAliases(core.urls.kql).map((o) => o.toLowerCase());
  if (!known.includes(target.origin))
    throw invalid(`the cluster '${target.origin}' could not be reached for the cross-service query (adx())`);
  const db = core.kql.database(target.database);
  if (!db) throw invalid(`Entity ID '${target.database}' of kind 'Database' was not found.`);
  const table = m[3]!.replace(/^\[\s*['"]|['"]\s*\]$/g, '');
  const rest = query.slice(m[0].length);
  try {
    runQuery(`['${table}']${rest}`, probeHost(db), { vars: new Map(), now: new Date(), probe: true });
  } catch (err) {
    const detail = detailOf(err);
    if (/^(Syntax error|Semantic error: SEM0100)/.test(detail)) throw invalid(detail);
  }
}
