import { SandboxCore } from './core.js';
import type { SandboxOptions, SandboxUrls } from './types.js';
import type { SandboxIds } from './ids.js';
import { startPlain, startService, type RunningServer, type ServerHooks } from './http/service-server.js';
import { identityService } from './identity/index.js';
import { attachManagedIdentity } from './identity/managed-identity.js';
import { dataPlatformService } from './data-platform/index.js';
import { armService } from './arm/index.js';
import { kqlService } from './kql/index.js';
import { searchService } from './search/index.js';
import { oneLakeService } from './onelake/index.js';
import { lakeService } from './lake/index.js';
import { startServerlessEndpoint } from './sql/serverless-endpoint.js';
import { graphService } from './graph/index.js';
import { vaultService } from './vault/index.js';
import { reportingService } from './reporting/index.js';
import { synapseService } from './synapse/index.js';
import { SandboxAdmin } from './admin/api.js';
import { adminService } from './admin/routes.js';
import { startSqlEndpoint } from './sql/sandbox-endpoint.js';
import { sandboxTls } from './tls/sandbox-tls.js';
import { monitorIds } from './arm/monitor-store.js';

/** A running sandbox: every base address, the environment for the service, the seeded ids, the admin helper. */
export interface Sandbox {
  urls: SandboxUrls;
  env: Record<string, string>;
  ids: SandboxIds;
  admin: SandboxAdmin;
  /** With `tls`: the test certificate authority (PEM) and its file, which `env.NODE_EXTRA_CA_CERTS` names. */
  tls?: { ca: string; caFile: string };
  stop(): Promise<void>;
}

/** The environment that points the service at the sandbox. */
function environment(
  urls: SandboxUrls,
  ids: SandboxIds,
  caFile: string | undefined,
  dataPlatform: boolean,
  sparkPool: string,
): Record<string, string> {
  const env: Record<string, string> = {
    SVC_CLOUD: 'sandbox',
    // Read only at process start: a child process started with this environment trusts the sandbox's https.
    ...(caFile ? { NODE_EXTRA_CA_CERTS: caFile } : {}),
    IDENTITY_ENDPOINT: `${urls.managedIdentity}/msi/token`,
    IDENTITY_HEADER: ids.identityHeader,
    SVC_AUTH_URL: urls.identity,
    SVC_TENANT_ID: ids.tenantId,
    // The console's app registration: sign-in with the sandbox identity provider works out of the box.
    SVC_OIDC_CLIENT_ID: ids.consoleApp.appId,
    SVC_OIDC_CLIENT_SECRET: ids.consoleApp.secret,
    SVC_DATA_PLATFORM_API_URL: `${urls.dataPlatform}/v1`,
    SVC_DEFAULT_PLATFORM_WORKSPACE: ids.platformWorkspaceId,
    SVC_ONELAKE_URL: urls.oneLake,
    SVC_ARM_URL: urls.arm,
    SVC_KQL_CLUSTER_URI: urls.kql,
    SVC_KQL_CLUSTER_NAME: ids.kqlClusterResourceId,
    SVC_KQL_LOCATION: ids.kqlLocation,
    SVC_EVENTHUB_NAMESPACE: ids.eventHubNamespaceId,
    SVC_SEARCH_SERVICE: urls.search,
    SVC_GRAPH_URL: urls.graph,
    SVC_VAULT_URL: urls.vault,
    SVC_BI_API_URL: urls.reporting,
    SVC_BI_APP_URL: urls.reporting,
    SVC_WAREHOUSE_SERVER: urls.sql,
    SVC_WAREHOUSE_WORKSPACE: ids.warehouseWorkspace,
    SVC_WAREHOUSE_DEDICATED_POOL: ids.warehousePool,
    // Activator rules: the alert resource group, and the Log Analytics workspace rules are scoped to (arm/monitor-store.ts).
    SVC_ALERT_RESOURCE_GROUP: monitorIds(ids).resourceGroupId,
    SVC_ALERT_SCOPE: monitorIds(ids).workspaceId,
    // The warehouse workspace's development endpoint (every workspace name reaches it) and its seeded Spark pool.
    SVC_SYNAPSE_DEV_URL: urls.synapse,
    SVC_SYNAPSE_SPARK_POOL: sparkPool,
    // The lake (path-style, as Azurite serves accounts) and the Synapse workspace's serverless SQL pool.
    SVC_LAKE_DFS_URL: urls.lake,
    SVC_LAKE_ACCOUNT: ids.lakeAccount,
    SVC_LAKE_CONTAINER: ids.lakeContainer,
    SVC_SYNAPSE_SERVERLESS_SERVER: urls.sqlServerless,
    SVC_SANDBOX_ADMIN_URL: urls.admin,
  };
  if (!dataPlatform) {
    // A cloud without the data platform: the service is not told of its API or of OneLake.
    delete env.SVC_DATA_PLATFORM_API_URL;
    delete env.SVC_ONELAKE_URL;
  }
  return env;
}

