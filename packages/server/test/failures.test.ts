import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackingError, HostNotAllowedError, transientFailure, type BackingService } from '../src/backends/http-pipeline.js';
import { SqlError } from '../src/backends/sql.js';
import { backing, classify, raiseGate, type FailureContext, type GateFamily } from '../src/backends/failures.js';
import { selectCloud } from '../src/cloud/profiles.js';
import { GateError, type ServiceError } from '../src/errors.js';
import { failedStep } from '../src/install/step-failure.js';

// The one classifier's table: what each backing service's 401/403/429/5xx/404/409/400 and its setting, capacity and
// role codes mean to the three users (an identity operation's and a report's HTTP answer, an install step's result).

const profile = selectCloud({ name: 'commercial', overrides: {} });
const body = (code: string) => JSON.stringify({ error: { code, message: `said ${code}` } });
/** A failed call: an answer with the service's error body, or (status 0) no answer at all. */
const err = (service: BackingService, status: number, code?: string) =>
  new BackingError(service, status, status && code ? body(code) : '', code, status ? undefined : 'no answer');
/** A reporting error whose reason is a pbi.error detail code under a generic top code. */
const pbi = (status: number, detail: string) =>
  new BackingError(
    'reporting',
    status,
    JSON.stringify({ error: { code: 'PowerBIError', 'pbi.error': { details: [{ code: detail }] } } }),
    'PowerBIError',
  );

/** The HTTP answer of an API call that failed with `e`: status, code, and the gate's reason or the hint. */
async function answer(e: BackingError, gates?: GateFamily) {
  const context: FailureContext | undefined = gates ? { profile, gates } : undefined;
  const x = (await backing(() => Promise.reject(e), context).catch((a) => a)) as ServiceError;
  assert.equal(x.message, e.body || e.message, 'the backing text is the message, unmodified');
  return [x.status, x.code, x.extra.gate?.reason ?? x.extra.hint, ...(x.extra.retryAfter ? [x.extra.retryAfter] : [])];
}

test('identity operations: 400/404/409 pass through, the platform gates by status and code, the rest is a 502', async () => {
  const fw = { platform: { call: 'firewall-rules', workspaceId: 'ws1' } } as const;
  const hint = (service: string, status: number, code: string) =>
    `${service} answered ${status || 'no status'} ${code}; diagnose at /api/admin/identity/diagnose?service=${service}&status=${status}&code=${code}`;
  const cases: Array<[BackingError, GateFamily | undefined, unknown[]]> = [
    [
      err('data-platform', 401, 'Unauthorized'),
      fw,
      [424, 'deployment_gate', 'data platform 401: the service identity may not use the platform APIs'],
    ],
    [err('data-platform', 401, 'TokenExpired'), fw, [502, 'backing_refused', hint('data-platform', 401, 'TokenExpired')]],
    [
      err('data-platform', 403, 'InsufficientWorkspaceRole'),
      fw,
      [424, 'deployment_gate', 'data platform 403: the service identity is not Admin on the workspace'],
    ],
    [err('data-platform', 403), fw, [424, 'deployment_gate', 'data platform 403: the service identity is not Admin on the workspace']],
    [
      err('data-platform', 403, 'RequestBlockedByNetworkPolicy'),
      fw,
      [502, 'backing_refused', hint('data-platform', 403, 'RequestBlockedByNetworkPolicy')],
    ],
    [err('data-platform', 400, 'InvalidInput'), fw, [400, 'backing_refused', hint('data-platform', 400, 'InvalidInput')]],
    [err('data-platform', 404, 'EntityNotFound'), fw, [404, 'backing_refused', hint('data-platform', 404, 'EntityNotFound')]],
    [err('data-platform', 409, 'Conflict'), fw, [409, 'backing_refused', hint('data-platform', 409, 'Conflict')]],
    [err('data-platform', 429, 'TooManyRequests'), fw, [502, 'backing_refused', hint('data-platform', 429, 'TooManyRequests')]],
    [err('data-platform', 503, 'ServiceUnavailable'), fw, [502, 'backing_refused', hint('data-platform', 503, 'ServiceUnavailable')]],
    [
      err('identity', 403, 'Authorization_RequestDenied'),
      undefined,
      [502, 'backing_refused', hint('identity', 403, 'Authorization_RequestDenied')],
    ],
    [
      err('identity', 404, 'Request_ResourceNotFound'),
      undefined,
      [404, 'backing_refused', hint('identity', 404, 'Request_ResourceNotFound')],
    ],
    [err('storage', 412, 'ConditionNotMet'), undefined, [502, 'backing_refused', hint('storage', 412, 'ConditionNotMet')]],
    [err('storage', 0, 'timeout'), undefined, [502, 'backing_refused', hint('storage', 0, 'timeout')]],
    [new HostNotAllowedError('data-platform', 'evil.example'), fw, [502, 'backing_refused', hint('data-platform', 0, 'host_not_allowed')]],
  ];
  for (const [e, gates, want] of cases) assert.deepEqual(await answer(e, gates), want, `${e.service} ${e.status} ${e.code}`);
  const literal = await answer(err('data-platform', 404, 'EntityNotFound'));
  assert.equal(
    literal[2],
    'data-platform answered 404 EntityNotFound; diagnose at /api/admin/identity/diagnose?service=data-platform&status=404&code=EntityNotFound',
  );
});

