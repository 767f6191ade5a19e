export const CLOUD_NAMES = ['commercial', 'gcc', 'gcc-high', 'dod', 'sandbox'] as const;
export type CloudName = (typeof CLOUD_NAMES)[number];

/** Every address and token audience the service uses in one cloud. Nothing outside this file names a host. */
export interface CloudProfile {
  name: CloudName;
  authUrl: string;
  /** What the console's sign-in button calls the cloud's identity provider. */
  identityProviderName: string;
  /** The data platform's API; absent in a cloud where it is not published (GCC-High and DoD today) unless SVC_DATA_PLATFORM_API_URL sets it. */
  dataPlatformApiUrl?: string;
  dataPlatformAudience: string;
  biApiUrl: string;
  biAppUrl: string;
  biAudience: string;
  armUrl: string;
  armAudience: string;
  kqlSuffixes: string[];
  kqlAudience: string;
  searchSuffix: string;
  searchAudience: string;
  sqlSuffixes: string[];
  sqlAudience: string;
  storageSuffix: string;
  storageAudience: string;
  /** A Synapse workspace's development endpoint (artifacts API) is `https://<workspace><synapseDevSuffix>`. */
  synapseDevSuffix: string;
  synapseAudience: string;
  /** Synapse Studio, where the console links a Synapse artifact. */
  synapseStudioUrl: string;
  /** An explicit Synapse development endpoint (the sandbox's, or SVC_SYNAPSE_DEV_URL): used for every workspace. */
  synapseDevUrl?: string;
  /** An explicit lake (Data Lake Storage Gen2) endpoint, path-style `<url>/<account>` (the sandbox's, or SVC_LAKE_DFS_URL). */
  lakeDfsUrl?: string;
  /** Each item type's backend named by SVC_BACKEND_<TYPE> (item-types/backends.ts chooses the others). */
  backendOverrides: Record<string, string>;
  oneLakeUrl: string;
  portalUrl: string;
  fabricPortalUrl: string;
  /** DNS suffixes a backing host must end with before the service's token is sent to it. */
  allowedSuffixes: string[];
  /** The identity provider's application API (secret rotation); none in the sandbox unless SVC_GRAPH_URL says. */
  graphUrl?: string;
  graphAudience: string;
  /** The secret vault's token audience. */
  vaultAudience: string;
  /** Only the sandbox: plain http to loopback is allowed. */
  allowLoopback: boolean;
}

const commercial: CloudProfile = {
  name: 'commercial',
  authUrl: 'https://login.microsoftonline.com',
  identityProviderName: 'Microsoft Entra ID',
  dataPlatformApiUrl: 'https://api.fabric.microsoft.com/v1',
  dataPlatformAudience: 'https://analysis.windows.net/powerbi/api',
  biApiUrl: 'https://api.powerbi.com',
  biAppUrl: 'https://app.powerbi.com',
  biAudience: 'https://analysis.windows.net/powerbi/api',
  armUrl: 'https://management.azure.com',
  armAudience: 'https://management.azure.com/',
  kqlSuffixes: ['.kusto.windows.net', '.kusto.fabric.microsoft.com'],
  kqlAudience: 'https://kusto.kusto.windows.net',
  searchSuffix: '.search.windows.net',
  searchAudience: 'https://search.azure.com',
  sqlSuffixes: ['.database.windows.net', '.sql.azuresynapse.net', '.datawarehouse.fabric.microsoft.com'],
  sqlAudience: 'https://database.windows.net/',
  storageSuffix: '.core.windows.net',
  storageAudience: 'https://storage.azure.com',
  synapseDevSuffix: '.dev.azuresynapse.net',
  synapseAudience: 'https://dev.azuresynapse.net',
  synapseStudioUrl: 'https://web.azuresynapse.net',
  backendOverrides: {},
  oneLakeUrl: 'https://onelake.dfs.fabric.microsoft.com',
  portalUrl: 'https://portal.azure.com',
  fabricPortalUrl: 'https://app.fabric.microsoft.com',
  graphUrl: 'https://graph.microsoft.com',
  graphAudience: 'https://graph.microsoft.com',
  vaultAudience: 'https://vault.azure.net',
  allowedSuffixes: [
    'login.microsoftonline.com',
    'management.azure.com',
    '.fabric.microsoft.com',
    '.powerbi.com',
    '.analysis.windows.net',
    '.kusto.windows.net',
    '.search.windows.net',
    '.database.windows.net',
    '.sql.azuresynapse.net',
    '.dev.azuresynapse.net',
    '.core.windows.net',
  ],
  allowLoopback: false,
};