/** Starts every emulator on its own loopback port, plus the admin API; state is in memory and seeded. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const core = await SandboxCore.create(options);
  const hooks: ServerHooks = {
    log: core.log,
    get faults() {
      return core.faults;
    },
    latencyMs: (service) => core.latency[service] ?? 0,
  };
  const admin = new SandboxAdmin(core);
  const tls = options.tls ? sandboxTls(options.dataDir, core.host) : undefined;
  const serverTls = tls?.material;
  let env: Record<string, string> = {};
  const summary = () => ({ urls: core.urls, env, ids: core.ids, switches: core.switches, latencyMs: core.latency });
  const servers: RunningServer[] = [];
  const start = async (p: Promise<RunningServer>) => {
    const s = await p;
    servers.push(s);
    return s.url;
  };
  try {
    core.sql = await startSqlEndpoint(core, serverTls);
    const sql = core.sql;
    servers.push({ url: sql.url, close: () => sql.stop() });
    core.sqlServerless = await startServerlessEndpoint(core, serverTls);
    const serverless = core.sqlServerless;
    servers.push({ url: serverless.url, close: () => serverless.stop() });
    const [identity, dataPlatform, arm, kql, search, oneLake, lake, graph, vault, reporting, synapse, adminUrl, mi] = await Promise.all([
      start(startService(identityService(core), hooks, core.host, serverTls)),
      start(startService(dataPlatformService(core), hooks, core.host, serverTls)),
      start(startService(armService(core), hooks, core.host, serverTls)),
      start(startService(kqlService(core), hooks, core.host, serverTls)),
      start(startService(searchService(core), hooks, core.host, serverTls)),
      start(startService(oneLakeService(core), hooks, core.host, serverTls)),
      start(startService(lakeService(core), hooks, core.host, serverTls)),
      start(startService(graphService(core), hooks, core.host, serverTls)),
      start(startService(vaultService(core), hooks, core.host, serverTls)),
      start(startService(reportingService(core), hooks, core.host, serverTls)),
      start(startService(synapseService(core), hooks, core.host, serverTls)),
      start(startPlain(adminService(core, admin, summary), core.host, serverTls)),
      attachManagedIdentity(core, hooks, core.host),
    ]);
    core.urls = {
      identity,
      managedIdentity: mi.url,
      dataPlatform,
      arm,
      kql,
      search,
      oneLake,
      lake,
      sqlServerless: serverless.address,
      graph,
      vault,
      reporting,
      synapse,
      sql: sql.address,
      admin: adminUrl,
    };
    env = environment(core.urls, core.ids, tls?.material.caFile, options.dataPlatform !== false, core.synapse.sparkPool);
    let stopped = false;
    return {
      urls: core.urls,
      env,
      ids: core.ids,
      admin,
      ...(tls ? { tls: { ca: tls.material.ca, caFile: tls.material.caFile } } : {}),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        mi.detach();
        await Promise.all(servers.map((s) => s.close()));
        tls?.dispose();
      },
    };
  } catch (err) {
    await Promise.all(servers.map((s) => s.close()));
    tls?.dispose();
    throw err;
  }
}
