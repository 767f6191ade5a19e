// The pure parts of identity operations: diagnosis table, claim checks, severity, expiry alerts, rotation, incident rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../src/identity/diagnosis.js';
import { checkClaims, decodeToken } from '../src/identity/claims.js';
import { classifySeverity } from '../src/identity/severity.js';
import { expiryAlert } from '../src/identity/secret-alerts.js';
import { mayRun, nextStep, type RotationProgress } from '../src/identity/rotation.js';
import { approvalProblem, changeProblem, closeProblem, monitoringUntil } from '../src/identity/incident-rules.js';

const DAY = 86_400_000;
const now = new Date('2026-03-01T12:00:00Z');

test('every symptom of SPEC.md’s table maps to its likely cause', () => {
  const cases: Array<[Parameters<typeof diagnose>[0], string, RegExp]> = [
    [{ status: 401, code: 'TokenExpired' }, 'http-401', /expired or rotated secret/],
    [{ status: 403, code: 'AuthorizationFailed' }, 'http-403-authorization-failed', /workspace identity missing a role/],
    [{ status: 400, code: 'AADSTS50076' }, 'AADSTS50076', /MFA challenge/],
    [{ status: 400, body: JSON.stringify({ error: 'unauthorized_client', error_codes: [700016] }) }, 'AADSTS700016', /wrong client id/],
    [{ status: 401, body: 'AADSTS7000215: Invalid client secret provided.' }, 'AADSTS700016', /rotated or expired secret/],
    [{ code: '50105' }, 'AADSTS50105', /not assigned to the application/],
    [{ code: 'AADSTS53003' }, 'AADSTS53003', /conditional access/],
    [{ code: 'AADSTS500011' }, 'AADSTS500011', /removed guest/],
    [{ status: 400, body: '{"error":"expired_token"}' }, 'expired_token', /refresh token expired/],
    [{ status: 403, body: 'Client IP not allowed: 203.0.113.9' }, 'client-ip-not-allowed', /egress address/],
  ];
  for (const [input, id, cause] of cases) {
    const d = diagnose(input);
    assert.equal(d.symptom.id, id, JSON.stringify(input));
    assert.match(d.likelyCauses.join(' '), cause);
    assert.ok(d.actions.length > 0 && d.firstChecks.length > 0);
  }
  assert.deepEqual(diagnose({ code: 'AADSTS53003', identityType: 'ip-firewall' }).firstChecks, [
    'current egress IP against the firewall ranges',
  ]);
  assert.equal(diagnose({ status: 403, service: 'kql' }).requiredGrant, 'the AllDatabasesAdmin cluster principal role, principal type App');
  assert.equal(diagnose({ status: 500 }).symptom.id, 'unrecognized');
  assert.throws(() => diagnose({}), /at least one/);
});

test('the required grant names the role the failing data-platform call needs (reference/data-platform-api.md)', () => {
  const refused = { status: 403, code: 'InsufficientWorkspaceRole', service: 'data-platform' } as const;
  const cases: Array<[Parameters<typeof diagnose>[0]['call'], string]> = [
    [{ call: 'firewall-rules' }, 'Admin'],
    [{ call: 'grant-role', role: 'Admin' }, 'Admin'],
    [{ call: 'grant-role', role: 'Contributor' }, 'Member'],
    [{ call: 'remove-role-assignment', role: 'Admin' }, 'Admin'],
    [{ call: 'create-item' }, 'Contributor'],
    [{ call: 'run-pipeline' }, 'Contributor'],
    [{ call: 'read-workspace' }, 'Viewer'],
    [{ call: 'list-role-assignments' }, 'Viewer'],
  ];
  for (const [call, role] of cases) {
    const d = diagnose({ ...refused, call });
    assert.match(
      d.requiredGrant!,
      new RegExp(
        `^the identity holds ${role} or higher on the workspace \\(.+ needs it\\), and the tenant setting "Service principals can use Fabric APIs"`,
      ),
      JSON.stringify(call),
    );
    assert.ok(
      d.actions.some((a) => a.action === `grant the identity ${role} on the workspace (journaled, can be rolled back)`),
      JSON.stringify(d.actions),
    );
  }
  // The call unknown (a pasted answer, a link): each role with its calls, never Contributor for everything.
  const any = diagnose(refused);
  assert.match(
    any.requiredGrant!,
    /Viewer for reading the workspace, listing the workspace role assignments; Contributor for creating and updating items \(provisioning\), running a pipeline job; Member for granting a workspace role .*; Admin for reading and changing the workspace firewall rules/,
  );
  assert.doesNotMatch(JSON.stringify(any), /Contributor on the workspace/);
  assert.ok(any.actions.some((a) => /the workspace role the failing call needs/.test(a.action)));
});

