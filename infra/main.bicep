// The Analytics Workspace Service on App Service (Linux, Node 20) with a system-assigned managed identity, a PostgreSQL
// flexible server for its store, and a key vault holding the two secrets it is started with. infra/main.json is the
// same template as ARM JSON (kept in step by hand; test/infra.test.ts checks both against the service's configuration).
targetScope = 'resourceGroup'

@description('The cloud the service runs in (SVC_CLOUD). GCC runs in commercial Azure regions; GCC High and DoD in Azure Government.')
@allowed(['commercial', 'gcc', 'gcc-high', 'dod'])
param cloud string = environment().name == 'AzureUSGovernment' ? 'gcc-high' : 'commercial'

@description('Region of every resource.')
param location string = resourceGroup().location

@description('Prefix of every resource name (lowercase letters and digits).')
@minLength(3)
@maxLength(16)
param namePrefix string

@description('App Service plan size (Linux).')
param planSku string = 'P1v3'

@description('PostgreSQL administrator login.')
param postgresAdminLogin string = 'svcadmin'

@description('PostgreSQL administrator password.')
@secure()
param postgresAdminPassword string

@description('PostgreSQL flexible server size.')
param postgresSku string = 'Standard_B1ms'

@description('PostgreSQL tier of that size: Burstable, GeneralPurpose or MemoryOptimized.')
param postgresTier string = 'Burstable'

@description('The first admin token, svc_pat_<id>_<secret> (SVC_BOOTSTRAP_TOKEN); kept in the key vault.')
@secure()
param bootstrapToken string

@description('Platform workspace used by workspaces no admin bound (SVC_DEFAULT_PLATFORM_WORKSPACE); empty: the "no bound platform workspace" gate until one is bound.')
param defaultPlatformWorkspace string = ''

@description('Shared KQL cluster address (SVC_KQL_CLUSTER_URI), for example the kqlClusterUri output of dedicated-set.bicep.')
param kqlClusterUri string = ''

@description('ARM id of the shared KQL cluster (SVC_KQL_CLUSTER_NAME).')
param kqlClusterResourceId string = ''

@description('Region of the KQL cluster (SVC_KQL_LOCATION), sent with the database PUT.')
param kqlLocation string = location

@description('Shared search service address (SVC_SEARCH_SERVICE).')
param searchService string = ''

@description('Shared warehouse workspace and dedicated pool (SVC_WAREHOUSE_WORKSPACE, SVC_WAREHOUSE_DEDICATED_POOL).')
param warehouseWorkspace string = ''
param warehouseDedicatedPool string = ''

@description('Lake storage account and container (SVC_LAKE_ACCOUNT, SVC_LAKE_CONTAINER): the shared set\'s, or for the Azure-native lakehouses the account name and container of native-set.bicep.')
param lakeAccount string = ''
param lakeContainer string = ''

@description('The Azure-native services of a cloud without the data platform (appSettings output of native-set.bicep): the Synapse workspace\'s Spark pool, the Event Hubs namespace\'s ARM id, the resource group of activator rules and their scope (SVC_SYNAPSE_SPARK_POOL, SVC_EVENTHUB_NAMESPACE, SVC_ALERT_RESOURCE_GROUP, SVC_ALERT_SCOPE); the Synapse workspace is warehouseWorkspace and the lake lakeAccount.')
param sparkPool string = ''
param eventHubNamespace string = ''
param alertResourceGroup string = ''
param alertScope string = ''

@description('Items provisioned at once per install (PROVISION_CONCURRENCY).')
@minValue(1)
@maxValue(64)
param provisionConcurrency int = 6

@description('Service log level (SVC_LOG_LEVEL).')
@allowed(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
param logLevel string = 'info'

var keyVaultSecretsUser = '4633458b-17de-408a-b874-0445c86b69e6'

resource plan 'Microsoft.Web/serverfarms@2023-12-01' = {
  name: '${namePrefix}-plan'
  location: location
  kind: 'linux'
  sku: { name: planSku }
  properties: { reserved: true }
}

resource site 'Microsoft.Web/sites@2023-12-01' = {
  name: '${namePrefix}-svc'
  location: location
  kind: 'app,linux'
  identity: { type: 'SystemAssigned' }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: 'SystemAssigned'
    siteConfig: {
      linuxFxVersion: 'NODE|20-lts'
      appCommandLine: 'node --max-semi-space-size=8 packages/server/dist/main.js'
      alwaysOn: true
      http20Enabled: true
      minTlsVersion: '1.2'
      ftpsState: 'Disabled'
      healthCheckPath: '/api/health'
    }
  }
}

