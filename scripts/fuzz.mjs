// `npm run fuzz`: property-based API fuzzing with schemathesis. Starts the service with its in-process sandbox on a
// temporary data directory and a free loopback port, mints a dedicated token holding every scope, seeds data whose ids
// the parameters draw from, and runs `schemathesis run <service>/api/openapi.json` over every operation of the document
// with every check schemathesis has (error responses included), in the phases examples, coverage, fuzzing and stateful.
// Where a check is arguable for one operation it is off for that operation alone (ARGUABLE below, and the README).
// Bounded: FUZZ_MAX_EXAMPLES test cases per operation (default 25) and FUZZ_MAX_TIME seconds for the whole run (default
// 200); FUZZ_PHASES picks schemathesis phases. Exits non-zero when schemathesis reports a failure. Reports go to
// .test-artifacts/fuzz/ (JUnit XML).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { newToken, startLocalService } from './lib/local-service.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const python = process.env.PYTHON ?? 'python3';
/** The schemathesis release this script's options and check names were written for. */
const SCHEMATHESIS_VERSION = '4.32.5';
const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '25';
const maxTime = process.env.FUZZ_MAX_TIME ?? '200';
const seed = process.env.FUZZ_SEED ?? String(crypto.randomInt(1, 2 ** 31));
const artifacts = path.join(root, '.test-artifacts/fuzz');

// Operations left out of fuzzing, each with the reason. Only revokeToken: schemathesis reuses ids it reads in answers
// (GET /api/whoami and GET /api/tokens name the fuzzer's own token id), so it revokes the token it runs with, and every
// later case answers 401 and tests nothing. Revocation is covered by tokens.test.ts and the authorization matrix.
const EXCLUDED_OPERATION_IDS = ['revokeToken'];

// Every check runs on every operation (schemathesis's "all"). Where a check is arguable for an operation it is turned
// off for that operation alone; each entry says why (the README's fuzzing paragraph lists the same). All of these are
// positive_data_acceptance: a schema-valid request the service rightly refuses with 400 naming the field, because the
// rule is one JSON Schema does not state (a format beyond a string, a rule across fields, or the state of a resource).
const ARGUABLE = [
  ['positive_data_acceptance', 'publishPaginatedReport', 'the definition must be well-formed RDL 2016/01'],
  ['positive_data_acceptance', 'putPaginatedReportDefinition', 'the definition must be well-formed RDL 2016/01'],
  ['positive_data_acceptance', 'previewPaginatedReport', 'the draft definition must be well-formed RDL 2016/01'],
  ['positive_data_acceptance', 'inspectIdentityToken', 'the token must be a JWT (three base64url parts)'],
  ['positive_data_acceptance', 'listAuditEvents', 'since must not be after until (400 naming since)'],
  ['positive_data_acceptance', 'addRoleAssignment', 'a User principal must be a user of the tenant (400 naming principal.id)'],
  ['positive_data_acceptance', 'diagnoseIdentityFailure', 'at least one of status, code or body'],
  ['positive_data_acceptance', 'diagnoseIdentityFailureBody', 'at least one of status, code or body'],
  ['positive_data_acceptance', 'createThreadEdge', 'an edge joins two different items'],
  ['positive_data_acceptance', 'installApp', 'targetOverrides only with mode dedicated'],
  ['positive_data_acceptance', 'planInstall', 'the install body: targetOverrides only with mode dedicated, under the cloud’s DNS suffixes'],
  ['positive_data_acceptance', 'registerCredential', 'expiresAt from 1970 to 9999 (UTC), what the store keeps and reads back'],
  ['positive_data_acceptance', 'openIncident', 'startedAt from 1970 to 9999 (UTC), what the store keeps and reads back'],
  ['positive_data_acceptance', 'retryInstallStep', 'a job installed with deploy false has nothing to provision'],
  ['positive_data_acceptance', 'retryJobStep', 'only a failed or remediation step is retried'],
  ['positive_data_acceptance', 'createItem', 'deploy true: a live type, with content its type’s schema accepts'],
  ['positive_data_acceptance', 'applyItem', 'a live type, with content its type’s schema accepts'],
  ['positive_data_acceptance', 'startRotation', 'a vaultSecretName when the credential names none'],
  ['positive_data_acceptance', 'verifyIncidentFix', 'an identity tenantId when the deployment has no SVC_TENANT_ID'],
  ['positive_data_acceptance', 'runIdentityProbe', 'an identity tenantId when the deployment has no SVC_TENANT_ID'],
  ['positive_data_acceptance', 'completeOidcSignIn', 'the state must be one this service issued to this browser'],
];

// Statuses a check expects beyond its defaults, where the document says the service answers them.
const POSITIVE_DEFAULT = ['2xx', '3xx', '401', '403', '404', '409', '429', '5xx'];
const NEGATIVE_DEFAULT = ['400', '401', '403', '404', '405', '406', '409', '415', '422', '428', '429', '5xx'];
const IF_MATCH_WRITES = ['putItemContent', 'putPaginatedReportDefinition'];
const LISTS = [
  'listAuditEvents',
  'listInstallJobs',
  'listInstalledApps',
  'listItems',
  'listRoleAssignments',
  'listTenants',
  'listTokens',
  'listWorkspaceJobs',
  'listWorkspaces',
  'searchPrincipals',
];

