import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { exportRig } from './report-export-helpers.js';

// Exports of reports over a semantic model run with an effective identity (issue 23): the signed-in user's user
// principal name, an API token owner's or SVC_REPORT_EFFECTIVE_USERNAME, or the one a tenant admin names; User!UserID
// in the rendered file is that identity. Through the real app against the sandbox's reporting emulator.

/** Every report of the curated catalog that has a definition (the apps' .rdl files), by display name. */
const CATALOG_REPORTS = loadCatalog()
  .apps.flatMap((a) => a.items)
  .filter((i) => i.itemType === 'report' && typeof (i.content as { rdlFile?: unknown }).rdlFile === 'string')
  .map((i) => i.displayName);

// Explicit dates: the defaults are expressions, evaluated by the renderer of another part of the issue.
const DATES = [
  { name: 'StartDate', value: '2026-01-01' },
  { name: 'EndDate', value: '2026-12-31' },
];

type Rig = Awaited<ReturnType<typeof exportRig>>;

/** The casino app's report, as the service lists it. */
async function casino(call: Rig['call'], admin: Rig['admin']): Promise<{ id: string; name: string }> {
  const listed = (await call('GET', '', admin)).json().reports as Array<{ id: string; name: string }>;
  const report = listed.find((r) => r.name === CATALOG_REPORTS[0]);
  assert.ok(report, `${CATALOG_REPORTS[0]} is listed`);
  return report;
}

test('each catalog report exports as the signed-in user: identities carry the user principal name, and User!UserID prints it', async (t) => {
  assert.ok(CATALOG_REPORTS.length > 0, 'the catalog has reports with a definition');
  const { call, admin, session, exportOf, sentIdentities, domain, model } = await exportRig(t);
  const listed = (await call('GET', '', admin)).json().reports as Array<{ id: string; name: string }>;
  const ari = await session('ari');
  for (const name of CATALOG_REPORTS) {
    const report = listed.find((r) => r.name === name);
    assert.ok(report, `${name} is published by the install`);
    const { start, job, file } = await exportOf(report.id, ari, { format: 'PDF', parameterValues: DATES });
    assert.equal(start.statusCode, 202, `${name}: ${start.body}`);
    assert.equal(job?.status, 'Succeeded', `${name}: ${JSON.stringify(job)}`);
    assert.deepEqual(await sentIdentities(report.id), [{ username: `ari@${domain}`, datasets: [model] }]);
    assert.match(file!.toString('latin1'), new RegExp(`by ari@${domain.replace(/\./g, '\\.')}`), `${name} prints User!UserID`);
  }
});

test('an admin names the identity (effectiveIdentity); anyone else sending it is refused 403 naming the field', async (t) => {
  const { h, call, admin, session, exportOf, sentIdentities } = await exportRig(t);
  const report = await casino(call, admin);
  const asAuditor = await exportOf(report.id, admin, {
    format: 'PDF',
    parameterValues: DATES,
    effectiveIdentity: { username: 'auditor@contoso.example' },
  });
  assert.equal(asAuditor.job?.status, 'Succeeded', asAuditor.start.body);
  assert.equal((await sentIdentities(report.id))?.length, 1);
  assert.match(asAuditor.file!.toString('latin1'), /by auditor@contoso\.example/);
  // Exporting as another user is on the audit trail with the name it ran as (never the parameter values).
  const trail = await h.app.inject({ method: 'GET', url: '/api/audit-events?kind=report.exported', headers: admin });
  assert.equal(trail.statusCode, 200, trail.body);
  const [event] = trail.json().auditEvents as Array<{ target: { id: string }; outcome: string; detail: Record<string, unknown> }>;
  assert.equal(event?.target.id, report.id, trail.body);
  assert.equal(event.outcome, 'accepted');
  assert.deepEqual(event.detail, {
    format: 'PDF',
    exportId: asAuditor.start.json().export.id,
    effectiveUsername: 'auditor@contoso.example',
  });

  const ari = await session('ari');
  const refused = await call('POST', `/${report.id}/exports`, ari, {
    format: 'PDF',
    effectiveIdentity: { username: 'ada@contoso.example' },
  });
  assert.equal(refused.statusCode, 403, refused.body);
  assert.equal(refused.json().error.field, 'effectiveIdentity');
  assert.match(refused.json().error.message, /effectiveIdentity may be set by a tenant admin/);

  const spaced = await call('POST', `/${report.id}/exports`, admin, { format: 'PDF', effectiveIdentity: { username: 'two words' } });
  assert.equal(spaced.statusCode, 400, spaced.body);
  assert.match(spaced.json().error.field, /effectiveIdentity/);
});

test('an API token: its owner’s user principal name when known, else a 424 gate naming SVC_REPORT_EFFECTIVE_USERNAME', async (t) => {
  const { h, call, admin, session, exportOf, sentIdentities, domain } = await exportRig(t);
  const report = await casino(call, admin);
  // The admin token's owner was never signed in through the identity provider: no user principal name.
  const gated = await call('POST', `/${report.id}/exports`, admin, { format: 'PDF', parameterValues: DATES });
  assert.equal(gated.statusCode, 424, gated.body);
  assert.equal(gated.json().error.code, 'deployment_gate');
  assert.match(gated.json().error.gate.remediation, /SVC_REPORT_EFFECTIVE_USERNAME/);

  // A token minted by a signed-in user carries that user's name.
  const ari = await session('ari');
  const minted = await h.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: ari,
    payload: { name: 'ari automation', scopes: ['read', 'reports'] },
  });
  assert.equal(minted.statusCode, 201, minted.body);
  const token = { authorization: `Bearer ${minted.json().secret}` };
  const done = await exportOf(report.id, token, { format: 'PDF', parameterValues: DATES });
  assert.equal(done.job?.status, 'Succeeded', done.start.body);
  assert.equal(((await sentIdentities(report.id)) as Array<{ username: string }>)[0]?.username, `ari@${domain}`);
});

test('SVC_REPORT_EFFECTIVE_USERNAME is the identity of a token whose owner has no user principal name', async (t) => {
  const { call, admin, exportOf, sentIdentities } = await exportRig(t, { SVC_REPORT_EFFECTIVE_USERNAME: 'reports@contoso.example' });
  const report = await casino(call, admin);
  const done = await exportOf(report.id, admin, { format: 'PDF', parameterValues: DATES });
  assert.equal(done.job?.status, 'Succeeded', done.start.body);
  assert.equal(((await sentIdentities(report.id)) as Array<{ username: string }>)[0]?.username, 'reports@contoso.example');
  assert.match(done.file!.toString('latin1'), /by reports@contoso\.example/);
});