const govHigh = (name: 'gcc-high' | 'dod', bi: string, biAudience: string): CloudProfile => ({
  name,
  authUrl: 'https://login.microsoftonline.us',
  identityProviderName: 'Microsoft Entra ID (Azure Government)',
  // The data platform is not published in these clouds yet: its types run on the Azure-native backends unless
  // SVC_DATA_PLATFORM_API_URL names an endpoint (item-types/backends.ts).
  dataPlatformApiUrl: undefined,
  dataPlatformAudience: biAudience,
  biApiUrl: `https://api.${bi}`,
  biAppUrl: `https://app.${bi}`,
  biAudience,
  armUrl: 'https://management.usgovcloudapi.net',
  armAudience: 'https://management.usgovcloudapi.net/',
  kqlSuffixes: ['.kusto.usgovcloudapi.net'],
  kqlAudience: 'https://kusto.kusto.usgovcloudapi.net',
  searchSuffix: '.search.azure.us',
  searchAudience: 'https://search.azure.us',
  sqlSuffixes: ['.database.usgovcloudapi.net', '.sql.azuresynapse.usgovcloudapi.net'],
  sqlAudience: 'https://database.usgovcloudapi.net/',
  storageSuffix: '.core.usgovcloudapi.net',
  storageAudience: 'https://storage.azure.com',
  synapseDevSuffix: '.dev.azuresynapse.usgovcloudapi.net',
  synapseAudience: 'https://dev.azuresynapse.usgovcloudapi.net',
  synapseStudioUrl: 'https://web.azuresynapse.usgovcloudapi.net',
  backendOverrides: {},
  oneLakeUrl: 'https://onelake.dfs.fabric.microsoft.us',
  portalUrl: 'https://portal.azure.us',
  fabricPortalUrl: `https://app.${bi}`,
  graphUrl: name === 'dod' ? 'https://dod-graph.microsoft.us' : 'https://graph.microsoft.us',
  graphAudience: name === 'dod' ? 'https://dod-graph.microsoft.us' : 'https://graph.microsoft.us',
  vaultAudience: 'https://vault.usgovcloudapi.net',
  allowedSuffixes: [
    'login.microsoftonline.us',
    'management.usgovcloudapi.net',
    '.fabric.microsoft.us',
    `.${bi}`,
    '.usgovcloudapi.net',
    '.kusto.usgovcloudapi.net',
    '.search.azure.us',
    '.database.usgovcloudapi.net',
    '.sql.azuresynapse.usgovcloudapi.net',
    '.core.usgovcloudapi.net',
  ],
  allowLoopback: false,
});

const BASE: Record<Exclude<CloudName, 'sandbox'>, CloudProfile> = {
  commercial,
  gcc: {
    ...commercial,
    name: 'gcc',
    // Section 6: the data platform is not available in GCC, so its KQL and warehouse hosts are not GCC's.
    kqlSuffixes: ['.kusto.windows.net'],
    sqlSuffixes: ['.database.windows.net', '.sql.azuresynapse.net'],
    dataPlatformAudience: 'https://analysis.usgovcloudapi.net/powerbi/api',
    biApiUrl: 'https://api.powerbigov.us',
    biAppUrl: 'https://app.powerbigov.us',
    biAudience: 'https://analysis.usgovcloudapi.net/powerbi/api',
    fabricPortalUrl: 'https://app.powerbigov.us',
    allowedSuffixes: [...commercial.allowedSuffixes, 'api.powerbigov.us', 'app.powerbigov.us', '.analysis.usgovcloudapi.net'],
  },
  'gcc-high': govHigh('gcc-high', 'high.powerbigov.us', 'https://high.analysis.usgovcloudapi.net/powerbi/api'),
  dod: govHigh('dod', 'mil.powerbigov.us', 'https://mil.analysis.usgovcloudapi.net/powerbi/api'),
};