test('diagnose knows every name the API gives a backing service, each with its required grant', () => {
  const grants: Record<string, RegExp> = {
    'data-platform': /workspace role the failing call needs.*"Service principals can use Fabric APIs"/,
    dataPlatform: /workspace role the failing call needs.*"Service principals can use Fabric APIs"/,
    arm: /^Contributor on the cluster$/,
    kql: /^the AllDatabasesAdmin cluster principal role, principal type App$/,
    search: /^the Search Service Contributor role on the service/,
    sql: /FROM EXTERNAL PROVIDER .*db_owner/,
    warehouse: /FROM EXTERNAL PROVIDER .*db_owner/,
    reporting:
      /service principals use the reporting APIs.*Contributor or higher on the workspace to publish \(Member or higher for embed tokens\)/,
    storage: /OneLake data: Contributor or higher to write/,
    oneLake: /OneLake data: Contributor or higher to write/,
    identity: /a valid credential for the identity/,
  };
  for (const [service, grant] of Object.entries(grants)) {
    assert.match(diagnose({ status: 403, service }).requiredGrant ?? '(none)', grant, service);
  }
  assert.match(
    diagnose({ code: 'AADSTS7000215', service: 'identity' }).requiredGrant!,
    /a valid credential/,
    'the identity provider answers without 401/403',
  );
  assert.equal(
    diagnose({ status: 500, service: 'dataPlatform' }).requiredGrant,
    undefined,
    'no grant for a failure that is not one of authorization',
  );
  assert.throws(
    () => diagnose({ status: 403, service: 'fabric' }),
    (e: Error & { field?: string }) => /Unknown backing service 'fabric': use one of data-platform/.test(e.message),
  );
});

const jwt = (claims: Record<string, unknown>) =>
  ['{"alg":"RS256"}', JSON.stringify(claims), 'sig'].map((p, i) => (i < 2 ? Buffer.from(p).toString('base64url') : p)).join('.');

test('claim checks mark each claim ok, or wrong with the expected value', () => {
  const expect = {
    audiences: ['https://analysis.windows.net/powerbi/api'],
    appId: 'app-1',
    objectId: 'oid-1',
    tenantId: 'tid-1',
    roles: ['Tenant.Read.All'],
  };
  const good = decodeToken(
    jwt({
      aud: 'https://analysis.windows.net/powerbi/api',
      appid: 'app-1',
      oid: 'oid-1',
      tid: 'tid-1',
      roles: ['Tenant.Read.All'],
      exp: now.getTime() / 1000 + 600,
    }),
  ).claims;
  const ok = checkClaims(good, expect, now);
  assert.equal(ok.ok, true, JSON.stringify(ok.checks));
  const bad = checkClaims(
    { aud: 'https://management.azure.com/', appid: 'app-2', oid: 'oid-1', tid: 'tid-9', roles: [], exp: now.getTime() / 1000 - 5 },
    expect,
    now,
  );
  assert.equal(bad.ok, false);
  const by = Object.fromEntries(bad.checks.map((c) => [c.claim, c]));
  assert.equal(by.aud!.status, 'wrong');
  assert.deepEqual(by.aud!.expected, ['https://analysis.windows.net/powerbi/api']);
  assert.equal(by.appid!.expected, 'app-1');
  assert.equal(by.oid!.status, 'ok');
  assert.equal(by.tid!.expected, 'tid-1');
  assert.equal(by.roles!.status, 'wrong');
  assert.equal(by.exp!.status, 'wrong');
  assert.equal(by.wids!.status, 'unchecked');
  assert.throws(() => decodeToken('not-a-token'), /not a JWT/);
});

test('severity: more than 10 principals within 5 minutes is SEV1; one user’s 403 is SEV3', () => {
  const at = (s: number) => new Date(now.getTime() + s * 1000);
  const eleven = Array.from({ length: 11 }, (_, i) => ({ principal: `p${i}`, status: 400, code: 'AADSTS53003', at: at(i * 25) }));
  assert.equal(classifySeverity(eleven).severity, 'SEV1');
  assert.equal(classifySeverity(eleven.slice(0, 10)).severity, 'SEV3', 'ten is not more than ten');
  const spread = Array.from({ length: 11 }, (_, i) => ({ principal: `p${i}`, status: 401, at: at(i * 40) })); // 400 s apart end to end
  assert.equal(classifySeverity(spread).severity, 'SEV3');
  assert.deepEqual(classifySeverity([{ principal: 'ari@x', status: 403, at: now }]).severity, 'SEV3');
  assert.equal(classifySeverity([], { primaryCicdIdentityBroken: true }).severity, 'SEV2');
  assert.equal(classifySeverity([], { productionPipelineAuthFailingMinutes: 31 }).severity, 'SEV2');
  assert.equal(classifySeverity([], { productionPipelineHalted: true }).severity, 'SEV1');
  assert.equal(classifySeverity([], { noProductionImpact: true }).severity, 'SEV4');
});

