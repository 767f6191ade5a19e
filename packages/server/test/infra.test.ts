// The deployment templates under infra/: the ARM JSON is well formed, it sets only settings the service reads, with
// values loadConfig and the cloud selection accept for every cloud it offers, it matches its Bicep source; the dedicated
// set's output is a valid targetOverrides; the native set's settings output names settings the service reads and accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, SETTINGS } from '../src/config.js';
import { selectCloud } from '../src/cloud/profiles.js';
import { cloudOf } from './helpers.js';
import { TargetOverridesSchema } from '../src/install/schemas.js';
import { NAME_PATTERNS } from '../src/tenancy/resources.js';
import { evaluate } from './arm-eval.js';
import { appSettings, checkTemplate, DEPLOYED, infra, PLATFORM_SETTINGS, readJson, root } from './infra-helpers.js';

test('the service template is well formed and its app settings are settings the service reads', () => {
  const t = checkTemplate('main.json');
  const config = t.resources.find((r: any) => r.type === 'Microsoft.Web/sites/config' && /'appsettings'/.test(r.name));
  assert.ok(config, 'an appsettings resource');
  const names = Object.keys(config.properties);
  for (const name of names) {
    if (PLATFORM_SETTINGS.has(name)) continue;
    assert.ok(SETTINGS.includes(name), `${name} is not a setting the service reads (config.ts SETTINGS)`);
  }
  for (const name of ['SVC_CLOUD', 'SVC_PUBLIC_URL', 'DATABASE_URL', 'SVC_BOOTSTRAP_TOKEN', 'SVC_IDENTITY', 'SVC_TRUST_PROXY'])
    assert.ok(names.includes(name), `sets ${name}`);
  // The secrets are key vault references, never values in the template.
  for (const name of ['DATABASE_URL', 'SVC_BOOTSTRAP_TOKEN']) assert.match(config.properties[name], /@Microsoft\.KeyVault\(SecretUri=/);
  assert.equal(t.parameters.postgresAdminPassword.type, 'securestring');
  assert.equal(t.parameters.bootstrapToken.type, 'securestring');

  // For every cloud the template offers and each end of the ranges it allows, the service accepts the settings.
  const variants: Array<Record<string, unknown>> = [
    ...t.parameters.cloud.allowedValues.map((cloud: string) => ({ cloud })),
    ...t.parameters.logLevel.allowedValues.map((logLevel: string) => ({ logLevel })),
    { provisionConcurrency: t.parameters.provisionConcurrency.minValue },
    { provisionConcurrency: t.parameters.provisionConcurrency.maxValue },
    {
      kqlClusterUri: 'https://svcprodkql.eastus.kusto.windows.net',
      kqlClusterResourceId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Kusto/clusters/svcprodkql',
    },
  ];
  for (const overrides of variants) {
    const loaded = loadConfig(appSettings(t, overrides));
    const profile = selectCloud(loaded.cloud);
    if ('cloud' in overrides) assert.equal(profile.name, overrides.cloud);
    if ('provisionConcurrency' in overrides) assert.equal(loaded.install.concurrency, overrides.provisionConcurrency);
    assert.equal(loaded.store.databaseUrl, DEPLOYED.DATABASE_URL);
    assert.equal(loaded.auth.bootstrapToken, DEPLOYED.SVC_BOOTSTRAP_TOKEN);
  }
});

test('the ARM JSON and its Bicep source declare the same parameters, app settings and outputs', () => {
  for (const [json, bicep] of [
    ['main.json', 'main.bicep'],
    ['dedicated-set.json', 'dedicated-set.bicep'],
    ['native-set.json', 'native-set.bicep'],
  ] as const) {
    const t = readJson(json);
    const source = fs.readFileSync(infra(bicep), 'utf8');
    const bicepParams = [...source.matchAll(/^param (\w+) /gm)].map((m) => m[1]).sort();
    assert.deepEqual(Object.keys(t.parameters).sort(), bicepParams, `${json} parameters`);
    const bicepOutputs = [...source.matchAll(/^output (\w+) /gm)].map((m) => m[1]).sort();
    assert.deepEqual(Object.keys(t.outputs).sort(), bicepOutputs, `${json} outputs`);
    const types = (t.resources as any[]).map((r) => r.type).sort();
    const bicepTypes = [...source.matchAll(/^resource \w+ '([^@']+)@/gm)].map((m) => m[1]).sort();
    assert.deepEqual(types, bicepTypes, `${json} resource types`);
    for (const r of t.resources as any[]) {
      const version = [...source.matchAll(new RegExp(`'${r.type.replace(/\//g, '\\/')}@([0-9-]+(?:-preview)?)'`, 'g'))].map((m) => m[1]);
      assert.ok(version.includes(r.apiVersion), `${json}: ${r.type} at ${r.apiVersion} as in ${bicep}`);
    }
  }
  const settings = readJson('main.json').resources.find((r: any) => r.type === 'Microsoft.Web/sites/config').properties;
  const block = /resource appSettings[\s\S]*?properties: \{([\s\S]*?)\n {2}\}/.exec(fs.readFileSync(infra('main.bicep'), 'utf8'))![1]!;
  const bicepSettings = [...block.matchAll(/^\s+(\w+):/gm)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(settings).sort(), bicepSettings);
});

