// A dedicated set of backing resources for installs in mode "dedicated": a KQL cluster and database, a search service,
// lake storage with a container, and optionally a warehouse (Synapse workspace with a dedicated SQL pool), with the
// service identity's grants. The output `targetOverrides` is the install body's targetOverrides as is (add the
// platformWorkspaceId of a platform workspace, which is not an Azure resource). infra/dedicated-set.json is the same
// template as ARM JSON, kept in step by hand.
targetScope = 'resourceGroup'

@description('The cloud (decides the search service address suffix). GCC uses commercial Azure.')
@allowed(['commercial', 'gcc', 'gcc-high', 'dod'])
param cloud string = environment().name == 'AzureUSGovernment' ? 'gcc-high' : 'commercial'

param location string = resourceGroup().location

@description('Prefix of every resource name (lowercase letters and digits, at most 12).')
@minLength(3)
@maxLength(12)
param namePrefix string

@description('Object id of the service identity (servicePrincipalId output of main.bicep).')
param servicePrincipalId string

@description('Application (client) id of the service identity: `az ad sp show --id <servicePrincipalId> --query appId`.')
param serviceAppId string

@description('Display name of the service identity (for an App Service system-assigned identity: the site name, `<namePrefix>-svc`).')
param serviceIdentityName string

@description('Name of the KQL database the installs use.')
param kqlDatabase string = 'apps'

param kqlSku string = 'Dev(No SLA)_Standard_E2a_v4'
param kqlTier string = 'Basic'
param searchSku string = 'basic'

@description('Container of the lake storage account.')
param lakeContainer string = 'apps'

@description('Deploy the warehouse (Synapse workspace and dedicated SQL pool; billed while it runs).')
param deployWarehouse bool = false
param warehousePoolSku string = 'DW100c'

@description('Object id of the Entra group or user that administers the warehouse (it runs the T-SQL of warehouseGrantSql).')
param warehouseAdminObjectId string = ''
param warehouseAdminLogin string = 'warehouse-admins'

var searchSuffix = {
  commercial: 'search.windows.net'
  gcc: 'search.windows.net'
  'gcc-high': 'search.azure.us'
  dod: 'search.azure.us'
}
var roles = {
  contributor: 'b24988ac-6180-42a0-ab88-20f7382dd24c'
  searchServiceContributor: '7ca78c08-252a-4471-8644-bb5ff32d4ba0'
  searchIndexDataContributor: '8ebe5a00-799e-43f5-93ac-243d3dce84a7'
  storageBlobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
}
var storageName = '${namePrefix}lake'
var warehouseName = '${namePrefix}-wh'
var warehousePool = '${namePrefix}pool'

resource cluster 'Microsoft.Kusto/clusters@2023-08-15' = {
  name: '${namePrefix}kql'
  location: location
  sku: { name: kqlSku, tier: kqlTier, capacity: 1 }
  properties: { enableStreamingIngest: false }
}

resource database 'Microsoft.Kusto/clusters/databases@2023-08-15' = {
  parent: cluster
  name: kqlDatabase
  location: location
  kind: 'ReadWrite'
  properties: { softDeletePeriod: 'P365D', hotCachePeriod: 'P31D' }
}

// `.create table` and `.ingest` need AllDatabasesAdmin for the identity (the "KQL 401/403 on .create table" gate).
resource kqlAdmin 'Microsoft.Kusto/clusters/principalAssignments@2023-08-15' = {
  parent: cluster
  name: 'svc-identity-admin'
  properties: { principalId: serviceAppId, principalType: 'App', role: 'AllDatabasesAdmin', tenantId: subscription().tenantId }
}

// The database PUT goes through resource manager (the "KQL 401/403 from resource manager" gate).
resource clusterContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: cluster
  name: guid(cluster.id, servicePrincipalId, roles.contributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.contributor)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource search 'Microsoft.Search/searchServices@2023-11-01' = {
  name: '${namePrefix}-search'
  location: location
  sku: { name: searchSku }
  properties: {
    replicaCount: 1
    partitionCount: 1
    authOptions: { aadOrApiKey: { aadAuthFailureMode: 'http401WithBearerChallenge' } }
  }
}

resource searchContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: search
  name: guid(search.id, servicePrincipalId, roles.searchServiceContributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.searchServiceContributor)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource searchDataContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: search
  name: guid(search.id, servicePrincipalId, roles.searchIndexDataContributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.searchIndexDataContributor)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource lake 'Microsoft.Storage/storageAccounts@2023-01-01' = {
  name: storageName
  location: location
  kind: 'StorageV2'
  sku: { name: 'Standard_LRS' }
  properties: {
    isHnsEnabled: true
    minimumTlsVersion: 'TLS1_2'
    allowBlobPublicAccess: false
    allowSharedKeyAccess: false
    supportsHttpsTrafficOnly: true
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-01-01' = {
  parent: lake
  name: 'default'
}

resource container 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-01-01' = {
  parent: blobService
  name: lakeContainer
  properties: { publicAccess: 'None' }
}

resource lakeContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: lake
  name: guid(lake.id, servicePrincipalId, roles.storageBlobDataContributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.storageBlobDataContributor)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource warehouse 'Microsoft.Synapse/workspaces@2021-06-01' = if (deployWarehouse) {
  name: warehouseName
  location: location
  identity: { type: 'SystemAssigned' }
  properties: {
    defaultDataLakeStorage: {
      accountUrl: lake.properties.primaryEndpoints.dfs
      filesystem: lakeContainer
    }
    azureADOnlyAuthentication: true
    cspWorkspaceAdminProperties: { initialWorkspaceAdminObjectId: warehouseAdminObjectId }
  }
  dependsOn: [container]
}

resource warehouseAdmin 'Microsoft.Synapse/workspaces/administrators@2021-06-01' = if (deployWarehouse) {
  parent: warehouse
  name: 'activeDirectory'
  properties: { administratorType: 'ActiveDirectory', login: warehouseAdminLogin, sid: warehouseAdminObjectId, tenantId: subscription().tenantId }
}

resource pool 'Microsoft.Synapse/workspaces/sqlPools@2021-06-01' = if (deployWarehouse) {
  parent: warehouse
  name: warehousePool
  location: location
  sku: { name: warehousePoolSku }
  properties: { createMode: 'Default', collation: 'SQL_Latin1_General_CP1_CI_AS' }
}

@description('The install body\'s targetOverrides for this set (add platformWorkspaceId); the warehouse fields only when it was deployed.')
output targetOverrides object = union({
  kqlClusterUri: cluster.properties.uri
  kqlDatabase: kqlDatabase
  searchService: 'https://${search.name}.${searchSuffix[cloud]}'
  lakeAccount: replace(replace(lake.properties.primaryEndpoints.dfs, 'https://', ''), '/', '')
  lakeContainer: lakeContainer
}, deployWarehouse ? {
  warehouseWorkspace: warehouseName
  warehouseServer: warehouse.properties.connectivityEndpoints.sql
  warehouseDatabase: warehousePool
} : {})

@description('ARM id of the KQL cluster (SVC_KQL_CLUSTER_NAME, when this set is the shared one).')
output kqlClusterResourceId string = cluster.id

@description('T-SQL an administrator of the warehouse runs once in the pool (the "warehouse T-SQL not authorized" gate).')
output warehouseGrantSql string = deployWarehouse ? 'CREATE USER [${serviceIdentityName}] FROM EXTERNAL PROVIDER; EXEC sp_addrolemember \'db_owner\', \'${serviceIdentityName}\';' : ''
