// One verdict per logged backing request: matched to an operation of a published description (../shared/specs) or to
// a documented rule of ../shared/reference, a documented extension (DESIGN.md names it), a service nothing describes,
// or unmatched; and the problems of a matched request (parameters, headers, body, decoded definition parts, dialect).
import type { LoggedBody, RequestLogEntry } from '../types.js';
import { checkDefinition, definitionParts } from './definitions.js';
import { checkRequest, OperationIndex, type HttpRequest } from './operations.js';
import { identityRule, kqlRule, serverlessRule, sqlRule, type RuleMatch } from './reference-rules.js';
import { specFiles } from './specs.js';

export type Kind = 'described' | 'reference' | 'extension' | 'undescribed' | 'unmatched';

export interface Verdict {
  kind: Kind;
  /** The operation matched (`file: METHOD template`), the reference rule, the extension or service named. */
  operation?: string;
  /** Why the request does not conform; empty when it does. */
  problems: string[];
  /** Decoded definition parts that were checked. */
  parts: number;
}

/** Requests DESIGN.md documents as the service's own use of a path the real service lacks. */
const EXTENSIONS: Array<{ service: string; method: RegExp; path: RegExp; note: string }> = [
  {
    service: 'dataPlatform',
    method: /^(GET|POST)$/,
    path: /^\/v1\/workspaces\/[^/]+\/firewallRules$/,
    note: 'DESIGN.md "Where SPEC.md and the real backing services differ", Firewall rules: uses the spec\'s path; the sandbox serves it',
  },
  {
    service: 'dataPlatform',
    method: /^DELETE$/,
    path: /^\/v1\/workspaces\/[^/]+\/firewallRules\/[^/]+$/,
    note: 'DESIGN.md "Where SPEC.md and the real backing services differ", Firewall rules: uses the spec\'s path; the sandbox serves it',
  },
  {
    service: 'synapse',
    method: /^GET$/,
    path: /^\/operationResults\/[^/]+$/,
    note: "Synapse artifacts: the Location a long-running pipeline, linked service or dataset PUT/DELETE answers (the service's recorded answers); the 2020-12-01 description names only notebookOperationResults",
  },
];

/** Services without a description or a reference here, recognised by path (the identity provider's neighbours). */
const UNDESCRIBED: Array<{ service: string; path: RegExp; name: string }> = [
  {
    service: 'identity',
    path: /^\/v1\.0\/(applications|servicePrincipals)/,
    name: 'application API (Microsoft Graph): no description in specs/ or reference/',
  },
  { service: 'identity', path: /^\/secrets(\/|$)/, name: 'secret vault (Key Vault): no description in specs/ or reference/' },
];

let indexes: Record<string, OperationIndex[]> | undefined;

/** The description files of each HTTP service, and the path prefix its requests carry before the templates. */
function index(service: string): OperationIndex[] {
  indexes ??= {
    dataPlatform: [new OperationIndex(specFiles('fabric', /\/swagger\.json$/), '/v1')],
    reporting: [new OperationIndex(['powerbi/swagger.json'])],
    arm: [
      new OperationIndex(
        [
          ...specFiles('kusto-arm', /\.json$/),
          ...specFiles('eventhub-arm', /Microsoft\.EventHub\/.*\.json$/),
          ...specFiles('monitor-arm', /Microsoft\.Insights\/.*\.json$/),
          ...specFiles('analysisservices-arm', /\.json$/),
        ].filter((f) => !/common/.test(f)),
      ),
    ],
    search: [new OperationIndex(['search/data-plane/Azure.Search/stable/2024-07-01/searchservice.json'])],
    searchIndex: [new OperationIndex(['search/data-plane/Azure.Search/stable/2024-07-01/searchindex.json'])],
    oneLake: [new OperationIndex(specFiles('storage-dfs', /DataLakeStorage\.json$/))],
    // The Synapse workspace development endpoint (artifacts API 2020-12-01): the artifact files the service calls.
    synapse: [
      new OperationIndex(
        ['notebooks.json', 'pipelines.json', 'linkedServices.json', 'datasets.json', 'artifacts.json'].map(
          (f) => `synapse-artifacts/data-plane/Microsoft.Synapse/stable/2020-12-01/${f}`,
        ),
      ),
    ],
    lake: [new OperationIndex(specFiles('storage-dfs', /DataLakeStorage\.json$/))],
  };
  return indexes[service] ?? [];
}

