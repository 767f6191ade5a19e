import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportRig } from './report-export-helpers.js';
import { RdlDocument } from '../../console/src/designer/model/report.js';
import { insertElement, setTextboxValue } from '../../console/src/designer/model/items.js';
import { blankReport } from '../../console/src/designer/model/blank.js';
import { ensureModelField, setDataSetFilters } from '../../console/src/designer/model/data.js';
import { matrixSpec } from '../../console/src/designer/model/tablix-make.js';
import { dropField } from '../../console/src/designer/model/tablix-fields.js';
import { addTotal } from '../../console/src/designer/model/tablix-groups.js';
import { saveParameter } from '../../console/src/designer/model/params.js';
import { DRAFT_PREFIX } from '../src/reports/report-preview.js';

// The designer's Run (POST /api/items/paginated-report-preview): a draft definition rendered by the reporting service without
// publishing it. Through the real app against the sandbox's reporting emulator, over sockets.

const DATES = [
  { name: 'StartDate', value: '2026-01-01' },
  { name: 'EndDate', value: '2026-12-31' },
];

/** POST a draft to the preview route as `who`. */
const previewOf = (h: Awaited<ReturnType<typeof exportRig>>['h'], ws: string, who: Record<string, string>, payload: unknown) =>
  h.app.inject({ method: 'POST', url: `/api/items/paginated-report-preview?workspaceId=${ws}`, headers: who, payload: payload as object });

