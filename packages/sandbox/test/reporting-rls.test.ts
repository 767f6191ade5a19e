import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Request } from 'tedious';
import { call, sandbox } from './helpers.js';
import type { Sandbox } from '../src/index.js';
import { exportFile, importRdl, reportingApi, simpleRdl, waitImport, withTable } from './reporting-helpers.js';

// Row-level security of a semantic model (TMSL roles in model.bim) in exports with an effective identity: roles are
// required and checked against the model, and their row filters (a union across roles) apply to the rows rendered.

async function sqlBatch(sb: Sandbox, sql: string): Promise<void> {
  const [host, port] = sb.urls.sql.split(':');
  const token = await sb.admin.token({ audience: 'https://database.windows.net/' });
  const conn = new Connection({
    server: host!,
    authentication: { type: 'azure-active-directory-access-token', options: { token } },
    options: { port: Number(port), database: sb.ids.warehousePool, encrypt: false, connectTimeout: 5000 },
  });
  conn.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve, reject) => conn.execSqlBatch(new Request(sql, (err) => (err ? reject(err) : resolve()))));
  conn.close();
}

const ROLES = [
  { name: 'North desk', modelPermission: 'read', tablePermissions: [{ name: 'Visits', filterExpression: '\'Visits\'[Clinic] = "North"' }] },
  {
    name: 'Own clinic',
    modelPermission: 'read',
    tablePermissions: [{ name: 'Visits', filterExpression: '[Manager] = USERPRINCIPALNAME()' }],
  },
  { name: 'Auditor', modelPermission: 'read' },
];

test('a model with row-level roles: roles required and checked; each role’s filter (a union) applies to the rows exported', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  await sqlBatch(
    sb,
    "CREATE TABLE dbo.Visits (clinic NVARCHAR(50), patients INT, manager NVARCHAR(100)); INSERT INTO dbo.Visits (clinic, patients, manager) VALUES (N'North', 12, N'ada@sandbox.onmicrosoft.com'), (N'South', 30, N'ari@sandbox.onmicrosoft.com'), (N'East', 7, N'ada@sandbox.onmicrosoft.com');",
  );
  const [host, port] = sb.urls.sql.split(':');
  const bim = {
    compatibilityLevel: 1604,
    model: {
      tables: [
        {
          name: 'Visits',
          columns: [
            { name: 'Clinic', dataType: 'string', sourceColumn: 'clinic' },
            { name: 'Patients', dataType: 'int64', sourceColumn: 'patients' },
            { name: 'Manager', dataType: 'string', sourceColumn: 'manager' },
          ],
          partitions: [
            {
              name: 'Visits',
              mode: 'directLake',
              source: { type: 'entity', entityName: 'Visits', schemaName: 'dbo', expressionSource: 'DatabaseQuery' },
            },
          ],
        },
      ],
      expressions: [
        {
          name: 'DatabaseQuery',
          kind: 'm',
          expression: ['let', `    database = Sql.Database("${host},${port}", "${sb.ids.warehousePool}")`, 'in', '    database'],
        },
      ],
      roles: ROLES,
    },
  };
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const dp = await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/semanticModels`, {
    token: await sb.admin.token({ audience: 'dataPlatform' }),
    json: {
      displayName: 'Secured visits',
      definition: {
        parts: [
          { path: 'model.bim', payload: b64(JSON.stringify(bim)), payloadType: 'InlineBase64' },
          { path: 'definition.pbism', payload: b64('{"version":"4.0"}'), payloadType: 'InlineBase64' },
        ],
      },
    },
  });
  assert.equal(dp.status, 201, JSON.stringify(dp.body));
  const { token, group } = await reportingApi(sb);
  const dataset = await call(`${group}/datasets/${dp.body.id}`, { token, method: 'GET' });
  assert.equal(dataset.body.isEffectiveIdentityRolesRequired, true, JSON.stringify(dataset.body));

  const rdl = simpleRdl('Secured visits')
    .replace(
      '<DataProvider>SQL</DataProvider><ConnectString>Data Source=old.example.net;Initial Catalog=sales</ConnectString>',
      `<DataProvider>PBIDATASET</DataProvider><ConnectString>Data Source=pbiazure://api.powerbi.com/;Initial Catalog=sobe_wowvirtualserver-${dp.body.id};Integrated Security=ClaimsToken</ConnectString>`,
    )
    .replace('<CommandText>SELECT Name, Total FROM dbo.T</CommandText>', "<CommandText>EVALUATE 'Visits'</CommandText>")
    .replace(
      '<Field Name="Name"><DataField>Name</DataField></Field><Field Name="Total"><DataField>Total</DataField></Field>',
      '<Field Name="Clinic"><DataField>Visits[Clinic]</DataField></Field><Field Name="Patients"><DataField>Visits[Patients]</DataField></Field>',
    );
  const imported = await importRdl(
    `${group}/imports?datasetDisplayName=Secured.rdl&nameConflict=Abort`,
    token,
    withTable(rdl, 'Rows', ['Clinic', 'Patients']),
  );
  const done = await waitImport(group, token, imported.body.id);
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  const reportId = done.reports[0].id;
  const rows = async (username: string, roles?: string[]) => {
    const identity = { username, datasets: [dp.body.id], ...(roles ? { roles } : {}) };
    const file = await exportFile(group, token, reportId, { format: 'CSV', paginatedReportConfiguration: { identities: [identity] } });
    return file.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .sort();
  };
  const refused = async (username: string, roles: string[] | undefined, message: RegExp) => {
    const r = await call(`${group}/reports/${reportId}/ExportTo`, {
      token,
      json: { format: 'CSV', paginatedReportConfiguration: { identities: [{ username, ...(roles ? { roles } : {}) }] } },
    });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'InvalidRequest');
    assert.match(r.body.error.message, message);
  };

  assert.deepEqual(await rows('ari@sandbox.onmicrosoft.com', ['North desk']), ['North,12']);
  assert.deepEqual(
    await rows('ada@sandbox.onmicrosoft.com', ['Own clinic']),
    ['East,7', 'North,12'],
    'USERPRINCIPALNAME() is the username',
  );
  assert.deepEqual(await rows('ari@sandbox.onmicrosoft.com', ['Own clinic', 'North desk']), ['North,12', 'South,30'], 'roles are a union');
  assert.deepEqual(
    await rows('ari@sandbox.onmicrosoft.com', ['Auditor']),
    ['East,7', 'North,12', 'South,30'],
    'a role without a filter sees all',
  );
  await refused(
    'ari@sandbox.onmicrosoft.com',
    undefined,
    /has row-level security: the effective identity for 'ari@sandbox\.onmicrosoft\.com' must include roles/,
  );
  await refused(
    'ari@sandbox.onmicrosoft.com',
    ['Pit boss'],
    /Role 'Pit boss' is not defined in semantic model .*'North desk', 'Own clinic', 'Auditor'/,
  );
  await refused('ari@sandbox.onmicrosoft.com', ['a,b'], /not a role name/);
});