test('reports: the reporting gates by code, then 404/409/429 pass through, any other 4xx is 400, the rest a 502', async () => {
  const xlsx = { reporting: { setting: 'Export to Excel' } } as const;
  const said = (s: string) => `the reporting service answered ${s}`;
  const cases: Array<[BackingError, unknown[]]> = [
    [err('reporting', 401, 'PowerBINotAuthorizedException'), [424, 'deployment_gate', 'reporting service 401/403']],
    [err('reporting', 403), [424, 'deployment_gate', 'reporting service 401/403']],
    [pbi(403, 'NotDatasourceOwner'), [400, 'reporting_refused', said('403 PowerBIError')]],
    [pbi(403, 'FeatureDisabledByTenantSetting'), [424, 'deployment_gate', 'the tenant setting "Export to Excel" is off']],
    [err('reporting', 400, 'FeatureDisabledByTenantSetting'), [424, 'deployment_gate', 'the tenant setting "Export to Excel" is off']],
    [pbi(400, 'LicenseRequired'), [424, 'deployment_gate', 'the workspace has no capacity or licence that allows this']],
    [err('reporting', 429, 'PPUExportRateLimit'), [424, 'deployment_gate', 'the workspace has no capacity or licence that allows this']],
    [err('reporting', 400, 'InvalidRequest'), [400, 'reporting_refused', said('400 InvalidRequest')]],
    [err('reporting', 404, 'ItemNotFound'), [404, 'not_found', said('404 ItemNotFound')]],
    [err('reporting', 409, 'Conflict'), [409, 'conflict', said('409 Conflict')]],
    [err('reporting', 412, 'PreconditionFailed'), [400, 'reporting_refused', said('412 PreconditionFailed')]],
    [err('reporting', 429, 'TooManyRequests'), [429, 'rate_limited', said('429 TooManyRequests'), 30]],
    [err('reporting', 500, 'InternalError'), [502, 'backing_refused', said('500 InternalError')]],
    [err('reporting', 503, 'ServiceUnavailable'), [502, 'backing_refused', said('503 ServiceUnavailable')]],
    [err('identity', 0, 'AADSTS7000215'), [502, 'backing_refused', said('no status AADSTS7000215')]],
    [new HostNotAllowedError('reporting', 'evil.example'), [502, 'host_not_allowed', said('no status host_not_allowed')]],
  ];
  for (const [e, want] of cases) assert.deepEqual(await answer(e, xlsx), want, `${e.status} ${e.body}`);
  assert.deepEqual(
    (await answer(err('reporting', 403, 'FeatureDisabledByTenantSetting'), { reporting: {} }))[2],
    'the tenant setting "unknown" is off',
  );
});

/** The step result of a provisioner whose call, of gate family `gates`, failed with `e`. */
function step(e: unknown, gates?: GateFamily) {
  try {
    if (gates) raiseGate(e, { profile, gates });
    throw e;
  } catch (x) {
    return failedStep(x, 'lakehouse', []);
  }
}