/** The schemathesis.toml of a run: checks and their settings, generation, and the real ids of the seeded data. */
function configText(dictionaries) {
  const list = (values) => JSON.stringify(values);
  const operations = (ids, ...settings) => ['[[operations]]', `include-operation-id = ${list(ids)}`, ...settings, ''];
  return [
    // A JSON key that could set a prototype (`__proto__`, `constructor.prototype`) is refused on purpose: none is generated.
    `hooks = ${JSON.stringify(path.join(root, 'scripts/fuzz_hooks.py'))}`,
    '',
    // Every check (schemathesis's --checks all; given on the command line it would override the settings below).
    '[checks]',
    'enabled = true',
    '',
    // A request line or headers over 16 KiB (an over-long query) is refused by the HTTP parser with 431, as documented.
    '[checks.negative_data_rejection]',
    `expected-statuses = ${list([...NEGATIVE_DEFAULT, '431'])}`,
    '',
    // The service refuses U+0000 and unpaired surrogates in any text on purpose (README, API): generate neither.
    '[generation]',
    'allow-x00 = false',
    'codec = "utf-8"',
    '',
    ...Object.entries(dictionaries).flatMap(([name, values]) => [`[dictionaries.${name}]`, `values = ${list(values)}`, '']),
    '[parameters]',
    // A cursor is opaque (only a nextCursor the service issued is one, anything else is 400 naming it): always a real one.
    ...Object.keys(dictionaries).flatMap((name) =>
      ['path', 'query'].map((at) => `"${at}.${name}" = { dictionary = "${name}", probability = ${name === 'cursor' ? 1 : 0.6} }`),
    ),
    '',
    // The coverage phase draws values from the schema alone (no dictionaries), and a cursor the service did not issue
    // is rightly 400: there, and only there, a list's positive_data_acceptance is off (fuzzing and stateful keep it).
    ...operations(LISTS, 'phases.coverage.checks.positive_data_acceptance.enabled = false'),
    // A conditional write without If-Match answers 428 Precondition Required (RFC 6585), one with another version's
    // ETag 412, as the operations document.
    ...operations(
      IF_MATCH_WRITES,
      'checks.missing_required_header.expected-statuses = ["428"]',
      `checks.positive_data_acceptance.expected-statuses = ${list([...POSITIVE_DEFAULT, '412'])}`,
    ),
    ...ARGUABLE.flatMap(([check, id]) => operations([id], `checks.${check}.enabled = false`)),
  ].join('\n');
}