const hostOf = (url: string) => new URL(url).hostname;

/** The commercial cloud's identity provider: the only one where multi-tenant (organizations/common) sign-in is checked per tid. */
export const COMMERCIAL_AUTH_URL = commercial.authUrl;

/** Which cloud a deployment address belongs to, by the documented rule (see README "Clouds"). */
export function cloudFromAddress(publicUrl: string): CloudName | undefined {
  const host = hostOf(publicUrl);
  if (host === 'localhost' || host === '127.0.0.1' || host === '::1') return 'sandbox';
  if (/(^|\.)mil(\.|$)|\.dod\.|\.apps\.mil$/.test(host) || (host.endsWith('.azurewebsites.us') && host.includes('dod'))) return 'dod';
  if (host.endsWith('.us') || host.endsWith('.usgovcloudapi.net')) return 'gcc-high';
  if (host.endsWith('.gov')) return 'gcc';
  if (host.endsWith('.com') || host.endsWith('.net') || host.endsWith('.io') || host.endsWith('.org')) return 'commercial';
  return undefined;
}

/** The addresses and audiences a deployment may set for its cloud (config.ts, section `cloud`: SVC_AUTH_URL and the others). */
export type CloudOverrides = Partial<
  Pick<
    CloudProfile,
    | 'authUrl'
    | 'dataPlatformApiUrl'
    | 'dataPlatformAudience'
    | 'biApiUrl'
    | 'biAppUrl'
    | 'biAudience'
    | 'armUrl'
    | 'armAudience'
    | 'kqlAudience'
    | 'searchAudience'
    | 'sqlAudience'
    | 'oneLakeUrl'
    | 'storageAudience'
    | 'synapseAudience'
    | 'synapseDevUrl'
    | 'lakeDfsUrl'
  >
>;

/** The profile of the configured cloud with the deployment's overrides applied (config.ts has validated both). */
export function selectCloud(cloud: { name: CloudName; overrides: CloudOverrides; backends?: Record<string, string> }): CloudProfile {
  const { name } = cloud;
  // The sandbox speaks the commercial audiences but sends tokens to loopback only.
  const base: CloudProfile =
    name === 'sandbox'
      ? {
          ...commercial,
          name: 'sandbox',
          identityProviderName: 'Sandbox identity provider',
          graphUrl: undefined,
          // The sandbox has the data platform only when it says so (SVC_DATA_PLATFORM_API_URL in its environment).
          dataPlatformApiUrl: undefined,
          allowedSuffixes: [],
          allowLoopback: true,
        }
      : BASE[name];
  const profile: CloudProfile = { ...base, allowedSuffixes: [...base.allowedSuffixes], backendOverrides: { ...cloud.backends } };
  for (const [key, value] of Object.entries(cloud.overrides) as Array<[keyof CloudOverrides, string | undefined]>) {
    if (!value) continue;
    profile[key] = value;
    // An address the operator set explicitly is trusted as an exact host (not its parents).
    if (name !== 'sandbox' && key.endsWith('Url')) profile.allowedSuffixes.push(hostOf(value));
  }
  return profile;
}

/** Whether the service's token may be sent to this URL: https under an allowed suffix, or loopback in the sandbox. */
export function hostAllowed(profile: CloudProfile, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.hostname.toLowerCase();
  const loopback = host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
  if (loopback) return profile.allowLoopback;
  if (u.protocol !== 'https:') return false;
  return profile.allowedSuffixes.some((s) => (s.startsWith('.') ? host.endsWith(s) : host === s));
}
