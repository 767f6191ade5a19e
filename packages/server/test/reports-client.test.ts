// The TypeScript client's reports facade against the real app on a loopback port and the sandbox's reporting emulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, workspace } from './install-helpers.js';
import { createSvcClient, SvcApiError, SvcGateError } from '../../client/src/index.js';

test('reports through the TypeScript client: list, definition with If-Match, export to a PDF file, a gate as SvcGateError', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const svc = createSvcClient({ baseUrl: `http://127.0.0.1:${port}`, token: tenant.token });

  const reports = await svc.reports.list(ws);
  const sales = reports.find((r) => r.name === 'Sales by Region');
  assert.ok(sales, JSON.stringify(reports.map((r) => r.name)));
  assert.equal((await svc.reports.get(ws, sales.id)).webUrl, sales.webUrl);

  const def = await svc.reports.getDefinition(ws, sales.id);
  assert.ok(def.parameters.some((p) => p.name === 'Region' && p.multiValue));
  const put = await svc.reports.putDefinition(
    ws,
    sales.id,
    def.definition.replace('Sales by region and city', 'Sales by region and town'),
    def.etag,
  );
  assert.notEqual(put.etag, def.etag);
  await assert.rejects(
    svc.reports.putDefinition(ws, sales.id, def.definition, def.etag),
    (e: unknown) => e instanceof SvcApiError && e.status === 412 && e.code === 'etag_mismatch',
  );

  const seen: string[] = [];
  const file = await svc.reports.exportToFile(
    ws,
    sales.id,
    { format: 'PDF', parameterValues: [{ name: 'Region', value: 'Central' }] },
    { onProgress: (e) => seen.push(e.status) },
  );
  assert.equal(file.export.status, 'Succeeded');
  assert.equal(file.fileName, 'Sales by Region.pdf');
  assert.match(file.contentType, /^application\/pdf/);
  assert.equal(Buffer.from(file.bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
  assert.ok(seen.length > 0, 'progress was reported');

  await sandbox.admin.setSwitch('reporting.export.pdf', false);
  await assert.rejects(
    svc.reports.startExport(ws, sales.id, { format: 'PDF' }),
    (e: unknown) => e instanceof SvcGateError && /PDF documents/.test(e.reason ?? ''),
  );
});