test('installs: a gate is a remediation step with the backing text, any other backing failure a failed step', () => {
  const dp = { auth: 'data-platform-auth' } as const;
  const diagnose = (q: string) => `/api/admin/identity/diagnose?${q}`;
  const remediation = (r: ReturnType<typeof step>) => [r.status, r.gate?.reason, r.error, r.steps, r.diagnosis];
  assert.deepEqual(remediation(step(err('data-platform', 401, 'Unauthorized'), dp)), [
    'remediation',
    'data platform 401/403',
    body('Unauthorized'),
    ['data-platform answered 401 Unauthorized'],
    diagnose('service=data-platform&status=401&code=Unauthorized'),
  ]);
  assert.deepEqual(remediation(step(err('data-platform', 403, 'TokenExpired'), dp)), [
    'remediation',
    'data platform 401/403',
    body('TokenExpired'),
    ['data-platform answered 403 TokenExpired'],
    diagnose('service=data-platform&status=403&code=TokenExpired'),
  ]);
  assert.equal(step(err('search', 403, 'Forbidden'), { auth: 'search-auth' }).gate?.reason, 'search service 401/403');
  assert.equal(step(err('arm', 401, 'AuthorizationFailed'), { auth: 'kql-arm-auth' }).gate?.reason, 'KQL 401/403 from resource manager');
  assert.match(
    step(err('kql', 403, 'Forbidden'), { auth: 'kql-create-table-auth', detail: { principal: 'app:1234' } }).gate!.remediation,
    /AllDatabasesAdmin, principal type App for 1234$/,
  );
  assert.equal(
    step(new SqlError(18456, 1, 14, 'Login failed for user'), { auth: 'warehouse-tsql-auth', detail: { sql: 'CREATE USER x' } }).gate
      ?.remediation,
    'CREATE USER x',
  );
  assert.equal(step(new SqlError(2714, 1, 16, 'There is already an object'), { auth: 'warehouse-tsql-auth' }).status, 'failed');
  assert.equal(step(pbi(403, 'FeatureDisabledByTenantSetting'), { reporting: {} }).gate?.reason, 'the tenant setting "unknown" is off');
  assert.equal(
    step(pbi(400, 'CapacityNotFound'), { reporting: {} }).gate?.reason,
    'the workspace has no capacity or licence that allows this',
  );
  assert.equal(step(err('reporting', 403, 'Forbidden'), { reporting: {} }).gate?.reason, 'reporting service 401/403');

  const failed = (r: ReturnType<typeof step>) => [r.status, r.error ?? r.message, r.code, r.steps, r.diagnosis];
  assert.deepEqual(failed(step(err('data-platform', 404, 'EntityNotFound'), dp)), [
    'failed',
    body('EntityNotFound'),
    'EntityNotFound',
    ['data-platform answered 404 (EntityNotFound)'],
    undefined,
  ]);
  assert.deepEqual(failed(step(err('data-platform', 409, 'ItemDisplayNameAlreadyInUse'), dp)), [
    'failed',
    body('ItemDisplayNameAlreadyInUse'),
    'ItemDisplayNameAlreadyInUse',
    ['data-platform answered 409 (ItemDisplayNameAlreadyInUse)'],
    undefined,
  ]);
  assert.deepEqual(failed(step(err('data-platform', 400, 'InvalidItemType'), dp)), [
    'failed',
    body('InvalidItemType'),
    'InvalidItemType',
    ['data-platform answered 400 (InvalidItemType)'],
    undefined,
  ]);
  assert.deepEqual(failed(step(err('search', 429, 'TooManyRequests'), { auth: 'search-auth' })), [
    'failed',
    body('TooManyRequests'),
    'TooManyRequests',
    ['search answered 429 (TooManyRequests)'],
    undefined,
  ]);
  assert.deepEqual(failed(step(err('kql', 503, 'ServiceUnavailable'))), [
    'failed',
    body('ServiceUnavailable'),
    'ServiceUnavailable',
    ['kql answered 503 (ServiceUnavailable)'],
    undefined,
  ]);
  assert.deepEqual(failed(step(err('data-platform', 403, 'Forbidden'))), [
    'failed',
    body('Forbidden'),
    'Forbidden',
    ['data-platform answered 403 (Forbidden)'],
    diagnose('service=data-platform&status=403&code=Forbidden'),
  ]);
  assert.deepEqual(failed(step(err('arm', 0, 'timeout'))), ['failed', 'no answer', 'timeout', ['arm failed (timeout)'], undefined]);
  assert.deepEqual(failed(step(err('identity', 0, 'AADSTS7000215'))), [
    'failed',
    'no answer',
    'AADSTS7000215',
    ['identity failed (AADSTS7000215)'],
    diagnose('service=identity&status=0&code=AADSTS7000215'),
  ]);
  assert.deepEqual(failed(step(new BackingError('search', 0, '', undefined, 'no answer'))), [
    'failed',
    'no answer',
    'backing_unreachable',
    ['search failed'],
    undefined,
  ]);

  assert.deepEqual(step(new GateError({ reason: 'r', remediation: 'm', link: 'l' })), {
    status: 'remediation',
    gate: { reason: 'r', remediation: 'm', link: 'l' },
    steps: [],
    diagnosis: undefined,
  });
  const internal = step(new TypeError('x is undefined'));
  assert.deepEqual([internal.status, internal.code, internal.error], ['failed', 'internal_error', undefined]);
  assert.match(internal.message!, /an internal error, not the backing service's answer\): x is undefined$/);
});

test('the verdict kinds: transient is what the pipeline retries; a refusal before sending is never transient', () => {
  const kind = (e: BackingError) => classify(e).kind;
  for (const s of [429, 502, 503, 504]) assert.equal(kind(err('kql', s, 'X')), 'transient', String(s));
  for (const c of ['timeout', 'ECONNRESET', 'UND_ERR_SOCKET', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'])
    assert.equal(kind(err('search', 0, c)), 'transient', c);
  for (const s of [400, 401, 403, 404, 409, 500]) assert.equal(kind(err('kql', s, 'X')), 'failed', String(s));
  assert.equal(kind(err('search', 0, 'network_error')), 'failed');
  assert.equal(kind(new HostNotAllowedError('kql', 'evil.example')), 'failed');
  assert.equal(
    transientFailure(0, 'timeout') && transientFailure(503) && !transientFailure(500) && !transientFailure(0, 'host_not_allowed'),
    true,
  );
  assert.equal(classify(err('data-platform', 401, 'X'), { profile, gates: { platform: { call: 'read-workspace' } } }).kind, 'gate');
  assert.equal(
    classify(err('kql', 401, 'X'), { profile, gates: { platform: { call: 'read-workspace' } } }).kind,
    'failed',
    'the platform family judges only the data platform',
  );
  assert.deepEqual(classify(err('data-platform', 409, 'X')), {
    kind: 'failed',
    cause: classify(err('data-platform', 409, 'X')).cause,
    callerStatus: 409,
  });
});