resource postgres 'Microsoft.DBforPostgreSQL/flexibleServers@2022-12-01' = {
  name: '${namePrefix}-pg'
  location: location
  sku: { name: postgresSku, tier: postgresTier }
  properties: {
    version: '15'
    administratorLogin: postgresAdminLogin
    administratorLoginPassword: postgresAdminPassword
    storage: { storageSizeGB: 32 }
    backup: { backupRetentionDays: 7, geoRedundantBackup: 'Disabled' }
    highAvailability: { mode: 'Disabled' }
  }
}

resource database 'Microsoft.DBforPostgreSQL/flexibleServers/databases@2022-12-01' = {
  parent: postgres
  name: 'svc'
  properties: { charset: 'UTF8', collation: 'en_US.utf8' }
}

// 0.0.0.0 to 0.0.0.0 is the flexible server's rule for "connections from Azure services" (the app's outbound addresses).
resource allowAzure 'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules@2022-12-01' = {
  parent: postgres
  name: 'AllowAzureServices'
  properties: { startIpAddress: '0.0.0.0', endIpAddress: '0.0.0.0' }
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: '${namePrefix}-kv'
  location: location
  properties: {
    tenantId: subscription().tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 90
  }
}

resource databaseUrl 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'database-url'
  properties: {
    value: 'postgres://${postgresAdminLogin}:${uriComponent(postgresAdminPassword)}@${postgres.properties.fullyQualifiedDomainName}:5432/${database.name}?sslmode=require'
  }
}

resource bootstrap 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'bootstrap-token'
  properties: { value: bootstrapToken }
}

// The service's identity reads the two secrets (key vault references are resolved with it).
resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: vault
  name: guid(vault.id, site.id, keyVaultSecretsUser)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', keyVaultSecretsUser)
    principalId: site.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

resource appSettings 'Microsoft.Web/sites/config@2023-12-01' = {
  parent: site
  name: 'appsettings'
  dependsOn: [secretsUser]
  properties: {
    SCM_DO_BUILD_DURING_DEPLOYMENT: 'true'
    DATABASE_URL: '@Microsoft.KeyVault(SecretUri=${databaseUrl.properties.secretUri})'
    SVC_BOOTSTRAP_TOKEN: '@Microsoft.KeyVault(SecretUri=${bootstrap.properties.secretUri})'
    SVC_CLOUD: cloud
    SVC_PUBLIC_URL: 'https://${site.properties.defaultHostName}'
    SVC_TRUST_PROXY: 'true'
    SVC_IDENTITY: 'managed'
    SVC_TENANT_ID: subscription().tenantId
    SVC_LOG_LEVEL: logLevel
    SVC_DEFAULT_PLATFORM_WORKSPACE: defaultPlatformWorkspace
    SVC_KQL_CLUSTER_URI: kqlClusterUri
    SVC_KQL_CLUSTER_NAME: kqlClusterResourceId
    SVC_KQL_LOCATION: kqlLocation
    SVC_SEARCH_SERVICE: searchService
    SVC_WAREHOUSE_WORKSPACE: warehouseWorkspace
    SVC_WAREHOUSE_DEDICATED_POOL: warehouseDedicatedPool
    SVC_LAKE_ACCOUNT: lakeAccount
    SVC_LAKE_CONTAINER: lakeContainer
    SVC_SYNAPSE_SPARK_POOL: sparkPool
    SVC_EVENTHUB_NAMESPACE: eventHubNamespace
    SVC_ALERT_RESOURCE_GROUP: alertResourceGroup
    SVC_ALERT_SCOPE: alertScope
    PROVISION_CONCURRENCY: string(provisionConcurrency)
  }
}

@description('The service address (SVC_PUBLIC_URL).')
output serviceUrl string = 'https://${site.properties.defaultHostName}'

@description('Object id of the service identity: grant it the roles README "Running against a real cloud" lists, or pass it to dedicated-set.bicep and native-set.bicep.')
output servicePrincipalId string = site.identity.principalId

output postgresServer string = postgres.properties.fullyQualifiedDomainName
output keyVaultName string = vault.name