test('a draft renders to PDF and PNG with the caller’s identity; it is never listed and nothing is left behind', async (t) => {
  const { h, sb, ws, call, admin, model, sentIdentities, conforming } = await exportRig(t, {
    SVC_REPORT_EFFECTIVE_USERNAME: 'reports@contoso.example',
  });
  const listed = (await call('GET', '', admin)).json().reports as Array<{ id: string; name: string }>;
  const floor = listed.find((r) => r.name === 'Daily Floor Performance')!;
  const def = (await call('GET', `/${floor.id}/definition`, admin)).json();
  const doc = RdlDocument.parse(def.definition);
  setTextboxValue(doc.find('ParameterSummary')!, 'Draft from the designer');
  const draft = doc.toString();

  const pdf = await previewOf(h, ws, admin, { definition: draft, format: 'PDF', parameterValues: DATES });
  assert.equal(pdf.statusCode, 200, pdf.body);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  const text = pdf.rawPayload.toString('latin1');
  assert.ok(text.startsWith('%PDF-'));
  assert.match(text, /Draft from the designer/, 'the draft, not the published definition, is rendered');
  assert.match(text, /by reports@contoso\.example/, 'User!UserID is the effective identity');

  const png = await previewOf(h, ws, admin, { definition: draft, format: 'IMAGE', parameterValues: DATES });
  assert.equal(png.statusCode, 200, png.body);
  assert.equal(png.headers['content-type'], 'image/png');
  assert.deepEqual([...png.rawPayload.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  // The drafts went through the import call and ExportTo with the identity, then were deleted.
  const log = await sb.admin.requests({ service: 'reporting' });
  const imports = log.filter((e) => e.method === 'POST' && /\/imports\?/.test(e.path) && decodeURIComponent(e.path).includes(DRAFT_PREFIX));
  assert.equal(imports.length, 2, 'one draft import per run');
  const deletes = log.filter((e) => e.method === 'DELETE' && /\/reports\/[0-9a-f-]{36}$/i.test(e.path));
  assert.equal(deletes.length, 2, 'each draft deleted');
  const draftId = /\/reports\/([0-9a-f-]{36})$/i.exec(deletes[0]!.path)![1]!;
  assert.deepEqual(await sentIdentities(draftId), [{ username: 'reports@contoso.example', datasets: [model] }]);
  await conforming(/\/imports\?|\/exportto$/i);
  const after = (await call('GET', '', admin)).json().reports as Array<{ name: string }>;
  assert.deepEqual(
    after.map((r) => r.name),
    listed.map((r) => r.name),
  );
  const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.biAudience);
  const inGroup = await fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${sb.ids.platformWorkspaceId}/reports`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const names = ((await inGroup.json()).value as Array<{ name: string }>).map((r) => r.name);
  assert.ok(!names.some((n) => n.startsWith(DRAFT_PREFIX)), 'no draft is left in the reporting workspace');
  // The published report is unchanged.
  assert.equal((await call('GET', `/${floor.id}/definition`, admin)).json().definition, def.definition);
});

test('an invalid draft is refused naming its line before anything is imported; a Viewer may not run drafts; a stale draft is swept', async (t) => {
  const { h, sb, ws, call, admin, session } = await exportRig(t, { SVC_REPORT_EFFECTIVE_USERNAME: 'reports@contoso.example' });
  const listed = (await call('GET', '', admin)).json().reports as Array<{ id: string; name: string }>;
  const floor = listed.find((r) => r.name === 'Daily Floor Performance')!;
  const def = (await call('GET', `/${floor.id}/definition`, admin)).json().definition as string;
  const before = (await sb.admin.requests({ service: 'reporting' })).length;
  const bad = await previewOf(h, ws, admin, {
    definition: def.replace('<DataType>DateTime</DataType>', '<DataType>Date</DataType>'),
    format: 'PDF',
  });
  assert.equal(bad.statusCode, 400, bad.body);
  assert.equal(bad.json().error.code, 'invalid_rdl');
  assert.match(bad.json().error.message, /^definition line \d+, <DataType>: DataType 'Date' is not one of/);
  const calls = (await sb.admin.requests({ service: 'reporting' })).slice(before);
  assert.ok(!calls.some((e) => e.method === 'POST'), 'nothing was imported');

  const viewer = await session('ari');
  const refused = await previewOf(h, ws, viewer, { definition: def, format: 'PDF' });
  assert.equal(refused.statusCode, 403, refused.body);

  // A draft a dead process left behind (its name says it is an hour old) goes at the next run.
  const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.biAudience);
  const stale = `${DRAFT_PREFIX}${Date.now() - 3_600_000}-dead`;
  await h.services.backends.reporting.importRdl(sb.ids.platformWorkspaceId, stale, new TextEncoder().encode(def), 'Abort');
  const names = async () =>
    (
      (await (
        await fetch(`${sb.urls.reporting}/v1.0/myorg/groups/${sb.ids.platformWorkspaceId}/reports`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { value: Array<{ name: string }> }
    ).value.map((r) => r.name);
  assert.ok((await names()).includes(stale));
  assert.ok(!((await call('GET', '', admin)).json().reports as Array<{ name: string }>).some((r) => r.name === stale), 'never listed');
  const run = await previewOf(h, ws, admin, { definition: def, format: 'PDF', parameterValues: DATES });
  assert.equal(run.statusCode, 200, run.body);
  assert.ok(!(await names()).some((n) => n.startsWith(DRAFT_PREFIX)));
});

test('a grouped matrix the designer builds over the installed semantic model renders its groups, totals and parameter filter', async (t) => {
  // The model as a dataset of the reporting service holds the lakehouse's seed rows (the data platform's SQL endpoint has none).
  const { h, ws, admin, model } = await exportRig(t, {
    SVC_REPORT_EFFECTIVE_USERNAME: 'reports@contoso.example',
    SVC_BACKEND_SEMANTIC_MODEL: 'reporting',
  });
  const doc = RdlDocument.parse(blankReport('Coin in by zone'));
  const m = { name: 'CasinoFloorModel', apiHost: 'api.powerbi.com', datasetId: model };
  const zone = ensureModelField(doc, m, { table: 'Machine KPIs', column: 'floor_zone', dataType: 'string' });
  const machine = ensureModelField(doc, m, { table: 'Machine KPIs', column: 'machine_id', dataType: 'string' });
  const coin = ensureModelField(doc, m, { table: 'Machine KPIs', column: 'coin_in', dataType: 'decimal' });
  const { name, spec } = matrixSpec(doc, { bounds: { top: 0.6, left: 0, width: 2, height: 0.5 } });
  insertElement(doc, 'body', spec, 1.1);
  dropField(doc, name, { dataSet: zone.dataSet, name: zone.field, numeric: false }, { kind: 'header', at: { axis: 'row', path: [0] } });
  dropField(
    doc,
    name,
    { dataSet: machine.dataSet, name: machine.field, numeric: false },
    { kind: 'header', at: { axis: 'column', path: [0] } },
  );
  dropField(doc, name, { dataSet: coin.dataSet, name: coin.field, numeric: true }, { kind: 'cell', row: 0, col: 0 });
  addTotal(doc, name, { axis: 'row', path: [0] });
  saveParameter(doc, {
    name: 'Zones',
    dataType: 'String',
    prompt: 'Floor zones',
    multiValue: true,
    nullable: false,
    allowBlank: false,
    hidden: false,
    defaults: { kind: 'values', values: ['=Split("Main Floor,High Limit", ",")'] },
    available: { kind: 'none' },
  });
  setDataSetFilters(doc, zone.dataSet, [{ expression: '=Fields!floor_zone.Value', operator: 'In', values: ['=Parameters!Zones.Value'] }]);
  const run = await previewOf(h, ws, admin, { definition: doc.toString(), format: 'PDF' });
  assert.equal(run.statusCode, 200, run.body);
  const text = run.rawPayload.toString('latin1');
  const shown = [...text.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((x) => x[1]).join(' | ');
  // Columns per machine, rows per zone (sorted), each cell the sum of its machine's days; the total row sums each column.
  assert.match(
    shown,
    /Coin in by zone \| SM-1001 \| SM-1002 \| SM-2001 \| SM-2002 \| High Limit \| 93026 \| 22774 \| Main Floor \| 9882\.57 \| 6369 \| Total \| 9882\.57 \| 6369 \| 93026 \| 22774/,
  );
  assert.ok(!text.includes('(Penny Palace)'), 'the default of Zones filters Penny Palace out');
});