function ensureSchemathesis() {
  const have = spawnSync(python, ['-m', 'schemathesis.cli', '--version'], { encoding: 'utf8' });
  if (have.status === 0 && have.stdout.includes(SCHEMATHESIS_VERSION)) return;
  if (process.env.SVC_SKIP_PIP)
    throw new Error(`schemathesis ${SCHEMATHESIS_VERSION} is not installed (pip install schemathesis==${SCHEMATHESIS_VERSION})`);
  const pip = spawnSync(
    python,
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--root-user-action=ignore',
      `schemathesis==${SCHEMATHESIS_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  if (pip.status !== 0) throw new Error('pip install schemathesis failed');
}

const bootstrap = newToken();

/** The service with settings for fuzzing. */
const startService = () =>
  startLocalService({
    token: bootstrap,
    label: 'fuzz',
    env: {
      SVC_WORKER_POLL_MS: '200',
      // The fuzzer sends far more than a person: the per-token limit would turn most of its cases into 429s.
      SVC_RATE_LIMIT_PER_MINUTE: '1000000',
      SVC_BACKING_RETRY_DELAY_MS: '50',
      SVC_BACKING_TIMEOUT_MS: '5000',
    },
  });

/** Creates a little of everything through the API and answers the ids by parameter name. */
async function seedData(baseUrl, token) {
  const call = async (method, url, body, expected) => {
    const r = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await r.json();
    if (r.status !== expected) throw new Error(`seeding: ${method} ${url} answered ${r.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const workspaces = [];
  for (const name of ['fuzz one', 'fuzz two']) workspaces.push((await call('POST', '/api/workspaces', { name }, 201)).workspace.id);
  const ws = workspaces[0];
  const notebook = (
    await call('POST', `/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: 'fuzz notebook', content: { cells: [] } }, 201)
  ).item.id;
  const lakehouse = (await call('POST', `/api/workspaces/${ws}/items`, { itemType: 'lakehouse', displayName: 'fuzz lakehouse' }, 201)).item
    .id;
  const edge = (await call('POST', `/api/workspaces/${ws}/thread/edges`, { fromItemId: lakehouse, toItemId: notebook, kind: 'feeds' }, 201))
    .edge.id;
  const apps = (await call('GET', '/api/apps', undefined, 200)).apps.map((a) => a.id);
  const job = (await call('POST', `/api/apps/${apps[0]}/install`, { workspaceId: workspaces[1], deploy: false }, 202)).jobId;
  // The seeded job must be finished before fuzzing: a running job's event stream rightly stays open until it ends,
  // longer than a fuzzing request waits (on a loaded machine even a deploy-false install takes a while).
  for (let waited = 0; (await call('GET', `/api/apps/install-jobs/${job}`, undefined, 200)).job.status === 'running'; waited += 500) {
    if (waited > 180_000) throw new Error(`seeding: install job ${job} still running after 180 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const incident = (await call('POST', '/api/admin/identity/incidents', { title: 'fuzz incident' }, 201)).incident.id;
  // Cursors the service issued (a cursor is a position, good for any list).
  const cursor = [];
  for (const list of ['/api/workspaces?limit=1', `/api/workspaces/${ws}/items?limit=1`, '/api/tokens?limit=1']) {
    const page = await call('GET', list, undefined, 200);
    if (!page.nextCursor) throw new Error(`seeding: GET ${list} (a list of two) answered no nextCursor`);
    cursor.push(page.nextCursor);
  }
  return {
    workspaceId: workspaces,
    itemId: [notebook, lakehouse],
    edgeId: [edge],
    appId: apps,
    jobId: [job],
    incidentId: [incident],
    cursor,
  };
}

ensureSchemathesis();
const service = await startService();
let status = 1;
try {
  // A token for the fuzzer alone, with every scope.
  const minted = await fetch(`${service.baseUrl}/api/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bootstrap}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'schemathesis', scopes: ['admin', 'read', 'write', 'install', 'reports', 'tokens'] }),
  });
  if (minted.status !== 201) throw new Error(`minting the fuzzing token answered ${minted.status}: ${await minted.text()}`);
  const token = (await minted.json()).secret;
  fs.mkdirSync(artifacts, { recursive: true });
  // Real ids for the path and query parameters, drawn with some probability (generated ids otherwise), so that cases
  // get past "404 unknown id" into the operations' own logic. Written as schemathesis.toml where schemathesis runs.
  fs.writeFileSync(path.join(artifacts, 'schemathesis.toml'), configText(await seedData(service.baseUrl, token)));
  const args = [
    '-m',
    'schemathesis.cli',
    'run',
    `${service.baseUrl}/api/openapi.json`,
    '--phases',
    process.env.FUZZ_PHASES ?? 'examples,coverage,fuzzing,stateful',
    '--max-examples',
    maxExamples,
    '--max-time',
    maxTime,
    '--seed',
    seed,
    '--workers',
    process.env.FUZZ_WORKERS ?? '1',
    '--max-redirects',
    '0',
    '--request-timeout',
    '30',
    '--generation-database',
    'none',
    '--suppress-health-check',
    'all',
    '--header',
    `Authorization: Bearer ${token}`,
    '--report',
    'junit',
    '--report-dir',
    artifacts,
    '--no-color',
    ...EXCLUDED_OPERATION_IDS.flatMap((id) => ['--exclude-operation-id', id]),
    ...(process.env.FUZZ_ARGS ? process.env.FUZZ_ARGS.split(' ').filter(Boolean) : []),
  ];
  console.log(
    `schemathesis ${SCHEMATHESIS_VERSION} against ${service.baseUrl} (seed ${seed}, ${maxExamples} examples per operation, ${maxTime} s at most)`,
  );
  // In the artifacts folder: schemathesis keeps its cache of failing cases (replayed first next time) under .schemathesis/.
  const r = spawnSync(python, args, { cwd: artifacts, stdio: 'inherit' });
  status = r.status ?? 1;
  // The fuzzer's token must still be good at the end: a run whose later cases all answered 401 proves nothing.
  let after = '';
  for (let attempt = 0; attempt < 3 && !after.startsWith('200 '); attempt++) {
    // (A pooled keep-alive connection may have been closed by the server meanwhile: a network error is tried again.)
    after = await fetch(`${service.baseUrl}/api/whoami`, { headers: { authorization: `Bearer ${token}` } }).then(
      async (a) => `${a.status} ${await a.text()}`,
      (err) => `no answer (${err.cause?.code ?? err.message})`,
    );
    if (!after.startsWith('no answer')) break;
  }
  if (!after.startsWith('200 ')) {
    console.log(`\nthe fuzzing token no longer authenticates or the service stopped answering: GET /api/whoami → ${after}`);
    status = status || 1;
  }
  fs.writeFileSync(path.join(artifacts, 'service.log'), service.log());
  if (status !== 0)
    console.log(
      `\nschemathesis failed; reproduce with FUZZ_SEED=${seed} npm run fuzz. The service's errors (all of its log: ${path.relative(root, path.join(artifacts, 'service.log'))}):\n${service
        .log()
        .split('\n')
        .filter((l) => /"level":(50|60)/.test(l))
        .slice(0, 40)
        .join('\n')}`,
    );
} finally {
  await service.stop();
}
process.exit(status);
