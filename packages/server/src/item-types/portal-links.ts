import type { CloudProfile } from '../cloud/profiles.js';
import type { BackendId } from './descriptor.js';

/** Where a live item can be seen in its cloud: the portal's name and the address. */
export interface PortalLink {
  name: string;
  url: string;
}

const enc = encodeURIComponent;
const isArmId = (id: string | undefined): id is string => Boolean(id && /^\/subscriptions\/[^/]+\/resourceGroups\//i.test(id));

/**
 * The portal of the item's cloud that shows its live resource: the data platform's (or the reporting service's) for a
 * platform or reporting item, Synapse Studio for a Synapse artifact, the Azure portal of the cloud (portal.azure.com,
 * portal.azure.us) for a resource manager resource, a lake account or a cluster. Undefined when nothing is live.
 */
export function portalLink(
  profile: CloudProfile,
  backend: BackendId,
  live: { resourceId?: string | null; secondaryIds?: Record<string, string> | null },
): PortalLink | undefined {
  const id = live.resourceId ?? undefined;
  if (!id || backend === 'stored') return undefined;
  const ws = live.secondaryIds?.platformWorkspaceId;
  const azure = (path: string) => ({ name: 'Azure portal', url: `${profile.portalUrl}/${path}` });
  switch (backend) {
    case 'data-platform':
      return { name: 'Data platform portal', url: ws ? `${profile.fabricPortalUrl}/groups/${enc(ws)}` : profile.fabricPortalUrl };
    case 'reporting':
      return { name: 'Reporting service', url: ws ? `${profile.biAppUrl}/groups/${enc(ws)}/list` : profile.biAppUrl };
    case 'synapse':
      // Studio opens a workspace by its resource manager id, which the service does not hold: it asks which one.
      return { name: 'Synapse Studio', url: profile.synapseStudioUrl };
    case 'event-hubs':
    case 'monitor':
      return isArmId(id) ? azure(`#@/resource${id}`) : azure('#home');
    case 'kql': {
      const cluster = live.secondaryIds?.clusterResourceId;
      return isArmId(cluster) ? azure(`#@/resource${cluster}`) : azure('#browse/Microsoft.Kusto%2Fclusters');
    }
    case 'lake':
      return azure('#browse/Microsoft.Storage%2FStorageAccounts');
    case 'search':
      return azure('#browse/Microsoft.Search%2FsearchServices');
    case 'warehouse':
      return azure('#browse/Microsoft.Synapse%2Fworkspaces');
  }
}
