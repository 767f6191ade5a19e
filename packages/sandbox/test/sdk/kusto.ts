// Run by sdk-kusto.test.ts in its own process (NODE_EXTRA_CA_CERTS names the sandbox's test CA).
import { ClientSecretCredential } from '@azure/identity';
import { Client, CloudSettings, KustoConnectionStringBuilder } from 'azure-kusto-data';
import { ids, report } from './outcome.js';

const sp = ids.servicePrincipals[0];
const cluster = process.env.KQL_CLUSTER!;
// The authority is the login endpoint of the cluster's auth metadata, read by the SDK; MSAL confirms it against the
// discovery document. Instance discovery asks login.microsoftonline.com about an authority, so it is off, as for any
// private cloud (the SDK's withAadApplicationKeyAuthentication builds the same ClientSecretCredential without that option).
const cloud = await CloudSettings.getCloudInfoForCluster(cluster);
const credential = new ClientSecretCredential(ids.tenantId, sp.appId, sp.secret, {
  authorityHost: cloud.LoginEndpoint,
  disableInstanceDiscovery: true,
});
const client = new Client(KustoConnectionStringBuilder.withTokenCredential(cluster, credential));
const rows = async (db: string, text: string) => (await client.execute(db, text)).primaryResults[0]!.toJSON<Record<string, unknown>>().data;

await report({
  loginEndpoint: async () => cloud.LoginEndpoint,
  createTable: async () => (await rows('Wards', '.create table Beds (Ward:string, Free:long)'))[0]!.TableName,
  ingest: () => rows('Wards', '.ingest inline into table Beds <|\nNorth,4\nSouth,0\nEast,7'),
  query: () => rows('Wards', 'Beds | where Free > 0 | order by Ward asc'),
  showTables: async () => (await rows('Wards', '.show tables')).map((r) => r.TableName),
  managementError: () => rows('Wards', '.create-merge table Beds (Free:string)'),
  queryError: () => rows('Wards', 'Nope | count'),
});
