// Backing calls no published description covers, checked against the documented rules of
// ../shared/reference/kql-search-sql-identity.md (KQL data plane §2, SQL over TDS §4, token endpoint and managed
// identity §5) and DESIGN.md's dedicated-pool row. Each answers the rule it matched, or undefined when the request
// is not one the reference documents, and the problems found.
import type { HttpRequest } from './operations.js';
import { isDatabaseScript, splitScript } from '../kql/script.js';

export interface RuleMatch {
  /** What the request is, as the reference names it. */
  operation: string;
  problems: string[];
}

const REF = 'reference/kql-search-sql-identity.md';
const header = (req: HttpRequest, name: string) => req.headers[name.toLowerCase()];
const bare = (path: string) => path.split('?')[0]!;

/** Management commands the reference documents (§2), by their leading words. */
const KQL_COMMANDS: Array<{ re: RegExp; names: 'db' | 'command' }> = [
  { re: /^\.create(-merge)?\s+tables?\s/i, names: 'db' },
  { re: /^\.create\s+table\s/i, names: 'db' },
  { re: /^\.ingest\s+inline\s+into\s+table\s/i, names: 'db' },
  { re: /^\.(create-or-alter|create|alter)\s+function\s/i, names: 'db' },
  { re: /^\.add\s+database\s+\S+\s+(admins|users|viewers|ingestors|monitors)\s*\(/i, names: 'command' },
  { re: /^\.show\s+(tables|functions|table\s+\S+(\s+schema)?)\b/i, names: 'db' },
  { re: /^\.show\s+database\s+\S+\s+principals\b/i, names: 'command' },
  { re: /^\.show\s+databases\b/i, names: 'command' },
  // An uninstall's drops (Learn: kusto/management/drop-table-command, drop-function): `ifexists` makes a missing one no error.
  { re: /^\.drop\s+(table|function)\s+\S+(\s+ifexists)?\s*$/i, names: 'db' },
  // Several of the above in one request (Learn: kusto/management/execute-database-script); each command it carries is checked too.
  { re: /^\.execute\s+database\s+script\b/i, names: 'db' },
];

/** What is wrong with a management command: not one the reference documents, or (a database script) one it carries. */
function commandProblems(csl: string): string[] {
  const unknown = (text: string) =>
    `body $.csl: ${JSON.stringify(text.split(/\s+/).slice(0, 3).join(' '))} is not a command the reference documents (${REF} §2)`;
  if (!KQL_COMMANDS.some((c) => c.re.test(csl))) return [unknown(csl)];
  if (!isDatabaseScript(csl)) return [];
  if (csl.indexOf('<|') < 0) return ["body $.csl: '.execute database script' takes its commands after '<|'"];
  try {
    return splitScript(csl.slice(csl.indexOf('<|') + 2)).flatMap((c) =>
      isDatabaseScript(c) ? ['body $.csl: a database script inside a database script'] : commandProblems(c),
    );
  } catch (err) {
    return [`body $.csl: ${(err as { extra?: Record<string, unknown> }).extra?.['@message'] ?? String(err)}`];
  }
}

/** KQL data plane (§2): auth metadata, management commands and queries with {db, csl}. */
export function kqlRule(req: HttpRequest): RuleMatch | undefined {
  const path = bare(req.path);
  if (req.method === 'GET' && path === '/v1/rest/auth/metadata') return { operation: 'GET /v1/rest/auth/metadata', problems: [] };
  const endpoint = req.method === 'POST' && ['/v1/rest/mgmt', '/v2/rest/query', '/v1/rest/query'].includes(path) ? path : undefined;
  if (!endpoint) return undefined;
  const problems: string[] = [];
  if (!/^Bearer\s/i.test(header(req, 'authorization') ?? '')) problems.push(`header Authorization: a Bearer token is required (${REF} §2)`);
  if (!/json/i.test(header(req, 'content-type') ?? '')) problems.push(`header Content-Type: application/json is required (${REF} §2)`);
  const body = req.json as { db?: unknown; csl?: unknown; properties?: unknown } | undefined;
  if (!body || typeof body !== 'object')
    return { operation: `POST ${endpoint}`, problems: [...problems, 'body: a JSON object {db, csl, properties?} is required'] };
  for (const k of Object.keys(body))
    if (!['db', 'csl', 'properties'].includes(k)) problems.push(`body $.${k}: not a field of the request body {db, csl, properties}`);
  const csl = typeof body.csl === 'string' ? body.csl.trim() : '';
  if (!csl) problems.push('body $.csl: required');
  const hasDb = typeof body.db === 'string' && body.db.length > 0;
  if (endpoint === '/v1/rest/mgmt') {
    if (csl && !csl.startsWith('.')) problems.push('body $.csl: the management endpoint takes control commands (starting with a dot)');
    const known = KQL_COMMANDS.find((c) => c.re.test(csl));
    if (csl.startsWith('.')) problems.push(...commandProblems(csl));
    if (known?.names === 'db' && !hasDb) problems.push('body $.db: the database a database command runs in is required');
  } else {
    if (csl.startsWith('.')) problems.push('body $.csl: a control command sent to the query endpoint (send it to /v1/rest/mgmt)');
    if (!hasDb) problems.push('body $.db: a query names its database');
  }
  return { operation: `POST ${endpoint}`, problems };
}

/** Grant types of the v2 token endpoint (§5) and the parameters each requires. */
function tokenProblems(form: Record<string, string> | undefined): string[] {
  if (!form) return ['body: a form-encoded body (application/x-www-form-urlencoded) is required'];
  const problems: string[] = [];
  const need = (...names: string[]) => {
    for (const n of names) if (!form[n]) problems.push(`body ${n}: required for grant_type ${form.grant_type}`);
  };
  if (form.grant_type === 'client_credentials') {
    need('client_id', 'scope');
    if (form.scope && !form.scope.split(' ').every((s) => s.endsWith('/.default')))
      problems.push(`body scope: a client-credentials scope is <resource>/.default, not ${JSON.stringify(form.scope)}`);
    const assertion = form.client_assertion !== undefined;
    if (!form.client_secret && !assertion) problems.push('body client_secret: client_secret or client_assertion is required');
    if (assertion && form.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      problems.push('body client_assertion_type: must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  } else if (form.grant_type === 'refresh_token') need('refresh_token', 'client_id', 'scope');
  else
    problems.push(
      `body grant_type: ${JSON.stringify(form.grant_type)} is not a grant the reference documents (client_credentials, refresh_token)`,
    );
  return problems;
}

/** The identity provider (§5): v2 token endpoint, managed identity (App Service, IMDS), discovery documents. */
export function identityRule(req: HttpRequest & { form?: Record<string, string> }): RuleMatch | undefined {
  const path = bare(req.path);
  const q = new URL(req.path, 'http://x').searchParams;
  if (req.method === 'POST' && /^\/[^/]+\/oauth2\/v2\.0\/token$/.test(path)) {
    const problems = /x-www-form-urlencoded/i.test(header(req, 'content-type') ?? '')
      ? []
      : ['header Content-Type: application/x-www-form-urlencoded is required'];
    return { operation: 'POST /{tenant}/oauth2/v2.0/token', problems: [...problems, ...tokenProblems(req.form)] };
  }
  if (req.method === 'GET' && path === '/msi/token') {
    const problems: string[] = [];
    if (q.get('api-version') !== '2019-08-01')
      problems.push(`query api-version: ${q.get('api-version')} is not 2019-08-01 (${REF} §5, App Service)`);
    if (!q.get('resource')) problems.push('query resource: required');
    if (!header(req, 'x-identity-header')) problems.push('header X-IDENTITY-HEADER: required');
    return { operation: 'GET {IDENTITY_ENDPOINT} (App Service managed identity)', problems };
  }
  if (req.method === 'GET' && path === '/metadata/identity/oauth2/token') {
    const problems: string[] = [];
    if (q.get('api-version') !== '2018-02-01')
      problems.push(`query api-version: ${q.get('api-version')} is not 2018-02-01 (${REF} §5, IMDS)`);
    if (!q.get('resource')) problems.push('query resource: required');
    if (header(req, 'metadata') !== 'true') problems.push('header Metadata: true is required');
    return { operation: 'GET /metadata/identity/oauth2/token (IMDS)', problems };
  }
  if (req.method === 'GET' && /^\/[^/]+\/v2\.0\/\.well-known\/openid-configuration$/.test(path))
    return { operation: 'GET /{tenant}/v2.0/.well-known/openid-configuration', problems: [] };
  if (req.method === 'GET' && path === '/common/discovery/instance')
    return { operation: 'GET /common/discovery/instance (MSAL instance discovery)', problems: [] };
  if (req.method === 'GET' && /^\/[^/]+\/discovery\/v2\.0\/keys$/.test(path))
    return { operation: 'GET jwks_uri of the openid-configuration', problems: [] };
  return undefined;
}

/** Strips string literals and comments, so names inside them are not read as T-SQL. */
const code = (sql: string) =>
  sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '');
const NAME = String.raw`(?:\[[^\]]+\]|[A-Za-z_#][\w$#]*)`;
const THREE_PART = new RegExp(`(?:FROM|JOIN|INTO|UPDATE|TABLE|VIEW|REFERENCES|ON)\\s+(${NAME}\\.${NAME}\\.${NAME})`, 'i');

/**
 * A serverless SQL pool's batch (Learn, "Transact-SQL features supported in Azure Synapse SQL"): databases, external
 * data sources without TYPE, file formats, external tables and views; no regular tables, no DML.
 */
export function serverlessRule(method: string, text: string | undefined): RuleMatch {
  if (method === 'LOGIN') return { operation: 'LOGIN7 with FEDAUTH (serverless SQL pool)', problems: [] };
  const sql = code(text ?? '');
  const problems: string[] = [];
  if (/\bCREATE\s+TABLE\b/i.test(sql)) problems.push('CREATE TABLE: a serverless SQL pool has external tables only');
  if (/\b(INSERT|UPDATE|DELETE|MERGE)\s/i.test(sql) && !/\bCREATE\s+VIEW\b/i.test(sql))
    problems.push('DML: a serverless SQL pool reads files; it has no DML');
  if (/\bTYPE\s*=\s*HADOOP\b/i.test(sql)) problems.push("TYPE = HADOOP: a serverless SQL pool's data source names no TYPE");
  return { operation: method === 'RPC' ? 'RPC request (serverless SQL pool)' : 'SQL batch (serverless SQL pool)', problems };
}

/** SQL over TDS (§4) in the Synapse dedicated-pool dialect (DESIGN.md, "Warehouse views"). */
export function sqlRule(method: string, text: string | undefined): RuleMatch {
  if (method === 'LOGIN') return { operation: 'LOGIN7 with FEDAUTH', problems: [] };
  const sql = code(text ?? '');
  const problems: string[] = [];
  if (/\bCREATE\s+OR\s+ALTER\b/i.test(sql))
    problems.push('CREATE OR ALTER: a dedicated SQL pool has CREATE/DROP VIEW only (DESIGN.md, Warehouse views)');
  if (/\bFOREIGN\s+KEY\b/i.test(sql) || /\bREFERENCES\s+\S/i.test(sql))
    problems.push('FOREIGN KEY: a dedicated SQL pool has only PRIMARY KEY / UNIQUE ... NOT ENFORCED (DESIGN.md)');
  const cross = THREE_PART.exec(sql);
  if (cross) problems.push(`${cross[1]}: a cross-database name; a dedicated SQL pool reads lake data through external tables (DESIGN.md)`);
  if (/\bALTER\s+ROLE\s+\S+\s+ADD\s+MEMBER\b/i.test(sql))
    problems.push(`ALTER ROLE ... ADD MEMBER: a dedicated SQL pool needs EXEC sp_addrolemember (${REF} §4)`);
  return { operation: method === 'RPC' ? 'RPC request' : 'SQL batch', problems };
}
