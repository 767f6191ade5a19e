// The diagnosis follows the failing service: a search-service 403 (an install step's link) names the search
// service's roles, never the data platform's workspace or lakehouse roles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose } from '../src/identity/diagnosis.js';
import { buildWithSandbox, install, workspace } from './install-helpers.js';

const WORKSPACE_ADVICE = /workspace identity missing a role|lakehouse|svc identity grant|workspace role|on the workspace/;

test('a 403 from a service with a role of its own names that role in causes and actions', () => {
  const search = diagnose({ status: 403, code: 'Forbidden', service: 'search' });
  assert.equal(search.symptom.text, 'HTTP 403 from the search service');
  assert.match(search.likelyCauses.join(' '), /lacks Search Service Contributor \(and Search Index Data Contributor/);
  assert.match(search.requiredGrant!, /Search Service Contributor/);
  assert.doesNotMatch(JSON.stringify([search.likelyCauses, search.actions]), WORKSPACE_ADVICE);
  const assign = search.actions.find((a) => /assign the identity Search Service Contributor/.test(a.action));
  assert.ok(assign, JSON.stringify(search.actions));
  assert.match(assign.command, /--role "Search Service Contributor".*--role "Search Index Data Contributor"/);

  for (const [service, role] of [
    ['kql', /AllDatabasesAdmin/],
    ['warehouse', /db_owner/],
    ['synapse', /Synapse Artifact Publisher/],
    ['arm', /Contributor on the cluster/],
  ] as const) {
    const d = diagnose({ status: 403, service });
    assert.match(d.likelyCauses.join(' '), role, service);
    assert.doesNotMatch(JSON.stringify(d.actions), /lakehouse|svc identity grant/, service);
  }
  // A 401 keeps its credential causes; the grant it advises is still the service's own.
  const s401 = diagnose({ status: 401, service: 'search' });
  assert.match(s401.likelyCauses.join(' '), /expired or rotated secret/);
  assert.ok(s401.actions.some((a) => /Search Service Contributor/.test(a.action)));
  // The data platform and an unnamed service keep the workspace and lakehouse advice.
  assert.match(diagnose({ status: 403, service: 'data-platform' }).likelyCauses.join(' '), /workspace identity missing a role/);
  assert.ok(diagnose({ status: 403 }).actions.some((a) => /lakehouse/.test(a.action)));
});

test('the diagnosis linked from an install step refused by the search service names the search roles', { timeout: 240_000 }, async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  await sandbox.admin.revoke({ service: 'search', role: 'Search Service Contributor' });
  await sandbox.admin.revoke({ service: 'search', role: 'Search Index Data Contributor' });
  const job = await install(h, tenant, 'app-data-steward', { workspaceId: await workspace(h, tenant) });
  const step = job.provision.steps.find((s: any) => s.itemType === 'search-index');
  assert.equal(step.result.status, 'remediation');
  assert.match(step.result.diagnosis, /^\/api\/admin\/identity\/diagnose\?service=search&status=403/);
  const r = await h.app.inject({ method: 'GET', url: step.result.diagnosis, headers: tenant.auth });
  assert.equal(r.statusCode, 200, r.body);
  const d = r.json().diagnosis;
  assert.equal(d.symptom.text, 'HTTP 403 from the search service');
  assert.match(d.likelyCauses.join(' '), /Search Service Contributor/);
  assert.match(d.requiredGrant, /Search Service Contributor.*Search Index Data Contributor/);
  assert.ok(d.actions.some((a: any) => /^assign the identity Search Service Contributor .* on the search service/.test(a.action)));
  assert.doesNotMatch(JSON.stringify([d.likelyCauses, d.actions]), WORKSPACE_ADVICE);
});
