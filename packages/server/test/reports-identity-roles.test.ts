import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportRig } from './report-export-helpers.js';
import { tableReport } from '../../console/src/components/reports/table-report.js';

// Row-level roles of the semantic model travel with the effective identity (issue 23), and the console's "New table
// report" definition exports as its user. Through the real app against the sandbox.

const DATES = [
  { name: 'StartDate', value: '2026-01-01' },
  { name: 'EndDate', value: '2026-12-31' },
];

test('a model with row-level roles: the export sends them; an admin narrows them; a role the model lacks is refused with the service’s text', async (t) => {
  const { h, sb, call, admin, session, exportOf, sentIdentities, conforming, model, domain } = await exportRig(t);
  // Give the installed semantic model two roles, as a modeller would (TMSL roles in model.bim).
  const group = sb.ids.platformWorkspaceId;
  const dp = h.services.backends.dataPlatform;
  const definition = await dp.getDefinition(group, model, 'TMSL');
  const bimPart = definition.parts.find((p) => p.path === 'model.bim')!;
  const bim = JSON.parse(Buffer.from(bimPart.payload, 'base64').toString('utf8'));
  bim.model.roles = [
    { name: 'Floor staff', modelPermission: 'read', tablePermissions: [{ name: 'Machines', filterExpression: '[is_active] = TRUE()' }] },
    { name: 'Compliance', modelPermission: 'read' },
  ];
  bimPart.payload = Buffer.from(JSON.stringify(bim)).toString('base64');
  await dp.updateDefinition(group, model, { parts: definition.parts.filter((p) => p.path !== '.platform') });

  const listed = (await call('GET', '', admin)).json().reports as Array<{ id: string; name: string }>;
  const floor = listed.find((r) => r.name === 'Daily Floor Performance')!;
  const ari = await session('ari');
  const mine = await exportOf(floor.id, ari, { format: 'PDF', parameterValues: DATES });
  assert.equal(mine.job?.status, 'Succeeded', mine.start.body);
  assert.deepEqual(await sentIdentities(floor.id), [
    { username: `ari@${domain}`, roles: ['Floor staff', 'Compliance'], datasets: [model] },
  ]);

  const narrowed = await exportOf(floor.id, admin, {
    format: 'CSV',
    parameterValues: DATES,
    effectiveIdentity: { username: `ari@${domain}`, roles: ['Compliance'] },
  });
  assert.equal(narrowed.job?.status, 'Succeeded', narrowed.start.body);
  assert.deepEqual(((await sentIdentities(floor.id)) as Array<{ roles: string[] }>)[0]?.roles, ['Compliance']);

  const unknown = await call('POST', `/${floor.id}/exports`, admin, {
    format: 'PDF',
    parameterValues: DATES,
    effectiveIdentity: { username: `ari@${domain}`, roles: ['Pit boss'] },
  });
  assert.equal(unknown.statusCode, 400, unknown.body);
  assert.equal(unknown.json().error.code, 'reporting_refused');
  assert.match(unknown.json().error.message, /Role 'Pit boss' is not defined in semantic model/);

  const none = await call('POST', `/${floor.id}/exports`, admin, {
    format: 'PDF',
    parameterValues: DATES,
    effectiveIdentity: { username: `ari@${domain}`, roles: [] },
  });
  assert.equal(none.statusCode, 400, none.body);
  assert.match(none.json().error.message, /row-level security: the effective identity .* must include roles/);
  await conforming(/\/ExportTo$/i);
});

test('the console’s "New table report" over the app’s semantic model publishes and exports as the signed-in user', async (t) => {
  const { call, admin, session, exportOf, sentIdentities, model, domain } = await exportRig(t);
  const definition = tableReport({
    title: 'Machines by zone',
    apiHost: 'api.powerbi.com',
    datasetId: model,
    table: 'Machines',
    columns: [{ name: 'asset_number' }, { name: 'floor_zone' }, { name: 'game_theme' }],
  });
  const published = await call('POST', '', admin, { name: 'Machines by zone', definition });
  assert.equal(published.statusCode, 201, published.body);
  const report = published.json().report;
  assert.equal(report.datasetId, model, 'the new report names the model it reads');
  const ari = await session('ari');
  const done = await exportOf(report.id, ari, { format: 'PDF' });
  assert.equal(done.job?.status, 'Succeeded', `${done.start.body} ${JSON.stringify(done.job)}`);
  assert.deepEqual(await sentIdentities(report.id), [{ username: `ari@${domain}`, datasets: [model] }]);
  assert.match(done.file!.toString('latin1'), /Machines by zone/);
});