test('the dedicated set is well formed and its targetOverrides output is a valid install targetOverrides', () => {
  const t = checkTemplate('dedicated-set.json');
  const value: string = t.outputs.targetOverrides.value;
  // createObject('name', value, …): the quoted words followed by a comma are the field names.
  const fields = [...value.matchAll(/'(\w+)', /g)].map((m) => m[1]!);
  const allowed = Object.keys(TargetOverridesSchema.properties);
  assert.ok(fields.length >= 5);
  for (const f of fields) assert.ok(allowed.includes(f), `${f} is a targetOverrides field`);
  for (const f of [
    'kqlClusterUri',
    'kqlDatabase',
    'searchService',
    'lakeAccount',
    'lakeContainer',
    'warehouseWorkspace',
    'warehouseServer',
    'warehouseDatabase',
  ]) {
    assert.ok(fields.includes(f), `the output fills ${f}`);
  }
  // The identity gets each grant a gate asks for.
  const grants = t.resources
    .filter((r: any) => r.type === 'Microsoft.Authorization/roleAssignments')
    .map((r: any) => /variables\('roles'\)\.(\w+)/.exec(r.properties.roleDefinitionId)![1]);
  assert.deepEqual(grants.sort(), ['contributor', 'searchIndexDataContributor', 'searchServiceContributor', 'storageBlobDataContributor']);
  const admin = t.resources.find((r: any) => r.type === 'Microsoft.Kusto/clusters/principalAssignments');
  assert.equal(admin.properties.role, 'AllDatabasesAdmin');
  assert.equal(admin.properties.principalType, 'App');
  assert.deepEqual(t.parameters.cloud.allowedValues, ['commercial', 'gcc', 'gcc-high', 'dod']);
  for (const cloud of t.parameters.cloud.allowedValues) {
    // The search address the output builds is one the cloud lets the service's token go to.
    const suffix = t.variables.searchSuffix[cloud];
    assert.ok(
      cloudOf({ SVC_CLOUD: cloud }).allowedSuffixes.some((s) => `x.${suffix}`.endsWith(s)),
      `${cloud}: ${suffix}`,
    );
  }
});

/** The native set deployed by the test: subscription, resource group and the parameters without a default. */
const NATIVE_DEPLOYMENT = {
  subscriptionId: '11111111-2222-3333-4444-555555555555',
  resourceGroup: 'svcprod-rg',
  location: 'usgovvirginia',
  parameters: {
    namePrefix: 'svcprod',
    servicePrincipalId: '99999999-8888-7777-6666-555555555555',
    serviceIdentityName: 'svcprod-svc',
    synapseAdminObjectId: '12121212-3434-5656-7878-909090909090',
  },
};

/** The settings the native set fills: each Azure-native backend's (config/native.ts), the Synapse workspace and the lake. */
const NATIVE_SETTINGS = [
  'SVC_WAREHOUSE_WORKSPACE',
  'SVC_SYNAPSE_SPARK_POOL',
  'SVC_LAKE_ACCOUNT',
  'SVC_LAKE_CONTAINER',
  'SVC_EVENTHUB_NAMESPACE',
  'SVC_ALERT_RESOURCE_GROUP',
  'SVC_ALERT_SCOPE',
];

