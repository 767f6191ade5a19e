// The Azure-native services a cloud without the data platform provisions on (issue 20), shared by every tenant of the
// deployment: a Data Lake Storage Gen2 account (lakehouses), a Synapse workspace with its serverless SQL pool and an
// Apache Spark pool (notebooks, pipelines, mirrored databases, lakehouse SQL endpoints), an Event Hubs namespace
// (eventstreams) and a Log Analytics workspace (the scope of activator rules), with the service identity's grants.
// The output `appSettings` are the service's settings for them (main.bicep parameters of the same meaning); what
// resource manager cannot grant is output as the command and the T-SQL an administrator runs once.
// infra/native-set.json is the same template as ARM JSON, kept in step by hand.
targetScope = 'resourceGroup'

param location string = resourceGroup().location

@description('Prefix of every resource name (lowercase letters and digits, at most 12).')
@minLength(3)
@maxLength(12)
param namePrefix string

@description('Object id of the service identity (servicePrincipalId output of main.bicep).')
param servicePrincipalId string

@description('Display name of the service identity (for an App Service system-assigned identity: the site name, `<namePrefix>-svc`); the serverless SQL login is made for it.')
param serviceIdentityName string

@description('Object id of the Entra group or user that administers the Synapse workspace (Synapse Administrator and SQL Entra admin: it runs synapseRoleCommand and serverlessGrantSql).')
param synapseAdminObjectId string
param synapseAdminLogin string = 'synapse-admins'

@description('Container of the lake storage account the lakehouses are made in (SVC_LAKE_CONTAINER).')
param lakeContainer string = 'lakehouses'

@description('Apache Spark pool of the workspace that notebooks attach to (SVC_SYNAPSE_SPARK_POOL): letters and digits, at most 15.')
@maxLength(15)
param sparkPoolName string = 'sparkpool01'
param sparkVersion string = '3.4'

@description('Object id of the KQL cluster\'s system-assigned identity (`az kusto cluster show … --query identity.principalId`), empty for none: it gets Azure Event Hubs Data Receiver on the namespace, which eventstreams\' data connections read with (the namespace takes Entra tokens only, so a data connection names the cluster\'s identity).')
param kqlClusterPrincipalId string = ''

@description('Days the Log Analytics workspace keeps its own logs (the alert rules read the KQL tables, not these).')
param logRetentionDays int = 30

var roles = {
  storageBlobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
  eventHubsDataOwner: 'f526a384-b230-433a-b45c-95f59c4a2dec'
  eventHubsDataReceiver: 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde'
  monitoringContributor: '749f88d5-cbae-40b8-bcfc-e573ddc772fa'
}
var storageName = '${namePrefix}lake'
var synapseName = '${namePrefix}-syn'
// The workspace keeps its own files (Spark logs, libraries) in a filesystem of its own, apart from the lakehouses.
var synapseFilesystem = 'synapse'

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

resource workspaceFilesystem 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-01-01' = {
  parent: blobService
  name: synapseFilesystem
  properties: { publicAccess: 'None' }
}

// The "lake-auth" gate: folders and files of lakehouses are written with the service identity.
resource lakeContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: lake
  name: guid(lake.id, servicePrincipalId, roles.storageBlobDataContributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.storageBlobDataContributor)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource synapse 'Microsoft.Synapse/workspaces@2021-06-01' = {
  name: synapseName
  location: location
  identity: { type: 'SystemAssigned' }
  properties: {
    defaultDataLakeStorage: {
      accountUrl: lake.properties.primaryEndpoints.dfs
      filesystem: synapseFilesystem
    }
    azureADOnlyAuthentication: true
    cspWorkspaceAdminProperties: { initialWorkspaceAdminObjectId: synapseAdminObjectId }
  }
  dependsOn: [workspaceFilesystem]
}

resource synapseAdmin 'Microsoft.Synapse/workspaces/administrators@2021-06-01' = {
  parent: synapse
  name: 'activeDirectory'
  properties: { administratorType: 'ActiveDirectory', login: synapseAdminLogin, sid: synapseAdminObjectId, tenantId: subscription().tenantId }
}