/** The request as the checks read it, from its log entry. */
export function asRequest(e: RequestLogEntry): HttpRequest & { form?: Record<string, string> } {
  const body: LoggedBody | undefined = e.body;
  return {
    method: e.method,
    path: e.path,
    headers: e.headers ?? {},
    json: body?.json,
    form: body?.form,
    hasBody: Boolean(body && body.size > 0),
  };
}

/**
 * Search requests: the service takes `/indexes/{name}` as well as the described OData form `/indexes('{name}')`, and
 * the classic `/docs/index` as `/docs/search.index` (reference/kql-search-sql-identity.md §3); documents calls are
 * described relative to the index (x-ms-parameterized-host).
 */
function searchMatch(req: HttpRequest): ReturnType<OperationIndex['match']> & { file?: string } {
  const [p, q = ''] = req.path.split('?') as [string, string?];
  const odata = p.replace(/^\/indexes\/([^/('"]+)/, "/indexes('$1')").replace(/\/docs\/index$/, '/docs/search.index');
  const docs = /^\/indexes\('[^']+'\)(\/docs.*)$/.exec(odata);
  return docs
    ? index('searchIndex')[0]!.match(req.method, `${docs[1]}${q ? `?${q}` : ''}`)
    : index('search')[0]!.match(req.method, `${odata}${q ? `?${q}` : ''}`);
}

/** DFS calls (§6 of the data-platform reference): x-ms-version names a storage version no newer than the newest described. */
function dfsVersionProblems(req: HttpRequest): string[] {
  const v = req.headers['x-ms-version'];
  const newest = specFiles('storage-dfs', /DataLakeStorage\.json$/)
    .map((f) => f.split('/').at(-2)!)
    .sort()
    .at(-1)!;
  if (v === undefined) return [];
  return /^\d{4}-\d{2}-\d{2}$/.test(v) && v <= newest
    ? []
    : [`header x-ms-version: ${JSON.stringify(v)} is not a storage version (newest described ${newest})`];
}

const fromRule = (r: RuleMatch | undefined, e: RequestLogEntry): Verdict =>
  r
    ? { kind: 'reference', operation: r.operation, problems: r.problems, parts: 0 }
    : { kind: 'unmatched', problems: [`${e.method} ${e.path.split('?')[0]} is not an endpoint the reference documents`], parts: 0 };

/** The verdict on one logged request. */
export function validate(e: RequestLogEntry): Verdict {
  if (e.service === 'sql') return { kind: 'reference', ...sqlRule(e.method, e.text), parts: 0 };
  if (e.service === 'sqlServerless') return { kind: 'reference', ...serverlessRule(e.method, e.text), parts: 0 };
  const req = asRequest(e);
  const bare = e.path.split('?')[0]!;
  const ext = EXTENSIONS.find((x) => x.service === e.service && x.method.test(e.method) && x.path.test(bare));
  if (ext) return { kind: 'extension', operation: ext.note, problems: [], parts: 0 };
  const undescribed = UNDESCRIBED.find((x) => x.service === e.service && x.path.test(bare));
  if (undescribed) return { kind: 'undescribed', operation: undescribed.name, problems: [], parts: 0 };
  if (e.service === 'kql') return fromRule(kqlRule(req), e);
  if (e.service === 'identity') return fromRule(identityRule(req), e);
  // The lake is served path-style (`/<account>/<filesystem>/<path>`): the description's paths start at the filesystem.
  const path = e.service === 'lake' ? e.path.replace(/^\/[^/?]+/, '') : e.path;
  const m = e.service === 'search' ? searchMatch(req) : index(e.service)[0]?.match(e.method, path);
  if (!m) return { kind: 'unmatched', problems: [`no description for service ${e.service}`], parts: 0 };
  if ('missing' in m) {
    const why =
      m.missing === 'method'
        ? `${e.method} is not documented for this path (documented: ${m.methods!.join(', ')})`
        : 'no documented operation has this path';
    return { kind: 'unmatched', problems: [why], parts: 0 };
  }
  const op = m.operation;
  const problems = [...checkRequest(op, req), ...(e.service === 'oneLake' || e.service === 'lake' ? dfsVersionProblems(req) : [])];
  if (e.service === 'dataPlatform') problems.push(...checkDefinition(req.json));
  if (e.body?.truncated) problems.push(`body: larger than the request log keeps (${e.body.size} bytes); not validated`);
  return {
    kind: 'described',
    operation: `${op.file}: ${op.method} ${op.template}`,
    problems,
    parts: e.service === 'dataPlatform' ? definitionParts(req.json) : 0,
  };
}
