import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportRig } from './report-export-helpers.js';

// A paginated report's metadata (issue 23): modifiedDateTime and modifiedBy from the reporting service's admin route
// (a gate saying why when the tenant setting for admin APIs is off), datasetId from the report's data sources.

interface Listed {
  id: string;
  name: string;
  datasetId: string | null;
  modifiedDateTime: string | null;
  modifiedBy: string | null;
  metadataGate?: { reason: string; remediation: string; link: string };
}

test('metadata: modified date and author from the admin route, the dataset from the data sources; with admin APIs off, a gate', async (t) => {
  const { h, sb, call, admin, model, conforming } = await exportRig(t);
  const list = await call('GET', '', admin);
  assert.equal(list.statusCode, 200, list.body);
  const reports = list.json().reports as Listed[];
  const floor = reports.find((r) => r.name === 'Daily Floor Performance');
  const sales = reports.find((r) => r.name === 'Sales by Region');
  assert.ok(floor && sales, list.body);
  assert.equal(floor.datasetId, model, 'the report bound to the app’s semantic model names it');
  assert.equal(sales.datasetId, null, 'a report over SQL reads no semantic model');
  for (const r of [floor, sales]) {
    assert.ok(r.modifiedDateTime && !Number.isNaN(Date.parse(r.modifiedDateTime)), `${r.name}: ${JSON.stringify(r)}`);
    assert.ok(r.modifiedBy, `${r.name} names who changed it`);
    assert.equal(r.metadataGate, undefined);
  }
  const adminCalls = async () =>
    (await sb.admin.requests({ service: 'reporting' })).filter((e) => e.method === 'GET' && /\/admin\/groups\/[^/]+\/reports/.test(e.path));
  assert.equal((await adminCalls()).length, 1, 'the admin route was read once');

  const one = await call('GET', `/${floor.id}`, admin);
  assert.equal(one.statusCode, 200, one.body);
  assert.deepEqual(
    [one.json().report.datasetId, one.json().report.modifiedDateTime, one.json().report.modifiedBy],
    [floor.datasetId, floor.modifiedDateTime, floor.modifiedBy],
  );
  assert.equal((await adminCalls()).length, 1, 'within SVC_REPORT_METADATA_CACHE_SECONDS the get reuses the list’s read');

  // A report made outside the service (cloned in the reporting service itself) is not in the reused answer: read again.
  const biToken = await h.services.backends.pipeline.credential.getToken(h.services.profile.biAudience);
  const cloned = await fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${sb.ids.platformWorkspaceId}/reports/${sales.id}/Clone`, {
    method: 'POST',
    headers: { authorization: `Bearer ${biToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Sales by Region (copy)' }),
  });
  assert.equal(cloned.status, 200, await cloned.clone().text());
  const copy = ((await call('GET', '', admin)).json().reports as Listed[]).find((r) => r.name === 'Sales by Region (copy)');
  assert.ok(copy?.modifiedDateTime && copy.modifiedBy, JSON.stringify(copy));
  assert.equal((await adminCalls()).length, 2, 'a report the reused answer lacks reads the admin route again');

  // A republished definition moves the modified date on.
  const def = (await call('GET', `/${floor.id}/definition`, admin)).json();
  await new Promise((r) => setTimeout(r, 20));
  const put = await call(
    'PUT',
    `/${floor.id}/definition`,
    { ...admin, 'if-match': def.etag },
    {
      definition: def.definition.replace('<Author>Casino Analytics</Author>', '<Author>Casino Analytics (edited)</Author>'),
    },
  );
  assert.equal(put.statusCode, 200, put.body);
  assert.ok(Date.parse(put.json().report.modifiedDateTime) > Date.parse(floor.modifiedDateTime!), 'the put answers the new date');

  await sb.admin.setSwitch('reporting.adminApisEnabled', false);
  // A change made through the service reads the admin route again at once: now refused.
  const again = (await call('GET', `/${floor.id}/definition`, admin)).json();
  const reput = await call('PUT', `/${floor.id}/definition`, { ...admin, 'if-match': again.etag }, { definition: again.definition });
  assert.equal(reput.statusCode, 200, reput.body);
  assert.match(reput.json().report.metadataGate?.remediation ?? '', /read-only admin APIs/);
  const gated = await call('GET', '', admin);
  assert.equal(gated.statusCode, 200, `the reports still list: ${gated.body}`);
  for (const r of gated.json().reports as Listed[]) {
    assert.equal(r.modifiedDateTime, null);
    assert.equal(r.modifiedBy, null);
    assert.ok(r.metadataGate, `${r.name} says why its modified fields are missing`);
    assert.match(r.metadataGate.remediation, /Service principals can access read-only admin APIs/);
    assert.match(r.metadataGate.link, /tenantSettings/);
  }
  const gatedOne = (await call('GET', `/${floor.id}`, admin)).json().report as Listed;
  assert.equal(gatedOne.datasetId, model, 'the dataset does not need the admin route');
  assert.match(gatedOne.metadataGate?.reason ?? '', /admin API/);
  await conforming(/\/admin\/groups\/[^/]+\/reports/);
});