// The development endpoint and the serverless SQL endpoint answer the service (App Service outbound addresses) only
// through a firewall rule; 0.0.0.0 to 0.0.0.0 is Synapse's "allow Azure services".
resource synapseFirewall 'Microsoft.Synapse/workspaces/firewallRules@2021-06-01' = {
  parent: synapse
  name: 'AllowAllWindowsAzureIps'
  properties: { startIpAddress: '0.0.0.0', endIpAddress: '0.0.0.0' }
}

resource sparkPool 'Microsoft.Synapse/workspaces/bigDataPools@2021-06-01' = {
  parent: synapse
  name: sparkPoolName
  location: location
  properties: {
    nodeSize: 'Small'
    nodeSizeFamily: 'MemoryOptimized'
    sparkVersion: sparkVersion
    autoScale: { enabled: true, minNodeCount: 3, maxNodeCount: 6 }
    autoPause: { enabled: true, delayInMinutes: 15 }
  }
}

// Serverless external tables and Spark read the lake with the workspace's own identity.
resource synapseLakeContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: lake
  name: guid(lake.id, synapse.id, roles.storageBlobDataContributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.storageBlobDataContributor)
    principalId: synapse.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

resource eventHubs 'Microsoft.EventHub/namespaces@2024-01-01' = {
  name: '${namePrefix}-eh'
  location: location
  sku: { name: 'Standard', tier: 'Standard', capacity: 1 }
  properties: { disableLocalAuth: true, minimumTlsVersion: '1.2' }
}

// The "eventhub-auth" gate: event hubs and consumer groups are made through resource manager on the namespace.
resource eventHubsOwner 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: eventHubs
  name: guid(eventHubs.id, servicePrincipalId, roles.eventHubsDataOwner)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.eventHubsDataOwner)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource clusterReceiver 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(kqlClusterPrincipalId)) {
  scope: eventHubs
  name: guid(eventHubs.id, kqlClusterPrincipalId, roles.eventHubsDataReceiver)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.eventHubsDataReceiver)
    principalId: kqlClusterPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource logs 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: '${namePrefix}-logs'
  location: location
  properties: { sku: { name: 'PerGB2018' }, retentionInDays: logRetentionDays }
}

// The "monitor-auth" gate: rules and action groups are written in this resource group, scoped to the workspace above.
resource monitoringContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(resourceGroup().id, servicePrincipalId, roles.monitoringContributor)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.monitoringContributor)
    principalId: servicePrincipalId
    principalType: 'ServicePrincipal'
  }
}

@description('The service\'s settings for these services: pass each to the main.bicep parameter of the same setting (or set them as app settings).')
output appSettings object = {
  SVC_WAREHOUSE_WORKSPACE: synapse.name
  SVC_SYNAPSE_SPARK_POOL: sparkPool.name
  SVC_LAKE_ACCOUNT: lake.name
  SVC_LAKE_CONTAINER: lakeContainer
  SVC_EVENTHUB_NAMESPACE: eventHubs.id
  SVC_ALERT_RESOURCE_GROUP: resourceGroup().id
  SVC_ALERT_SCOPE: logs.id
}

@description('The Synapse RBAC grant (data plane: resource manager cannot make it) a Synapse Administrator runs once (the "synapse-auth" gate).')
output synapseRoleCommand string = 'az synapse role assignment create --workspace-name ${synapse.name} --role "Synapse Artifact Publisher" --assignee ${servicePrincipalId}'

@description('T-SQL the SQL Entra admin runs once in the master database of the serverless SQL pool (`<workspace>-ondemand`): the service identity\'s login, allowed to create the lakehouses\' databases.')
output serverlessGrantSql string = 'CREATE LOGIN [${serviceIdentityName}] FROM EXTERNAL PROVIDER; GRANT CREATE ANY DATABASE TO [${serviceIdentityName}];'