test('expiry alerts at 90, 30 and 7 days remaining', () => {
  const exp = new Date(now.getTime() + 100 * DAY);
  const at = (days: number) => new Date(exp.getTime() - days * DAY);
  assert.equal(expiryAlert(exp, at(91)), undefined);
  assert.equal(expiryAlert(exp, at(90))?.threshold, 90);
  assert.equal(expiryAlert(exp, at(30))?.threshold, 30);
  assert.equal(expiryAlert(exp, at(8))?.threshold, 30);
  assert.deepEqual(expiryAlert(exp, at(6)), { threshold: 7, level: 'critical', daysRemaining: 6 });
  assert.deepEqual(expiryAlert(exp, at(-1)), { threshold: 0, level: 'expired', daysRemaining: 0 });
});

test('rotation: steps in order, the old secret deleted only after verification and 24 hours', () => {
  const t0 = now.toISOString();
  const r: RotationProgress = { state: 'in-progress', done: { 'create-new-secret': t0, 'store-in-vault': t0 } };
  assert.equal(nextStep(r), 'restart-consumers');
  assert.match(String((mayRun(r, 'delete-old-secret', now) as { reason: string }).reason), /restart-consumers comes first/);
  r.done['restart-consumers'] = t0;
  r.done.verify = t0;
  const early = mayRun(r, 'delete-old-secret', new Date(now.getTime() + 23 * 3_600_000));
  assert.equal(early.ok, false);
  assert.match((early as { reason: string }).reason, /24 hours/);
  assert.equal(mayRun(r, 'delete-old-secret', new Date(now.getTime() + 24 * 3_600_000)).ok, true);
});

test('rotation: the time left before the old secret may go carries 60 minutes into an hour', () => {
  const t0 = now.toISOString();
  const r: RotationProgress = {
    state: 'in-progress',
    done: { 'create-new-secret': t0, 'store-in-vault': t0, 'restart-consumers': t0, verify: t0 },
  };
  const MIN = 60_000;
  const leftWhen = (msLeft: number) =>
    /\((.+) from now\)/.exec(
      (mayRun(r, 'delete-old-secret', new Date(now.getTime() + 24 * 3_600_000 - msLeft)) as { reason: string }).reason,
    )![1];
  assert.equal(leftWhen(59.5 * MIN), '1 h', '59.5 min rounds up to a whole hour, not "0 h 60 min"');
  assert.equal(leftWhen((23 * 60 + 59.9) * MIN), '24 h', '23 h 59.9 min is not "23 h 60 min"');
  assert.equal(leftWhen(24 * 3_600_000), '24 h', 'exactly 24 h (the moment the new secret was created)');
  assert.equal(leftWhen((23 * 60 + 59) * MIN), '23 h 59 min');
  assert.equal(leftWhen(60 * MIN + 1), '1 h 1 min', 'a part of a minute counts as a minute: never sooner than it is');
  assert.equal(leftWhen(90_000), '2 min');
  assert.equal(leftWhen(1), '1 min');
});

test('incidents: approvals, snapshots, and monitoring for twice the duration', () => {
  assert.match(String(approvalProblem('SEV2', true)), /only for SEV1/);
  assert.equal(approvalProblem('SEV1', true), undefined);
  assert.match(String(changeProblem('conditional-access', [], true)), /needs an approval/);
  const approval = { id: 'a', changeKind: 'conditional-access', approver: 'lead', verbal: true, at: now.toISOString() };
  assert.match(String(changeProblem('conditional-access', [approval], false)), /snapshot/);
  assert.equal(changeProblem('conditional-access', [approval], true), undefined);
  assert.equal(changeProblem('firewall-rule-added', [], false), undefined);
  const fixed = new Date(now.getTime() + 3_600_000);
  const until = monitoringUntil(now, fixed);
  assert.equal(until.getTime() - fixed.getTime(), 2 * 3_600_000);
  assert.match(String(closeProblem({ status: 'open' }, fixed)), /verification/);
  assert.match(
    String(closeProblem({ status: 'monitoring', monitoringUntil: until.toISOString() }, new Date(until.getTime() - 1))),
    /twice/,
  );
  assert.equal(closeProblem({ status: 'monitoring', monitoringUntil: until.toISOString() }, until), undefined);
});