test('the native set is well formed, grants what each gate asks for, and its settings are accepted by the service in gcc-high', () => {
  const t = checkTemplate('native-set.json');
  for (const p of ['servicePrincipalId', 'location']) assert.ok(p in t.parameters, `parameter ${p}`);
  const types = t.resources.map((r: any) => r.type);
  for (const type of [
    'Microsoft.Storage/storageAccounts',
    'Microsoft.Storage/storageAccounts/blobServices/containers',
    'Microsoft.Synapse/workspaces',
    'Microsoft.Synapse/workspaces/bigDataPools',
    'Microsoft.EventHub/namespaces',
    'Microsoft.OperationalInsights/workspaces',
  ])
    assert.ok(types.includes(type), `deploys ${type}`);
  const lake = t.resources.find((r: any) => r.type === 'Microsoft.Storage/storageAccounts');
  assert.equal(lake.kind, 'StorageV2');
  assert.equal(lake.properties.isHnsEnabled, true);
  const synapse = t.resources.find((r: any) => r.type === 'Microsoft.Synapse/workspaces');
  assert.equal(synapse.properties.azureADOnlyAuthentication, true);
  assert.equal(synapse.identity.type, 'SystemAssigned');
  assert.match(synapse.properties.defaultDataLakeStorage.accountUrl, /Microsoft\.Storage\/storageAccounts/);
  const spark = t.resources.find((r: any) => r.type === 'Microsoft.Synapse/workspaces/bigDataPools');
  assert.equal(spark.properties.autoPause.enabled, true);
  assert.equal(spark.properties.nodeSize, 'Small');
  assert.equal(t.resources.find((r: any) => r.type === 'Microsoft.EventHub/namespaces').sku.name, 'Standard');

  // Each role assignment: its role (by the template's role table) and who gets it.
  const roleIds: Record<string, string> = t.variables.roles;
  const grants = t.resources
    .filter((r: any) => r.type === 'Microsoft.Authorization/roleAssignments')
    .map((r: any) => {
      const role = /variables\('roles'\)\.(\w+)/.exec(r.properties.roleDefinitionId)![1]!;
      const to = /parameters\('servicePrincipalId'\)/.test(r.properties.principalId)
        ? 'service'
        : /Microsoft\.Synapse\/workspaces.*identity\.principalId/.test(r.properties.principalId)
          ? 'synapse'
          : /parameters\('kqlClusterPrincipalId'\)/.test(r.properties.principalId)
            ? 'the KQL cluster, when given'
            : r.properties.principalId;
      const on = r.scope ? /^\[format\('([\w.]+\/\w+)\//.exec(r.scope)![1] : 'resourceGroup';
      return `${role} to ${to} on ${on}`;
    })
    .sort();
  assert.deepEqual(grants, [
    'eventHubsDataOwner to service on Microsoft.EventHub/namespaces',
    'eventHubsDataReceiver to the KQL cluster, when given on Microsoft.EventHub/namespaces',
    'monitoringContributor to service on resourceGroup',
    'storageBlobDataContributor to service on Microsoft.Storage/storageAccounts',
    'storageBlobDataContributor to synapse on Microsoft.Storage/storageAccounts',
  ]);
  const receiver = t.resources.find((r: any) => /kqlClusterPrincipalId/.test(r.properties?.principalId ?? ''));
  assert.equal(receiver.condition, "[not(empty(parameters('kqlClusterPrincipalId')))]", 'only when the cluster identity is given');
  assert.equal(t.parameters.kqlClusterPrincipalId.defaultValue, '');
  assert.deepEqual(roleIds, {
    storageBlobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
    eventHubsDataOwner: 'f526a384-b230-433a-b45c-95f59c4a2dec',
    eventHubsDataReceiver: 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde',
    monitoringContributor: '749f88d5-cbae-40b8-bcfc-e573ddc772fa',
  });

  // The settings output, as deployed: only settings the service reads, each one main.json sets from a parameter.
  const settings = evaluate(t, t.outputs.appSettings.value, NATIVE_DEPLOYMENT) as Record<string, string>;
  assert.deepEqual(Object.keys(settings).sort(), [...NATIVE_SETTINGS].sort());
  for (const name of Object.keys(settings)) assert.ok(SETTINGS.includes(name), `${name} is a setting the service reads`);
  const main = readJson('main.json');
  const mainSettings = main.resources.find((r: any) => r.type === 'Microsoft.Web/sites/config').properties;
  const overrides: Record<string, unknown> = { cloud: 'gcc-high' };
  for (const [name, value] of Object.entries(settings)) {
    const param = /^\[parameters\('(\w+)'\)\]$/.exec(mainSettings[name] ?? '')?.[1];
    assert.ok(param, `main.json sets ${name} from a parameter`);
    assert.equal(main.parameters[param].defaultValue, '', `${param}: empty (unset) unless given`);
    overrides[param] = value;
  }

  const loaded = loadConfig(appSettings(main, overrides));
  assert.equal(selectCloud(loaded.cloud).name, 'gcc-high');
  const rg = `/subscriptions/${NATIVE_DEPLOYMENT.subscriptionId}/resourceGroups/${NATIVE_DEPLOYMENT.resourceGroup}`;
  assert.deepEqual(loaded.native, {
    sparkPool: 'sparkpool01',
    eventHubNamespace: `${rg}/providers/Microsoft.EventHub/namespaces/svcprod-eh`,
    alertResourceGroup: rg,
    alertScope: `${rg}/providers/Microsoft.OperationalInsights/workspaces/svcprod-logs`,
    // Unset: the lakehouses' serverless pool is the workspace's own, `<SVC_WAREHOUSE_WORKSPACE>-ondemand.<sql suffix>`.
    serverlessServer: undefined,
  });
  assert.equal(loaded.sharedSet.warehouseWorkspace, 'svcprod-syn');
  assert.match(loaded.sharedSet.warehouseWorkspace!, new RegExp(NAME_PATTERNS.warehouseWorkspace));
  assert.equal(loaded.sharedSet.lakeAccount, 'svcprodlake');
  assert.match(loaded.sharedSet.lakeAccount!, /^[a-z0-9]{3,24}$/, 'a storage account name');
  assert.equal(loaded.sharedSet.lakeContainer, 'lakehouses');
  assert.match(loaded.native.sparkPool!, /^[A-Za-z][A-Za-z0-9]{0,14}$/, 'a Spark pool name');

  // What resource manager cannot grant: the Synapse role command and the serverless T-SQL name the workspace and identity.
  const command = evaluate(t, t.outputs.synapseRoleCommand.value, NATIVE_DEPLOYMENT) as string;
  assert.equal(
    command,
    `az synapse role assignment create --workspace-name svcprod-syn --role "Synapse Artifact Publisher" --assignee ${NATIVE_DEPLOYMENT.parameters.servicePrincipalId}`,
  );
  const sql = evaluate(t, t.outputs.serverlessGrantSql.value, NATIVE_DEPLOYMENT) as string;
  assert.equal(sql, 'CREATE LOGIN [svcprod-svc] FROM EXTERNAL PROVIDER; GRANT CREATE ANY DATABASE TO [svcprod-svc];');
});

test('README "Deploying" lists the gates of the Azure-native backends and the native set\'s outputs', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Deploying');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  const table = section.slice(section.indexOf('Gates of the Azure-native backends'));
  for (const gate of [
    'synapse-not-configured',
    'synapse-auth',
    'lake-not-configured',
    'lake-auth',
    'eventhub-not-configured',
    'eventhub-auth',
    'alert-not-configured',
    'monitor-auth',
    'reporting-auth',
    'reporting-tenant-setting',
  ])
    assert.match(table, new RegExp(`^\\| [^|]+ \\| \`${gate}\` \\|`, 'm'), `a row for ${gate}`);
  for (const output of Object.keys(readJson('native-set.json').outputs))
    assert.ok(section.includes(`\`${output}\``), `${output} in README`);
  for (const name of NATIVE_SETTINGS) assert.ok(section.includes(`\`${name}\``), `${name} in README "Deploying"`);
});

test('every setting the service reads is documented in README "Configuration"', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
  for (const name of SETTINGS) assert.ok(section.includes(`\`${name}\``), `${name} in README`);
});
