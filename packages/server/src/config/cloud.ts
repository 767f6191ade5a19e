import { CLOUD_NAMES, cloudFromAddress, type CloudName, type CloudOverrides } from '../cloud/profiles.js';
import { address, ConfigError, oneOf, type Setting, url, WEB } from './setting.js';

const overrides = (thing: string, note = '') => ({
  shown: "the cloud's",
  meaning: `the selected cloud's ${thing} (an overridden host is trusted as that exact host)${note}`,
});
const audience = (of: string) => ({ shown: "the cloud's", meaning: `the selected cloud's token audience for ${of}` });

/** The cloud and its overridden addresses and audiences. */
export const CLOUD = {
  name: oneOf('SVC_CLOUD', CLOUD_NAMES, {
    shown: 'from `SVC_PUBLIC_URL`, else `sandbox`',
    meaning: '`commercial`, `gcc`, `gcc-high`, `dod` or `sandbox` (see [Clouds](#clouds))',
  }),
  authUrl: url('SVC_AUTH_URL', WEB, overrides('identity provider address')),
  dataPlatformApiUrl: url(
    'SVC_DATA_PLATFORM_API_URL',
    WEB,
    overrides('data platform API address', '; set it in the government clouds, where it is not published'),
  ),
  dataPlatformAudience: url('SVC_DATA_PLATFORM_AUDIENCE', WEB, audience('the data platform API')),
  biApiUrl: url('SVC_BI_API_URL', WEB, overrides('reporting API address')),
  biAppUrl: url('SVC_BI_APP_URL', WEB, overrides('reporting app address (report links)')),
  biAudience: url('SVC_BI_AUDIENCE', WEB, audience('the reporting API')),
  armUrl: url('SVC_ARM_URL', WEB, overrides('resource manager address')),
  armAudience: url('SVC_ARM_AUDIENCE', WEB, audience('the resource manager')),
  kqlAudience: url('SVC_KQL_AUDIENCE', WEB, { shown: "each cluster's own address", meaning: 'token audience of the KQL clusters' }),
  searchAudience: url('SVC_SEARCH_AUDIENCE', WEB, audience('the search services')),
  sqlAudience: url('SVC_SQL_AUDIENCE', WEB, audience('the warehouses (T-SQL)')),
  oneLakeUrl: url('SVC_ONELAKE_URL', WEB, overrides('lake data-plane address')),
  storageAudience: url('SVC_STORAGE_AUDIENCE', WEB, audience('lake storage')),
  synapseAudience: url('SVC_SYNAPSE_AUDIENCE', WEB, audience('the Synapse development endpoints (artifacts API)')),
  synapseDevUrl: url('SVC_SYNAPSE_DEV_URL', WEB, {
    shown: '`https://<workspace>.dev.azuresynapse.net` (per cloud)',
    meaning: "the Synapse workspace's development endpoint, when it is not the cloud's default for the workspace (the sandbox sets it)",
  }),
  lakeDfsUrl: url('SVC_LAKE_DFS_URL', WEB, {
    shown: '`https://<account>.dfs.core.windows.net` (per cloud)',
    meaning: "the lake (Data Lake Storage Gen2) endpoint, path-style (`<url>/<account>`), when it is not the cloud's (the sandbox sets it)",
  }),
} satisfies { name: Setting<CloudName | undefined> } & { [K in keyof Required<CloudOverrides>]: Setting<string | undefined> };

/** The selected cloud (SVC_CLOUD, else the one SVC_PUBLIC_URL's host names, else the sandbox) and its overridden addresses. */
export interface CloudConfig {
  name: CloudName;
  overrides: CloudOverrides;
  /** SVC_BACKEND_<TYPE> settings that are set, by item type id. */
  backends?: Record<string, string>;
}

/** SVC_CLOUD, else the cloud SVC_PUBLIC_URL's host names, else the sandbox. */
export function selectedCloud(name: CloudName | undefined, publicUrl: string | undefined): CloudName {
  if (name) return name;
  if (!publicUrl) return 'sandbox';
  const derived = cloudFromAddress(publicUrl);
  if (!derived)
    throw new ConfigError('SVC_PUBLIC_URL', `matches no cloud rule (${publicUrl}); set SVC_CLOUD to one of ${CLOUD_NAMES.join(', ')}`);
  return derived;
}
